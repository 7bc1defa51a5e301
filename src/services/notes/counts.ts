import type { Db } from '../../db/index';

/** How many notes people (not the system) wrote on each issue or merge request; one query for a page. */
export async function userNoteCounts(db: Db, type: 'Issue' | 'MergeRequest', ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('notes')
    .select(['noteable_id', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('noteable_type', '=', type)
    .where('noteable_id', 'in', ids)
    .where('system', '=', 0)
    .groupBy('noteable_id')
    .execute();
  return new Map(rows.map((row) => [row.noteable_id!, Number(row.count)]));
}
