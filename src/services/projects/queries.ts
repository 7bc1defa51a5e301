import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { Database } from '../../db/schema';
import type { Caller } from '../policy';
import { INTERNAL, OWNER, PUBLIC, readsEverything } from '../policy';

type Eb = ExpressionBuilder<Database, 'projects'>;

function groupIdsOf(eb: Eb, userId: number, minimumAccess = 0) {
  return eb
    .selectFrom('members')
    .select('source_id')
    .where('source_type', '=', 'Namespace')
    .where('user_id', '=', userId)
    .where('requested_at', 'is', null)
    .where('access_level', '>=', minimumAccess);
}

function personalNamespaceIdsOf(eb: Eb, userId: number) {
  return eb.selectFrom('namespaces').select('id').where('owner_id', '=', userId).where('kind', '=', 'user');
}

/**
 * Ids of the projects the user is authorized for: member of the project or its group, owner of
 * its personal namespace, or member of a group it is shared with. One `IN (… UNION ALL …)` rather
 * than ORed conditions, so that PostgreSQL starts from the user's few projects instead of scanning
 * all of them; each branch is an indexed look-up, so the cost follows the user's memberships. ALL:
 * an id named twice is still one match, and SQLite need not sort each branch to merge them.
 */
function authorizedProjectIds(eb: Eb, userId: number) {
  return eb
    .selectFrom('members')
    .select('members.source_id as id')
    .where('members.source_type', '=', 'Project')
    .where('members.user_id', '=', userId)
    .where('members.requested_at', 'is', null)
    .unionAll(eb.selectFrom('projects as in_group').select('in_group.id').where('in_group.namespace_id', 'in', groupIdsOf(eb, userId)))
    .unionAll(
      eb.selectFrom('projects as personal').select('personal.id').where('personal.namespace_id', 'in', personalNamespaceIdsOf(eb, userId)),
    )
    .unionAll(
      eb
        .selectFrom('project_group_links')
        .select('project_group_links.project_id as id')
        .where('project_group_links.group_id', 'in', groupIdsOf(eb, userId)),
    );
}

export function authorizedFor(eb: Eb, userId: number): Expression<SqlBool> {
  return eb('projects.id', 'in', authorizedProjectIds(eb, userId));
}

/** Projects in the user's namespace or in groups the user owns. */
export function ownedBy(eb: Eb, userId: number): Expression<SqlBool> {
  return eb(
    'projects.id',
    'in',
    eb
      .selectFrom('projects as personal')
      .select('personal.id')
      .where('personal.namespace_id', 'in', personalNamespaceIdsOf(eb, userId))
      .union(
        eb
          .selectFrom('projects as owned')
          .select('owned.id')
          .where('owned.namespace_id', 'in', groupIdsOf(eb, userId, OWNER)),
      ),
  );
}

/** Every project the caller may read. */
export function visibleTo(eb: Eb, caller: Caller | null): Expression<SqlBool> {
  if (readsEverything(caller)) return sql<SqlBool>`1 = 1`;
  if (!caller) return eb('projects.visibility_level', '>=', PUBLIC);
  const openLevel = caller.external === 1 ? PUBLIC : INTERNAL;
  return eb.or([eb('projects.visibility_level', '>=', openLevel), authorizedFor(eb, caller.id)]);
}
