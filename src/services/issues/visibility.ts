import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../../db/index';
import type { Database } from '../../db/schema';
import { effectiveAccess, GUEST, INTERNAL, PUBLIC, REPORTER, type Caller, type ProjectStanding } from '../policy';
import type { IssueRow } from './types';

type IssuesEb = ExpressionBuilder<Database, 'issues'>;

/**
 * Ids of the projects where the user holds at least `minimumAccess`, through any route: a
 * membership of the project or of its group, the personal namespace, or a share with a group where
 * both the share and the membership reach it (the lower of the two counts).
 */
function memberProjectIds(db: Db, userId: number, minimumAccess: number) {
  const groups = db
    .selectFrom('members')
    .select('source_id')
    .where('source_type', '=', 'Namespace')
    .where('user_id', '=', userId)
    .where('requested_at', 'is', null)
    .where('access_level', '>=', minimumAccess);
  const personalNamespaces = db.selectFrom('namespaces').select('id').where('owner_id', '=', userId).where('kind', '=', 'user');
  return db
    .selectFrom('members')
    .select('source_id as id')
    .where('source_type', '=', 'Project')
    .where('user_id', '=', userId)
    .where('requested_at', 'is', null)
    .where('access_level', '>=', minimumAccess)
    .union(db.selectFrom('projects').select('id').where('namespace_id', 'in', groups))
    .union(db.selectFrom('projects').select('id').where('namespace_id', 'in', personalNamespaces))
    .union(db.selectFrom('project_group_links').select('project_id as id').where('group_access', '>=', minimumAccess).where('group_id', 'in', groups));
}

/** Ids of the projects whose issues the caller may read: readable, not being deleted, issues enabled. */
export function issueProjectIds(db: Db, caller: Caller) {
  return featureProjectIds(db, caller, 'issues_enabled');
}

/** Ids of the projects the caller may read that are not being deleted and have the feature on (their issues, their merge requests). */
export function featureProjectIds(db: Db, caller: Caller, feature: 'issues_enabled' | 'merge_requests_enabled') {
  const query = db.selectFrom('projects').select('projects.id').where('projects.pending_delete', '=', 0).where(`projects.${feature}`, '=', 1);
  if (caller.admin === 1) return query;
  const openLevel = caller.external === 1 ? PUBLIC : INTERNAL;
  return query.where((eb) => eb.or([eb('projects.visibility_level', '>=', openLevel), eb('projects.id', 'in', memberProjectIds(db, caller.id, GUEST))]));
}

/**
 * Confidential issues are shown to administrators, to reporters and up of their project, and to
 * their author and assignee (GitLab 8.12's `Issue.visible_to_user`).
 */
export function confidentialFilter(db: Db, caller: Caller): (eb: IssuesEb) => Expression<SqlBool> {
  return (eb) => {
    if (caller.admin === 1) return sql<SqlBool>`1 = 1`;
    return eb.or([
      eb('issues.confidential', '=', 0),
      eb('issues.author_id', '=', caller.id),
      eb('issues.assignee_id', '=', caller.id),
      eb('issues.project_id', 'in', memberProjectIds(db, caller.id, REPORTER)),
    ]);
  };
}

/** Whether the caller sees every confidential issue of the project whose standing this is. */
export function seesConfidential(standing: ProjectStanding): boolean {
  return effectiveAccess(standing) >= REPORTER;
}

/** Whether the caller, who reads the project's issues, may read this one. */
export function mayReadIssue(standing: ProjectStanding, issue: IssueRow): boolean {
  if (issue.confidential !== 1 || seesConfidential(standing)) return true;
  const callerId = standing.caller?.id;
  return callerId !== undefined && (issue.author_id === callerId || issue.assignee_id === callerId);
}
