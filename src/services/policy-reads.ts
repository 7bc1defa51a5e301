import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db } from '../db/index';
import type { Database } from '../db/schema';
import { reachedProjectIds } from './policy-reach';
import { can, effectiveAccess, GUEST, INTERNAL, PRIVATE, PUBLIC, REPORTER, type Caller, type ProjectStanding } from './policy';

/**
 * The policy's one rule for what a project holds that not every reader of the project may see:
 * "may this caller read this issue, snippet, merge request, note or event". Each rule is written
 * here once, in the forms its readers need: for one record (a route that shows it), for a project's
 * list (a SQL condition from the caller's standing, so that pages and totals are filtered in the
 * database), and across projects (a SQL condition from the caller alone: todos, a group's issues).
 * Everything that shows an issue, a note, a snippet, a merge request or an event asks here.
 */

const TRUE = sql<SqlBool>`1 = 1`;
const FALSE = sql<SqlBool>`1 = 0`;

/**
 * An anonymous visitor to the rules across projects below (which take a signed-in caller): an
 * external user who is a member of nothing (id 0 is nobody's) reads public projects only and no
 * confidential issue, which is what `can` lets an anonymous caller read in each project.
 */
export const ANONYMOUS_READER: Caller = { id: 0, admin: 0, external: 1 };

// ---- Issues ----

/** Whether the caller sees every confidential issue of the project: reporters and up (and administrators, owners). */
export function seesConfidential(standing: ProjectStanding): boolean {
  return effectiveAccess(standing) >= REPORTER;
}

/** The columns of an issue the rule reads. */
export interface IssueFacts {
  confidential: number;
  author_id: number | null;
  assignee_id: number | null;
}

/**
 * An issue of a project whose issues the caller reads; a confidential one only by administrators,
 * reporters and up, its author and its assignee (GitLab 8.12's `Issue#readable_by?`).
 */
export function mayReadIssue(standing: ProjectStanding, issue: IssueFacts): boolean {
  if (!can(standing, 'read_issue')) return false;
  if (issue.confidential !== 1 || seesConfidential(standing)) return true;
  const callerId = standing.caller?.id;
  return callerId !== undefined && (issue.author_id === callerId || issue.assignee_id === callerId);
}

/** Who may change an issue: `update_issue`, or its author or assignee, among those who read it (GitLab 8.12's `update_issue`). */
export function mayUpdateIssue(standing: ProjectStanding, issue: IssueFacts): boolean {
  if (!mayReadIssue(standing, issue)) return false;
  const callerId = standing.caller?.id;
  return can(standing, 'update_issue') || (callerId !== undefined && (issue.author_id === callerId || issue.assignee_id === callerId));
}

type IssuesEb = ExpressionBuilder<Database, 'issues'>;

/** `mayReadIssue` as a condition on the `issues` of the project whose standing this is. */
export function readableIssuesIn(standing: ProjectStanding): (eb: IssuesEb) => Expression<SqlBool> {
  return (eb) => {
    if (!can(standing, 'read_issue')) return FALSE;
    if (seesConfidential(standing)) return TRUE;
    return notConfidentialOrOwn(eb, standing.caller?.id ?? 0);
  };
}

/** The part of the rule for a caller who does not see every confidential issue: not confidential, or their own (author, assignee). */
export function notConfidentialOrOwn(eb: IssuesEb, callerId: number): Expression<SqlBool> {
  return eb.or([eb('issues.confidential', '=', 0), eb('issues.author_id', '=', callerId), eb('issues.assignee_id', '=', callerId)]);
}

// ---- Snippets ----

const SNIPPET_LEVELS = [PRIVATE, INTERNAL, PUBLIC];

/**
 * The snippet levels a caller sees in a project whose snippets they read (GitLab 8.12's
 * `SnippetsFinder` `by_project`): members and admins all of them, other signed-in users public and
 * internal ones, anonymous callers public ones. External users see only public ones of a project
 * they are not a member of: 8.12's finder listed internal ones to them too, which its own snippet
 * policy refused.
 */
export function visibleSnippetLevels(standing: ProjectStanding): number[] {
  if (effectiveAccess(standing) >= GUEST) return SNIPPET_LEVELS;
  return standing.caller === null || standing.caller.external === 1 ? [PUBLIC] : [INTERNAL, PUBLIC];
}

/** A snippet of the project: its snippets readable, its level one the caller sees. */
export function mayReadSnippet(standing: ProjectStanding, snippet: { visibility_level: number }): boolean {
  return can(standing, 'read_project_snippet') && visibleSnippetLevels(standing).includes(snippet.visibility_level);
}

