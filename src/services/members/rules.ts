import { apiError, invalidParam } from '../../errors';
import { GROUP_ACCESS_LEVELS, PROJECT_ACCESS_LEVELS } from '../policy';
import type { MemberSource } from './types';
import { toInteger } from '../../lib/to-integer';

/** A parameter as clients send it: a number, or text from a form or query. */
export type LooseParam = number | string | null | undefined;

/** GitLab 8.12 answers an unknown access level with 422 (its own note: "400 in 9.0"). */
export const unknownAccessLevel = () => apiError(422, 'Access level is not known');

/** Absent, null and blank values count as not given, as GitLab's `required_attributes!` does. */
export const isBlank = (value: LooseParam): value is null | undefined | '' =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** Projects know guest to master; groups also owner. */
export function accessLevelFor(source: MemberSource, value: LooseParam): number {
  const level = toInteger(value);
  const levels = source.type === 'Project' ? PROJECT_ACCESS_LEVELS : GROUP_ACCESS_LEVELS;
  if (level === undefined || !levels.includes(level)) throw unknownAccessLevel();
  return level;
}

/**
 * `expires_at` as `YYYY-MM-DD`; a time is cut to its date, as Rails casts it.
 * GitLab silently drops what it cannot parse; we refuse it instead.
 */
export function expiryDate(value: LooseParam): string | null {
  if (isBlank(value)) return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/.exec(String(value).trim());
  if (match) {
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const date = new Date(Date.UTC(year, month - 1, day));
    if (date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day)
      return `${match[1]}-${match[2]}-${match[3]}`;
  }
  throw invalidParam('expires_at');
}
