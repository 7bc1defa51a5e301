import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { Database } from '../../db/schema';
import type { Caller } from '../policy';
import { INTERNAL, OWNER, PUBLIC } from '../policy';

type ProjectsEb = ExpressionBuilder<Database, 'projects'>;

/**
 * Projects the user is authorized for: member of the project or its group, owner of
 * its personal namespace, or member of a group it is shared with. Each branch is an
 * indexed look-up, so the cost follows the user's memberships, not the table size.
 */
export function authorizedFor(eb: ProjectsEb, userId: number): Expression<SqlBool> {
  return eb.or([
    eb('projects.id', 'in', eb.selectFrom('members').select('source_id').where('source_type', '=', 'Project').where('user_id', '=', userId).where('requested_at', 'is', null)),
    eb('projects.namespace_id', 'in', groupIdsOf(eb, userId)),
    eb('projects.namespace_id', 'in', eb.selectFrom('namespaces').select('id').where('owner_id', '=', userId).where('kind', '=', 'user')),
    eb('projects.id', 'in', eb.selectFrom('project_group_links').select('project_id').where('group_id', 'in', groupIdsOf(eb, userId))),
  ]);
}

function groupIdsOf(eb: ProjectsEb, userId: number, minimumAccess = 0) {
  return eb
    .selectFrom('members')
    .select('source_id')
    .where('source_type', '=', 'Namespace')
    .where('user_id', '=', userId)
    .where('requested_at', 'is', null)
    .where('access_level', '>=', minimumAccess);
}

/** Projects in the user's namespace or in groups the user owns. */
export function ownedBy(eb: ProjectsEb, userId: number): Expression<SqlBool> {
  return eb.or([
    eb('projects.namespace_id', 'in', eb.selectFrom('namespaces').select('id').where('owner_id', '=', userId).where('kind', '=', 'user')),
    eb('projects.namespace_id', 'in', groupIdsOf(eb, userId, OWNER)),
  ]);
}

/** Every project the caller may read. */
export function visibleTo(eb: ProjectsEb, caller: Caller | null): Expression<SqlBool> {
  if (caller?.admin === 1) return sql<SqlBool>`1 = 1`;
  if (!caller) return eb('projects.visibility_level', '>=', PUBLIC);
  const openLevel = caller.external === 1 ? PUBLIC : INTERNAL;
  return eb.or([eb('projects.visibility_level', '>=', openLevel), authorizedFor(eb, caller.id)]);
}
