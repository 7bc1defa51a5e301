import type { Db } from '../../db/index';
import { now } from '../../lib/time';

/** The colour GitLab 8.12 gave the labels an issue named before they existed. */
export const NEW_LABEL_COLOR = '#428BCA';

/**
 * Ids of the project's labels with these titles, made (with NEW_LABEL_COLOR) when missing. Two
 * requests naming the same new label at once both succeed: the loser's insert does nothing and it
 * reads the winner's label. Titles are inserted in order, so two transactions never wait on each
 * other's labels crosswise.
 */
export async function findOrCreateLabels(trx: Db, projectId: number, titles: string[]): Promise<number[]> {
  if (titles.length === 0) return [];
  const time = now();
  const sorted = [...titles].sort();
  await trx
    .insertInto('labels')
    .values(sorted.map((title) => ({ project_id: projectId, title, color: NEW_LABEL_COLOR, description: null, created_at: time, updated_at: time })))
    .onConflict((oc) => oc.columns(['project_id', 'title']).doNothing())
    .execute();
  const labels = await trx.selectFrom('labels').select('id').where('project_id', '=', projectId).where('title', 'in', sorted).execute();
  return labels.map((label) => label.id);
}

/** Makes the issue carry exactly these labels. */
export async function setIssueLabels(trx: Db, issueId: number, labelIds: number[]): Promise<void> {
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
