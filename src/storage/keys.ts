import path from 'node:path';
import { InvalidKeyError } from './file-store';

/** Where unfinished writes wait; no key may start with it, and `list` never shows it. */
export const TEMP_DIR = '.tmp';

/**
 * The path of `key` under `root`. Keys come from callers that may pass user input along (upload
 * names, build ids), so anything that could reach outside the root is refused rather than cleaned.
 */
export function pathOfKey(root: string, key: string): string {
  checkSegments(key, key.split('/'));
  return inside(root, key);
}

/** The folder a `list(prefix)` walks: the prefix up to its last `/` (the rest is matched by name). */
export function folderOfPrefix(root: string, prefix: string): string {
  const segments = prefix.split('/');
  segments.pop();
  if (segments.length > 0) checkSegments(prefix, segments);
  return inside(root, segments.join('/'));
}

function checkSegments(key: string, segments: string[]): void {
  if (typeof key !== 'string' || key === '') throw new InvalidKeyError(String(key), 'it is empty');
  if (key.includes('\0')) throw new InvalidKeyError(key, 'it contains a NUL byte');
  // A backslash is a separator on Windows: refused so that a key means the same file everywhere.
  if (key.includes('\\')) throw new InvalidKeyError(key, 'it contains a backslash');
  if (key.startsWith('/')) throw new InvalidKeyError(key, 'it is absolute');
  for (const segment of segments) {
    if (segment === '') throw new InvalidKeyError(key, 'it has an empty segment');
    if (segment === '.' || segment === '..') throw new InvalidKeyError(key, `it has a "${segment}" segment`);
  }
  if (segments[0] === TEMP_DIR) throw new InvalidKeyError(key, `"${TEMP_DIR}/" is reserved for unfinished writes`);
}

function inside(root: string, relative: string): string {
  const resolved = path.resolve(root, relative);
  // The checks above already keep keys inside; this guards against a check that someone loosens later.
  if (resolved !== root && !resolved.startsWith(root + path.sep)) throw new InvalidKeyError(relative, 'it leads outside the store');
  return resolved;
}
