import { expressionBuilder } from 'kysely';
import type { Database } from '../db/schema';

/*
 * The projects a user reaches through memberships, written once as SQL: the projects API's
 * `authorized` scope and every project list a user sees (`projects/queries.ts`), the policy's reads
 * across projects (`policy-reads.ts`), and the runners and deploy keys a user manages ask here.
 * Subqueries only: they are built without a database handle and go into any query's `IN`.
 */

const eb = expressionBuilder<Database>();

/** Groups the user is a member of (not merely asking to be), with at least `minimumAccess` there. */
export function groupIdsOf(userId: number, minimumAccess = 0) {
  return eb
    .selectFrom('members')
    .select('source_id')
    .where('source_type', '=', 'Namespace')
    .where('user_id', '=', userId)
    .where('requested_at', 'is', null)
    .where('access_level', '>=', minimumAccess);
}

/** The user's personal namespace. */
export function personalNamespaceIdsOf(userId: number) {
  return eb.selectFrom('namespaces').select('id').where('owner_id', '=', userId).where('kind', '=', 'user');
}

/**
 * Ids of the projects the user reaches with at least `minimumAccess` (any level by default): as a
 * member of the project or of its group, as the owner of its personal namespace, or through a group
 * it is shared with, where both the share and the membership reach the level (the lower of the two
 * counts, as the policy reads it). Projects being deleted are among them: callers that list filter them.
 *
 * One `IN (… UNION ALL …)` rather than ORed conditions, so that PostgreSQL starts from the user's
 * few projects instead of scanning all of them; each branch is an indexed look-up, so the cost
 * follows the user's memberships. ALL: an id named twice is still one match, and SQLite need not
 * sort each branch to merge them. Every project list runs this: its shape is measured by the benchmarks.
 */
export function reachedProjectIds(userId: number, minimumAccess = 0) {
  const atLeast = minimumAccess > 0;
  return eb
    .selectFrom('members')
    .select('members.source_id as id')
    .where('members.source_type', '=', 'Project')
    .where('members.user_id', '=', userId)
    .where('members.requested_at', 'is', null)
    .$if(atLeast, (query) => query.where('members.access_level', '>=', minimumAccess))
    .unionAll(
      eb.selectFrom('projects as in_group').select('in_group.id').where('in_group.namespace_id', 'in', groupIdsOf(userId, minimumAccess)),
    )
    .unionAll(
      eb.selectFrom('projects as personal').select('personal.id').where('personal.namespace_id', 'in', personalNamespaceIdsOf(userId)),
    )
    .unionAll(
      eb
        .selectFrom('project_group_links')
        .select('project_group_links.project_id as id')
        .where('project_group_links.group_id', 'in', groupIdsOf(userId, minimumAccess))
        .$if(atLeast, (query) => query.where('project_group_links.group_access', '>=', minimumAccess)),
    );
}
