import { get, isArrayOfStrings, isBoolean, isHash, structural, unknownKeys } from './checks';

/**
 * A job's `inherit:` (GitLab 12.9's `Entry::Inherit`): whether it takes `default:`'s values (and the
 * top-level `image`, `services`, `before_script`, `after_script` and `cache`, which are defaults
 * too) and the global `variables`: all (`true`, the default), none (`false`) or those named.
 */
export interface CiInherit {
  default: boolean | string[];
  variables: boolean | string[];
}

export const INHERIT_ALL: CiInherit = { default: true, variables: true };

const INHERIT_KEYS = ['default', 'variables'] as const;

/** `inherit` of a job at `at` (`jobs:rspec`), checked with GitLab's messages; `allowedDefaults` are `default:`'s keys. */
export function inheritEntry(at: string, v: unknown, allowedDefaults: readonly string[]): CiInherit {
  if (v === undefined) return INHERIT_ALL;
  const location = `${at}:inherit`;
  if (!isHash(v)) throw structural(location, 'config should be a hash');
  const unknown = unknownKeys(v, INHERIT_KEYS);
  if (unknown.length > 0) throw structural(location, `config contains unknown keys: ${unknown.join(', ')}`);
  return {
    default: choice(`${location}:default`, get(v, 'default'), allowedDefaults),
    variables: choice(`${location}:variables`, get(v, 'variables'), undefined),
  };
}

/** Whether a job with `inherit` takes the default or variable `key`. */
export function inherits(choice: boolean | string[], key: string): boolean {
  return typeof choice === 'boolean' ? choice : choice.includes(key);
}

function choice(location: string, v: unknown, allowed: readonly string[] | undefined): boolean | string[] {
  if (v === undefined) return true;
  if (isBoolean(v)) return v;
  if (!Array.isArray(v)) throw structural(location, 'should be a bool or array of strings');
  if (!isArrayOfStrings(v)) throw structural(location, 'config should be an array of strings');
  const unknown = allowed ? v.filter((key) => !allowed.includes(key)) : [];
  if (unknown.length > 0) throw structural(location, `config contains unknown values: ${unknown.join(', ')}`);
  return v;
}
