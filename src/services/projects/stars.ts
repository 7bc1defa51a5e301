import type { Db } from '../../db/index';
import { notModified } from '../../errors';
import { now } from '../../lib/time';
import type { Caller } from '../policy';
import type { Project } from './types';
import { inTransaction } from '../../db/transaction';

/** Whether the user has starred the project (the project page's Star or Unstar). */
export async function hasStarred(db: Db, project: Project, user: Caller): Promise<boolean> {
  const row = await db
    .selectFrom('stars')
    .select('id')
    .where('user_id', '=', user.id)
    .where('project_id', '=', project.id)
    .executeTakeFirst();
  return row !== undefined;
}

/** Star: 304 when already starred. */
export function star(db: Db, project: Project, user: Caller): Promise<Project> {
  return inTransaction(db, async (trx) => {
    const existing = await trx
      .selectFrom('stars')
      .select('id')
      .where('user_id', '=', user.id)
      .where('project_id', '=', project.id)
      .executeTakeFirst();
    if (existing) throw notModified();
    await trx.insertInto('stars').values({ user_id: user.id, project_id: project.id, created_at: now() }).execute();
    return refreshStarCount(trx, project);
  });
}

/** Unstar: 304 when not starred. */
export function unstar(db: Db, project: Project, user: Caller): Promise<Project> {
  return inTransaction(db, async (trx) => {
    const removed = await trx.deleteFrom('stars').where('user_id', '=', user.id).where('project_id', '=', project.id).executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) throw notModified();
    return refreshStarCount(trx, project);
  });
}

async function refreshStarCount(trx: Db, project: Project): Promise<Project> {
  const row = await trx
    .updateTable('projects')
    .set({
      star_count: (eb) =>
        eb
          .selectFrom('stars')
          .select((s) => s.fn.countAll<number>().as('n'))
          .where('project_id', '=', project.id),
    })
    .where('id', '=', project.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...row, namespace: project.namespace };
}
