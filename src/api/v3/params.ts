import { Type } from '@sinclair/typebox';

/**
 * A record id in a path. Ids are 32-bit integers in both databases, so a larger
 * number names no record: it fails validation, which answers 404 for path parameters.
 */
export const RecordId = Type.Integer({ minimum: 0, maximum: 2147483647 });

/**
 * GitLab's `attributes_for_keys`: a parameter sets a field only when it is present and not
 * blank, so an empty string never clears anything.
 */
export function givenAttributes<T extends object>(params: T): T {
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== '' && value !== null && value !== undefined)) as T;
}
