import type { Db } from '../../db/index';
import { preparedPerHandle } from '../../db/prepared';

// Every page of issues or merge requests asks: built and compiled once (per page size).
const noteCountRows = preparedPerHandle((db: Db, type: 'Issue' | 'MergeRequest', ids: number[]) =>
  db
    .selectFrom('notes')
    .select(['noteable_id', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('noteable_type', '=', type)
    .where('noteable_id', 'in', ids)
    .where('system', '=', 0)
    .groupBy('noteable_id'),
);

/** How many notes people (not the system) wrote on each issue or merge request; one query for a page. */
export async function userNoteCounts(db: Db, type: 'Issue' | 'MergeRequest', ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await noteCountRows(db, type, ids);
  return new Map(rows.map((row) => [row.noteable_id!, Number(row.count)]));
}
