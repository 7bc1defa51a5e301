import type { Db } from '../../db/index';
import { preparedPerHandle } from '../../db/prepared';

export interface Votes {
  upvotes: number;
  downvotes: number;
}

// Every page of issues or merge requests asks: built and compiled once (per page size).
const voteRows = preparedPerHandle((db: Db, type: 'Issue' | 'MergeRequest', ids: number[]) =>
  db
    .selectFrom('award_emoji')
    .select(['awardable_id', 'name', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('awardable_type', '=', type)
    .where('awardable_id', 'in', ids)
    .where('name', 'in', ['thumbsup', 'thumbsdown'])
    .groupBy(['awardable_id', 'name']),
);

/** The `thumbsup` and `thumbsdown` awards of each issue or merge request; one query for a page. */
export async function voteCounts(db: Db, type: 'Issue' | 'MergeRequest', ids: number[]): Promise<(id: number) => Votes> {
  const rows = ids.length ? await voteRows(db, type, ids) : [];
  const count = (id: number, name: string) => Number(rows.find((row) => row.awardable_id === id && row.name === name)?.count ?? 0);
  return (id) => ({ upvotes: count(id, 'thumbsup'), downvotes: count(id, 'thumbsdown') });
}
