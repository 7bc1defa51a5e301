import type { Db } from '../../db/index';
import { now } from '../../lib/time';

/** What an award emoji is given to. */
export type AwardableType = 'Issue' | 'MergeRequest' | 'Snippet' | 'Note';

export interface Awardable {
  type: AwardableType;
  id: number;
}

// A note whose whole body is one emoji code (`:thumbsup:`) is an award, not a comment (GitLab 8.12).
const EMOJI_ONLY = /^\s*:([a-z0-9_+-]+):\s*$/;

/** The emoji name of a note body that is nothing but one emoji code; undefined otherwise. */
export function emojiOnlyName(body: string): string | undefined {
  return EMOJI_ONLY.exec(body)?.[1];
}

/**
 * Records `userId`'s award of `name` on `awardable`, inside the caller's transaction, and returns
 * it; undefined when the user had already awarded it. (A first version: the award emoji work
 * validates names against the emoji list and applies 8.12's rules.)
 */
export async function recordAward(trx: Db, awardable: Awardable, userId: number, name: string) {
  const time = now();
  return trx
    .insertInto('award_emoji')
    .values({ name, user_id: userId, awardable_type: awardable.type, awardable_id: awardable.id, created_at: time, updated_at: time })
    .onConflict((oc) => oc.columns(['awardable_type', 'awardable_id', 'name', 'user_id']).doNothing())
    .returningAll()
    .executeTakeFirst();
}
