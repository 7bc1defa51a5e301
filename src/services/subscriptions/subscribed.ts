import type { Db } from '../../db/index';
import type { IssueRow } from '../issues/types';

/**
 * Whether the caller is subscribed to each issue, as GitLab 8.12's `Subscribable#subscribed?`: their
 * subscription row wins, subscribed or not; without one, the issue's participants are subscribed
 * (its author, its assignee, and whoever wrote a note on it). Two queries for any number of issues.
 * 8.12 counted users mentioned in the issue and its notes as participants too: mentions are not
 * recorded yet, so they do not count here.
 */
export async function issueSubscriptions(db: Db, callerId: number, issues: IssueRow[]): Promise<Map<number, boolean>> {
  const answers = new Map<number, boolean>();
  if (issues.length === 0) return answers;
  const ids = issues.map((issue) => issue.id);
  const [rows, commented] = await Promise.all([
    db
      .selectFrom('subscriptions')
      .select(['subscribable_id', 'subscribed'])
      .where('user_id', '=', callerId)
      .where('subscribable_type', '=', 'Issue')
      .where('subscribable_id', 'in', ids)
      .execute(),
    db
      .selectFrom('notes')
      .select('noteable_id')
      .distinct()
      .where('noteable_type', '=', 'Issue')
      .where('noteable_id', 'in', ids)
      .where('author_id', '=', callerId)
      .execute(),
  ]);
  const explicit = new Map(rows.map((row) => [row.subscribable_id, row.subscribed === 1]));
  const commenter = new Set(commented.map((row) => row.noteable_id));
  for (const issue of issues) {
    const participant = issue.author_id === callerId || issue.assignee_id === callerId || commenter.has(issue.id);
    answers.set(issue.id, explicit.get(issue.id) ?? participant);
  }
  return answers;
}
