import type { Db } from '../../db/index';

/** The query counting the projects in a user's personal namespace (for `projects_limit`). */
export function personalProjectCountQuery(db: Db, userId: number) {
  return db
    .selectFrom('projects')
    .innerJoin('namespaces', 'namespaces.id', 'projects.namespace_id')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('namespaces.owner_id', '=', userId)
    .where('namespaces.kind', '=', 'user')
    .where('projects.pending_delete', '=', 0);
}

/** How many projects live in the user's personal namespace. */
export async function countPersonalProjects(db: Db, userId: number): Promise<number> {
  const { count } = await personalProjectCountQuery(db, userId).executeTakeFirstOrThrow();
  return Number(count);
}
