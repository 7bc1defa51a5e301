import type { Db } from '../../db/index';
import { now } from '../../lib/time';
import { emojiNameOfCharacter, isEmojiName, isVote, normalizeEmojiName } from './names';

/** What an award emoji is given to. */
export type AwardableType = 'Issue' | 'MergeRequest' | 'Snippet' | 'Note';

export interface Awardable {
  type: AwardableType;
  id: number;
}

// A note whose whole body is one emoji code (`:thumbsup:`) is an award, not a comment (GitLab 8.12).
const EMOJI_ONLY = /^:([a-z0-9_+-]+):$/;

/**
 * The normalized emoji name of a note body that is nothing but one known emoji, by its code
 * (`:+1:` is `thumbsup`) or as the character itself (`👍`), whitespace around it aside; undefined
 * otherwise, as 8.12's emoji pattern matched known names only.
 */
export function emojiOnlyName(body: string): string | undefined {
  const text = body.trim();
  const name = EMOJI_ONLY.exec(text)?.[1] ?? emojiNameOfCharacter(text);
  return name !== undefined && isEmojiName(name) ? normalizeEmojiName(name) : undefined;
}

/** 8.12's `user_can_award?`: anyone may award anything, but not vote on what they wrote. */
export function mayAward(authorId: number | null, userId: number, name: string): boolean {
  return !(authorId === userId && isVote(normalizeEmojiName(name)));
}

/**
 * Records `userId`'s award of `name` (normalized here) on `awardable`, inside the caller's
 * transaction, and returns it; undefined when the user had already awarded it, also when a
 * concurrent request did so first. The caller has checked the name and `mayAward`.
 */
export async function recordAward(trx: Db, awardable: Awardable, userId: number, name: string) {
  const time = now();
  return trx
    .insertInto('award_emoji')
    .values({
      name: normalizeEmojiName(name),
      user_id: userId,
      awardable_type: awardable.type,
      awardable_id: awardable.id,
      created_at: time,
      updated_at: time,
    })
    .onConflict((oc) => oc.columns(['awardable_type', 'awardable_id', 'name', 'user_id']).doNothing())
    .returningAll()
    .executeTakeFirst();
}
