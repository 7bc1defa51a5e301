import type { Db } from '../../db/index';
import { ApiError, Validation, type ValidationMessages } from '../../errors';
import { now } from '../../lib/time';
import { chunksOf } from '../../db/chunks';
import { DEFAULT_LABEL_COLOR, checkTitle, type LabelRow } from './rules';

/**
 * The project's labels of these titles, made (colour `#428BCA`) where there are none: what 8.12 did
 * with an issue's or a merge request's `labels`. Titles are trimmed; blank ones and repeats are
 * dropped; the answer follows the order given. An invalid title makes nothing and throws 400
 * `{"message":{"labels":{"<title>":{"title":["is invalid"]}}}}`, 8.12's body. Call it inside the
 * transaction that links the labels: `DO NOTHING` keeps that transaction alive when a concurrent
 * one makes the same label first, and the read after the insert then finds theirs. Titles are
 * inserted in sorted order, so two transactions never wait on each other's new labels crosswise.
 */
export async function findOrCreateLabels(trx: Db, projectId: number, titles: string[]): Promise<LabelRow[]> {
  const wanted = [...new Set(titles.map((title) => title.trim()).filter((title) => title !== ''))];
  if (wanted.length === 0) return [];
  const errors = labelTitleErrors(wanted);
  if (Object.keys(errors).length > 0) throw new ApiError(400, { message: { labels: errors } });
  const time = now();
  const byTitle = new Map<string, LabelRow>();
  for (const chunk of chunksOf([...wanted].sort())) {
    await trx
      .insertInto('labels')
      .values(
        chunk.map((title) => ({
          project_id: projectId,
          title,
          color: DEFAULT_LABEL_COLOR,
          description: null,
          created_at: time,
          updated_at: time,
        })),
      )
      .onConflict((oc) => oc.columns(['project_id', 'title']).doNothing())
      .execute();
    const rows = await trx.selectFrom('labels').selectAll().where('project_id', '=', projectId).where('title', 'in', chunk).execute();
    for (const row of rows) byTitle.set(row.title, row);
  }
  return wanted.flatMap((title) => byTitle.get(title) ?? []);
}

/** The validation messages of each invalid title, by title (8.12's `validate_label_params`). */
export function labelTitleErrors(titles: string[]): Record<string, ValidationMessages> {
  const errors: Record<string, ValidationMessages> = {};
  for (const title of titles) {
    const validation = new Validation();
    checkTitle(validation, title);
    if (!validation.ok) errors[title] = validation.messages;
  }
  return errors;
}
