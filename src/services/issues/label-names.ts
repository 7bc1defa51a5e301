import { ApiError } from '../../errors';
import { labelTitleErrors } from '../labels/find-or-create';

/**
 * The label titles of a comma-separated `labels` parameter, trimmed and without repeats. As Ruby's
 * `split(',')`, trailing empty entries are dropped; a blank or overlong title in between makes the
 * request 400 `{"message":{"labels":{"<title>":{"title":[…]}}}}` (GitLab 8.12's label validation, `labels/find-or-create.ts`).
 */
export function labelTitles(labels: string): string[] {
  const parts = labels.split(',');
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  const titles = [...new Set(parts.map((part) => part.trim()))];
  const errors = labelTitleErrors(titles);
  if (Object.keys(errors).length > 0) throw new ApiError(400, { message: { labels: errors } });
  return titles;
}

/** The titles of a list filter (`labels=a,b`), split as GitLab 8.12's API did: on commas, untrimmed. */
export function filterTitles(labels: string | undefined): string[] | undefined {
  if (labels === undefined || labels === '') return undefined;
  return labels.split(',');
}
