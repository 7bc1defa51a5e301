import type { Db } from '../../db/index';
import { now } from '../../lib/time';
import { findOrCreateLabels } from '../labels/find-or-create';

/** Makes the issue carry exactly the project's labels of these titles, made where missing. */
export async function setIssueLabels(trx: Db, projectId: number, issueId: number, titles: string[]): Promise<void> {
  await linkIssueLabels(trx, issueId, (await findOrCreateLabels(trx, projectId, titles)).map((label) => label.id));
}

/** Makes the issue carry exactly these labels. */
export async function linkIssueLabels(trx: Db, issueId: number, labelIds: number[]): Promise<void> {
  await trx.deleteFrom('label_links').where('target_type', '=', 'Issue').where('target_id', '=', issueId).execute();
  if (labelIds.length === 0) return;
  const time = now();
  await trx
    .insertInto('label_links')
    .values(labelIds.map((labelId) => ({ label_id: labelId, target_type: 'Issue', target_id: issueId, created_at: time, updated_at: time })))
    .execute();
}

/** The titles of the labels an issue carries. */
export async function issueLabelTitles(trx: Db, issueId: number): Promise<string[]> {
  const rows = await trx
    .selectFrom('label_links')
    .innerJoin('labels', 'labels.id', 'label_links.label_id')
    .select('labels.title')
    .where('label_links.target_type', '=', 'Issue')
    .where('label_links.target_id', '=', issueId)
    .execute();
  return rows.map((row) => row.title);
}
