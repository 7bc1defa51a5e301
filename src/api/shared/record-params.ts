import { Type } from '@sinclair/typebox';
import { recordIdOf } from '../../lib/record-id';

/** A user id under /users: GitLab's route requirement `[0-9]*`, so anything else matches no route (404). */
export const UserIdParam = Type.String({ pattern: '^[0-9]+$' });

/**
 * A record id as GitLab's `find` reads it: ids are positive 32-bit integers, and
 * anything else finds nothing (`find('abc')` looks for 0) instead of failing.
 */
export function recordId(text: string): number {
  return recordIdOf(text) ?? 0;
}
