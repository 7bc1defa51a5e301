import { LIMITS } from '../lib/limits';

/**
 * `git check-ref-format` rules, checked in-process (a spawn per check would be wasteful):
 * no control characters, space, `~ ^ : ? * [ \`, no `..` or `@{`, no component starting
 * with `.` or ending with `.lock`, no empty component, not ending with `.`, not `@`.
 * And the filesystem's: a ref longer than git can store cannot exist, so it is refused before
 * it reaches a command line (a 10 MB name would not even fit in one: E2BIG).
 */
export function isValidRefName(name: string): boolean {
  if (!withinRefLimits(name)) return false;
  if (name === '' || name === '@' || name.endsWith('.')) return false;
  if (name.includes('..') || name.includes('@{')) return false;
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return false;
  // A lone UTF-16 surrogate (JSON allows `"\ud800"`) has no UTF-8 form: git would be handed another name.
  if (/\p{Cs}/u.test(name)) return false;
  return name.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
}

/** At most `LIMITS.refBytes` bytes, no component past `LIMITS.refComponentBytes` (a loose ref is a file). */
function withinRefLimits(name: string): boolean {
  // Every UTF-16 unit takes at least one byte: the cheap test keeps a 10 MB string from being measured.
  if (name.length > LIMITS.refBytes || Buffer.byteLength(name) > LIMITS.refBytes) return false;
  return name.split('/').every((part) => Buffer.byteLength(part) <= LIMITS.refComponentBytes);
}

/**
 * GitLab's branch and tag name check (`Gitlab::GitRefValidator`): `refs/<name>` must be a valid ref
 * and the name must not itself spell a full ref. A leading `-` is refused as well, so that no name
 * can ever be read as an option.
 */
export function isValidBranchName(name: string): boolean {
  if (name.startsWith('refs/heads/') || name.startsWith('refs/remotes/') || name.startsWith('-')) return false;
  return isValidRefName(`refs/${name}`);
}

export const isValidTagName = isValidBranchName;

const HEX_OID = /^[0-9a-f]{40}$|^[0-9a-f]{64}$/;

export const isFullOid = (value: string): boolean => HEX_OID.test(value);

export const ZERO_OID = '0000000000000000000000000000000000000000';

/**
 * A revision a client may name: a (possibly short) sha, a branch, a tag or `HEAD`, optionally
 * followed by `~n` / `^n`. Everything else (`:/text` searches, reflog `@{…}`, ranges) is refused,
 * so that no user input makes git search history or read it as an option.
 */
export function isSafeRevision(value: string): boolean {
  if (value.length > LIMITS.refBytes) return false;
  const match = /^(.+?)((?:[~^]\d{0,6})*)$/.exec(value);
  if (!match) return false;
  const base = match[1];
  return !base.startsWith('-') && isValidRefName(`refs/${base}`);
}
