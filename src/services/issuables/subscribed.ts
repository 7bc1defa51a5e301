import type { Db } from '../../db/index';
import { preparedPerHandle } from '../../db/prepared';

/** An issue or a merge request: what makes a user one of its participants. */
export interface Participated {
  id: number;
  author_id: number | null;
  assignee_id: number | null;
}

// Every page of issues or merge requests asks: built and compiled once (per page size).
const subscriptionRows = preparedPerHandle((db: Db, callerId: number, type: 'Issue' | 'MergeRequest', ids: number[]) =>
  db
    .selectFrom('subscriptions')
    .select(['subscribable_id', 'subscribed'])
    .where('user_id', '=', callerId)
    .where('subscribable_type', '=', type)
    .where('subscribable_id', 'in', ids),
);
const commentedOn = preparedPerHandle((db: Db, callerId: number, type: 'Issue' | 'MergeRequest', ids: number[]) =>
  db
    .selectFrom('notes')
    .select('noteable_id')
    .distinct()
    .where('noteable_type', '=', type)
    .where('noteable_id', 'in', ids)
    .where('author_id', '=', callerId),
);

/**
 * Whether the caller is subscribed to each issue or merge request, as GitLab 8.12's
 * `Subscribable#subscribed?`: their subscription row wins, subscribed or not; without one, the
 * target's participants are subscribed (its author, its assignee, and whoever wrote a note on it).
 * Two queries for any number of targets. 8.12 counted users mentioned in the target and its notes
 * as participants too: mentions are not recorded yet, so they do not count here.
 */
export async function participantSubscriptions(
  db: Db,
  callerId: number,
  type: 'Issue' | 'MergeRequest',
  targets: Participated[],
): Promise<Map<number, boolean>> {
  const answers = new Map<number, boolean>();
  if (targets.length === 0) return answers;
  const ids = targets.map((target) => target.id);
  const [rows, commented] = await Promise.all([subscriptionRows(db, callerId, type, ids), commentedOn(db, callerId, type, ids)]);
  const explicit = new Map(rows.map((row) => [row.subscribable_id, row.subscribed === 1]));
  const commenter = new Set(commented.map((row) => row.noteable_id));
  for (const target of targets) {
    const participant = target.author_id === callerId || target.assignee_id === callerId || commenter.has(target.id);
    answers.set(target.id, explicit.get(target.id) ?? participant);
  }
  return answers;
}
