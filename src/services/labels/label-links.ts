import type { Db } from '../../db/index';
import { preparedPerHandle } from '../../db/prepared';
import { now } from '../../lib/time';
import { findOrCreateLabels } from './find-or-create';

/** What carries labels: an issue or a merge request. */
export interface Labelled {
  type: 'Issue' | 'MergeRequest';
  id: number;
}

/** Makes the target carry exactly the project's labels of these titles, made where missing; the ids of those it did not carry before. */
export async function setLabels(trx: Db, projectId: number, target: Labelled, titles: string[]): Promise<number[]> {
  return linkLabels(
    trx,
    target,
    (await findOrCreateLabels(trx, projectId, titles)).map((label) => label.id),
  );
}

/** Makes the target carry exactly these labels; the ids of those it did not carry before (their subscribers are told). */
export async function linkLabels(trx: Db, target: Labelled, labelIds: number[]): Promise<number[]> {
  const links = trx.selectFrom('label_links').where('target_type', '=', target.type).where('target_id', '=', target.id);
  const before = new Set((await links.select('label_id').execute()).map((link) => link.label_id));
  await trx.deleteFrom('label_links').where('target_type', '=', target.type).where('target_id', '=', target.id).execute();
  if (labelIds.length === 0) return [];
  const time = now();
  await trx
    .insertInto('label_links')
    .values(
      labelIds.map((labelId) => ({
        label_id: labelId,
        target_type: target.type,
        target_id: target.id,
        created_at: time,
        updated_at: time,
      })),
    )
    .execute();
  return [...new Set(labelIds)].filter((id) => !before.has(id));
}

/** The titles of the labels a target carries. */
export async function labelTitles(trx: Db, target: Labelled): Promise<string[]> {
  return (await labelTitlesOf(trx, target.type, [target.id])).get(target.id) ?? [];
}

/** The titles of the labels of each target, sorted; one query for a page. */
// Every page of issues or merge requests asks: built and compiled once (per page size).
const labelTitleRows = preparedPerHandle((db: Db, type: Labelled['type'], ids: number[]) =>
  db
    .selectFrom('label_links')
    .innerJoin('labels', 'labels.id', 'label_links.label_id')
    .select(['label_links.target_id', 'labels.title'])
    .where('label_links.target_type', '=', type)
    .where('label_links.target_id', 'in', ids),
);

export async function labelTitlesOf(db: Db, type: Labelled['type'], ids: number[]): Promise<Map<number, string[]>> {
  const titles = new Map<number, string[]>();
  if (ids.length === 0) return titles;
  const rows = await labelTitleRows(db, type, ids);
  for (const row of rows) titles.set(row.target_id, [...(titles.get(row.target_id) ?? []), row.title]);
  for (const list of titles.values()) list.sort();
  return titles;
}
