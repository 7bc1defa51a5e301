import { gemoji } from 'gemoji';

/** Every name an award may carry: gemoji's names and aliases (8.12 checked names against its own emoji list). */
const EMOJI_NAMES: ReadonlySet<string> = new Set(gemoji.flatMap((emoji) => emoji.names));

/**
 * 8.12's aliases (`fixtures/emojis/aliases.json`) that gemoji also names as one emoji: an award
 * given by an alias is stored under 8.12's name, so `+1` and `thumbsup` are one vote.
 */
const ALIASES: Readonly<Record<string, string>> = {
  '+1': 'thumbsup',
  '-1': 'thumbsdown',
  satisfied: 'laughing',
  shit: 'poop',
  hankey: 'poop',
  memo: 'pencil',
  email: 'e-mail',
};

/**
 * The name of each emoji character, without its presentation selector (U+FE0F), so that `❤️` and
 * `❤` are both `heart`: a note of the character alone is an award as its `:name:` is.
 */
const NAME_OF_CHARACTER: ReadonlyMap<string, string> = new Map(gemoji.map((emoji) => [withoutSelector(emoji.emoji), emoji.names[0]]));

function withoutSelector(text: string): string {
  return text.replaceAll('\uFE0F', '');
}

/** The gemoji name of one emoji character (`👍` is `+1`), undefined for anything else. */
export function emojiNameOfCharacter(text: string): string | undefined {
  return NAME_OF_CHARACTER.get(withoutSelector(text));
}

export const UPVOTE = 'thumbsup';
export const DOWNVOTE = 'thumbsdown';

/** The name an award is stored under (8.12's `normalize_emoji_name`). */
export function normalizeEmojiName(name: string): string {
  return ALIASES[name] ?? name;
}

export function isEmojiName(name: string): boolean {
  return EMOJI_NAMES.has(name);
}

/** Whether the name (already normalized) is a vote, which the awardable's own author may not give. */
export function isVote(name: string): boolean {
  return name === UPVOTE || name === DOWNVOTE;
}