/** `mayReadSnippet` as a condition on the `snippets` of the project whose standing this is. */
export function readableSnippetsIn(standing: ProjectStanding): (eb: ExpressionBuilder<Database, 'snippets'>) => Expression<SqlBool> {
  return (eb) => (can(standing, 'read_project_snippet') ? eb('snippets.visibility_level', 'in', visibleSnippetLevels(standing)) : FALSE);
}

// ---- Merge requests ----

/**
 * A merge request of the project (`read_merge_request`: in a private project reporters and up
 * only, see `policy.ts`). Every merge request of a project reads alike.
 */
export function mayReadMergeRequest(standing: ProjectStanding): boolean {
  return can(standing, 'read_merge_request');
}

// ---- Notes and events of one project ----

type EventsEb = ExpressionBuilder<Database, 'events'>;

/**
 * The notes of the project the caller may read: each as what it is on is read (an issue, a merge
 * request, a snippet; a comment on a commit as the code is), as a subquery of their ids.
 */
function readableNoteIdsIn(db: Db, projectId: number, standing: ProjectStanding) {
  const issues = db.selectFrom('issues').select('issues.id').where('issues.project_id', '=', projectId).where(readableIssuesIn(standing));
  const snippets = db
    .selectFrom('snippets')
    .select('snippets.id')
    .where('snippets.project_id', '=', projectId)
    .where(readableSnippetsIn(standing));
  return db
    .selectFrom('notes')
    .select('notes.id')
    .where('notes.project_id', '=', projectId)
    .where((eb) =>
      eb.or([
        eb.and([eb('notes.noteable_type', '=', 'Issue'), eb('notes.noteable_id', 'in', issues)]),
        eb.and([eb('notes.noteable_type', '=', 'Snippet'), eb('notes.noteable_id', 'in', snippets)]),
        ...(mayReadMergeRequest(standing) ? [eb('notes.noteable_type', '=', 'MergeRequest')] : []),
        ...(can(standing, 'download_code') ? [eb('notes.noteable_type', '=', 'Commit')] : []),
      ]),
    );
}

/**
 * The events of one project the caller may see (GitLab 8.12's `Event#visible_to_user?`, which the
 * events API filtered by): an event about an issue, a merge request, a note or a milestone as its
 * target is read now (an issue since deleted as a confidential one, so only by reporters and up); a
 * push, which lists commits, by those who may read the code; the project's creation and its members
 * joining or leaving by everyone who reads the project. A note on a snippet is seen as the snippet
 * is (8.12 showed such events to nobody).
 */
export function visibleEventsIn(db: Db, projectId: number, standing: ProjectStanding): (eb: EventsEb) => Expression<SqlBool> {
  return (eb) => {
    const issues = db.selectFrom('issues').select('issues.id').where('issues.project_id', '=', projectId).where(readableIssuesIn(standing));
    const readable = (type: string, condition: Expression<SqlBool> | boolean) =>
      eb.and([eb('events.target_type', '=', type), condition === true ? TRUE : condition === false ? FALSE : condition]);
    return eb.or([
      eb.and([eb('events.target_type', 'is', null), can(standing, 'download_code') ? TRUE : eb('events.data', 'is', null)]),
      readable('Issue', !can(standing, 'read_issue') ? false : seesConfidential(standing) ? true : eb('events.target_id', 'in', issues)),
      readable('MergeRequest', mayReadMergeRequest(standing)),
      readable('Milestone', can(standing, 'read_milestone')),
      readable('Note', eb('events.target_id', 'in', readableNoteIdsIn(db, projectId, standing))),
    ]);
  };
}

// ---- Across projects, from the caller alone ----

/** Ids of the projects whose issues the caller may read (`read_issue`): readable, not being deleted, issues on. */
export function issueProjectIds(db: Db, caller: Caller) {
  const query = db
    .selectFrom('projects')
    .select('projects.id')
    .where('projects.pending_delete', '=', 0)
    .where('projects.issues_enabled', '=', 1);
  if (caller.admin === 1) return query;
  const openLevel = caller.external === 1 ? PUBLIC : INTERNAL;
  return query.where((eb) =>
    eb.or([eb('projects.visibility_level', '>=', openLevel), eb('projects.id', 'in', reachedProjectIds(caller.id, GUEST))]),
  );
}

/**
 * Ids of the projects whose merge requests the caller may read (`read_merge_request`): as their
 * issues, but a private project's only from reporters up.
 */
