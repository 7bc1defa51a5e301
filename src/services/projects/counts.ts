import type { Db } from '../../db/index';

/** How many projects live in the user's personal namespace (for `projects_limit`). */
export async function countPersonalProjects(db: Db, userId: number): Promise<number> {
  const { count } = await db
    .selectFrom('projects')
    .innerJoin('namespaces', 'namespaces.id', 'projects.namespace_id')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('namespaces.owner_id', '=', userId)
    .where('namespaces.kind', '=', 'user')
    .where('projects.pending_delete', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(count);
}
