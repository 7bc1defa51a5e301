import { Type, type StringOptions } from '@sinclair/typebox';
import { LIMITS } from '../../lib/limits';
import { invalidParam } from '../../errors';
import { MAX_RECORD_ID } from '../../lib/record-id';

/**
 * A record id in a path. Ids are 32-bit integers in both databases, so a larger
 * number names no record: it fails validation, which answers 404 for path parameters.
 */
export const RecordId = Type.Integer({ minimum: 0, maximum: MAX_RECORD_ID });

/**
 * GitLab's `attributes_for_keys`: a parameter sets a field only when it is present and not
 * blank, so an empty string never clears anything.
 */
export function givenAttributes<T extends object>(params: T): T {
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== '' && value !== null && value !== undefined)) as T;
}

/**
 * Strings bounded by `LIMITS` (which the OpenAPI document then shows): past them a request answers
 * 400 `{"message":{"<field>":["is too long (maximum is N characters)"]}}`, GitLab's length validation.
 * Fields a service already validates (names and paths of projects, groups and users, key titles,
 * variable keys) keep that check, which reports every invalid field at once.
 */
export const NameString = (options: StringOptions = {}) => Type.String({ maxLength: LIMITS.name, ...options });
export const TextString = (options: StringOptions = {}) => Type.String({ maxLength: LIMITS.text, ...options });
export const FilePathString = (options: StringOptions = {}) => Type.String({ maxLength: LIMITS.filePath, ...options });

/** An integer parameter: absent or blank is undefined, anything else not an id is 400 `<name> is invalid`. */
export function idParam(name: string, value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const number = Number(value);
  if (typeof value === 'boolean' || !Number.isInteger(number) || number < 0 || number > MAX_RECORD_ID) throw invalidParam(name);
  return number;
}

/** Integer filters that are not integers match nothing, as the database would have answered. */
export function filterId(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const number = Number(value);
  return typeof value !== 'boolean' && Number.isInteger(number) && Math.abs(number) <= MAX_RECORD_ID ? number : -1;
}

/**
 * A list parameter as clients send it: `scope=pending`, `scope[]=pending&scope[]=running` or Rails'
 * indexed form `scope[0]=pending&scope[1]=running` (which GitLab's own specs use).
 */
export function listParam(query: Record<string, unknown>, name: string): string | string[] | undefined {
  const pattern = new RegExp(`^${name}\\[\\d+\\]$`);
  const indexed = Object.keys(query).filter((key) => pattern.test(key));
  if (indexed.length > 0) return indexed.map((key) => String(query[key]));
  const value = query[name];
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.map(String) : String(value);
}