export function mergeRequestProjectIds(db: Db, caller: Caller) {
  const query = db
    .selectFrom('projects')
    .select('projects.id')
    .where('projects.pending_delete', '=', 0)
    .where('projects.merge_requests_enabled', '=', 1);
  if (caller.admin === 1) return query;
  const openLevel = caller.external === 1 ? PUBLIC : INTERNAL;
  return query.where((eb) =>
    eb.or([
      eb('projects.visibility_level', '>=', openLevel),
      eb('projects.id', 'in', reachedProjectIds(caller.id, REPORTER)),
      eb.and([eb('projects.visibility_level', '>', PRIVATE), eb('projects.id', 'in', reachedProjectIds(caller.id, GUEST))]),
    ]),
  );
}

/**
 * `mayReadIssue` across projects: the issues of projects whose issues the caller reads (of some of
 * them: `projectIds`, a narrower `issueProjectIds`), confidential ones where they are a reporter or
 * up, the author or the assignee.
 */
export function readableIssues(db: Db, caller: Caller, projectIds = issueProjectIds(db, caller)): (eb: IssuesEb) => Expression<SqlBool> {
  return (eb) => eb.and([eb('issues.project_id', 'in', projectIds), confidentialFilter(caller)(eb)]);
}

/** The confidential part of `readableIssues`, for a query that has checked the project elsewhere. */
export function confidentialFilter(caller: Caller): (eb: IssuesEb) => Expression<SqlBool> {
  return (eb) =>
    caller.admin === 1
      ? TRUE
      : eb.or([notConfidentialOrOwn(eb, caller.id), eb('issues.project_id', 'in', reachedProjectIds(caller.id, REPORTER))]);
}

/** Ids of the projects whose code the caller may read (`download_code`): readable by all, or a reporter and up. */
export function codeProjectIds(db: Db, caller: Caller) {
  const query = db.selectFrom('projects').select('projects.id').where('projects.pending_delete', '=', 0);
  if (caller.admin === 1) return query;
  const openLevel = caller.external === 1 ? PUBLIC : INTERNAL;
  return query.where((eb) =>
    eb.or([eb('projects.visibility_level', '>=', openLevel), eb('projects.id', 'in', reachedProjectIds(caller.id, REPORTER))]),
  );
}

/** Ids of the projects the caller reads at all (`read_project`). */
function readableProjectIds(db: Db, caller: Caller) {
  const query = db.selectFrom('projects').select('projects.id').where('projects.pending_delete', '=', 0);
  if (caller.admin === 1) return query;
  const openLevel = caller.external === 1 ? PUBLIC : INTERNAL;
  return query.where((eb) =>
    eb.or([eb('projects.visibility_level', '>=', openLevel), eb('projects.id', 'in', reachedProjectIds(caller.id, GUEST))]),
  );
}

/**
 * `visibleEventsIn` across projects, from the caller alone (a user's events, `GET /events`): the
 * same rule by target, with each project's standing read in SQL. Where the one-project rule needs
 * more than the caller (a milestone of a project whose issues are off but merge requests on, a
 * note on a snippet), the event is left out: across projects this rule may hide more, never show more.
 */
export function visibleEventsAcross(db: Db, caller: Caller): (eb: EventsEb) => Expression<SqlBool> {
  return (eb) => {
    const issueIds = db.selectFrom('issues').select('issues.id').where(readableIssues(db, caller));
    const mergeRequestProjects = mergeRequestProjectIds(db, caller);
    const codeProjects = codeProjectIds(db, caller);
    const noteIds = db
      .selectFrom('notes')
      .select('notes.id')
      .where((nb) =>
        nb.or([
          nb.and([nb('notes.noteable_type', '=', 'Issue'), nb('notes.noteable_id', 'in', issueIds)]),
          nb.and([nb('notes.noteable_type', '=', 'MergeRequest'), nb('notes.project_id', 'in', mergeRequestProjects)]),
          nb.and([nb('notes.noteable_type', '=', 'Commit'), nb('notes.project_id', 'in', codeProjects)]),
        ]),
      );
    return eb.and([
      eb('events.project_id', 'in', readableProjectIds(db, caller)),
      eb.or([
        eb.and([eb('events.target_type', 'is', null), eb.or([eb('events.data', 'is', null), eb('events.project_id', 'in', codeProjects)])]),
        eb.and([eb('events.target_type', '=', 'Issue'), eb('events.target_id', 'in', issueIds)]),
        eb.and([eb('events.target_type', '=', 'MergeRequest'), eb('events.project_id', 'in', mergeRequestProjects)]),
        eb.and([eb('events.target_type', '=', 'Milestone'), eb('events.project_id', 'in', issueProjectIds(db, caller))]),
        eb.and([eb('events.target_type', '=', 'Note'), eb('events.target_id', 'in', noteIds)]),
      ]),
    ]);
  };
}
