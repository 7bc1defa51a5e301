/**
 * `git check-ref-format` rules, checked in-process (a spawn per check would be wasteful):
 * no control characters, space, `~ ^ : ? * [ \`, no `..` or `@{`, no component starting
 * with `.` or ending with `.lock`, no empty component, not ending with `.`, not `@`.
 */
export function isValidRefName(name: string): boolean {
  if (name === '' || name === '@' || name.endsWith('.')) return false;
  if (name.includes('..') || name.includes('@{')) return false;
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return false;
  return name.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
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
  const match = /^(.+?)((?:[~^]\d{0,6})*)$/.exec(value);
  if (!match) return false;
  const base = match[1];
  return !base.startsWith('-') && isValidRefName(`refs/${base}`);
}
