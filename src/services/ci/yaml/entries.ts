import {
  get,
  isArrayOfStrings,
  isBoolean,
  isHash,
  isString,
  isStringOrSymbol,
  isVariablesHash,
  keyText,
  structural,
  unknownKeys,
} from './checks';
import type { CiCache, CiVariable } from './types';

/**
 * The entries that the top level and a job share (8.12's `Script`, `Image`, `Services`,
 * `Variables` and `Cache` nodes). `location` is the node's colon path (`cache`,
 * `jobs:rspec:cache`); each function throws the node's first message or returns the value.
 */

/** `before_script` / `after_script`: an array of strings, never a bare string. */
export function script(location: string, v: unknown): string[] | null {
  if (v === undefined) return null;
  if (!isArrayOfStrings(v)) throw structural(location, 'config should be an array of strings');
  return v;
}

export function image(location: string, v: unknown): string | null {
  if (v === undefined) return null;
  if (!isString(v)) throw structural(location, 'config should be a string');
  return v;
}

export function services(location: string, v: unknown): string[] | null {
  if (v === undefined) return null;
  if (!isArrayOfStrings(v)) throw structural(location, 'config should be an array of strings');
  return v;
}

/**
 * Keys and values must be strings or symbols: `KEY: 1` and `KEY: true` are errors in 8.12. Later
 * GitLab's `KEY: { value, description }` is read where `hashKeys` names the keys it may have.
 */
export function variables(location: string, v: unknown, hashKeys: readonly string[] = ['value']): CiVariable[] | null {
  if (v === undefined) return null;
  if (isHash(v) && [...v.values()].some(isHash)) return hashValuedVariables(location, v, hashKeys);
  if (!isVariablesHash(v)) throw structural(location, 'config should be a hash of key value pairs');
  return [...v].map(([k, val]) => ({ key: keyText(k), value: keyText(val) }));
}

function hashValuedVariables(location: string, v: Map<unknown, unknown>, hashKeys: readonly string[]): CiVariable[] {
  const valueOfEntry = (val: unknown): string | undefined => {
    if (isStringOrSymbol(val)) return keyText(val);
    if (!isHash(val) || unknownKeys(val, hashKeys).length > 0) return undefined;
    const value = get(val, 'value');
    const description = get(val, 'description');
    if (description !== undefined && !isString(description)) return undefined;
    return value === undefined ? '' : isStringOrSymbol(value) ? keyText(value) : undefined;
  };
  const out = [...v].map(([k, val]) => ({ key: isStringOrSymbol(k) ? keyText(k) : undefined, value: valueOfEntry(val) }));
  if (out.some((x) => x.key === undefined || x.value === undefined)) {
    throw structural(location, 'config should be a hash of key value pairs, value can be a hash');
  }
  return out as CiVariable[];
}

/*
 * `policy` is not 8.12's (it came with GitLab 9.4 and runner 9.4, which read it as below): Forge
 * accepts it so that its own runner can honour it, and sends it only when the file gives it, as
 * 8.12 sent only the keys given; a 1.x runner ignores a key it does not know.
 */
const CACHE_KEYS = ['key', 'untracked', 'paths', 'policy'] as const;
const CACHE_POLICIES = ['pull-push', 'push', 'pull'];

export function cache(location: string, v: unknown): CiCache | null {
  if (v === undefined) return null;
  if (!isHash(v)) throw structural(location, 'config should be a hash');
  const unknown = unknownKeys(v, CACHE_KEYS);
  if (unknown.length > 0) throw structural(location, `config contains unknown keys: ${unknown.join(', ')}`);
  const out: CiCache = {};
  const key = get(v, 'key');
  if (key !== undefined) {
    if (!isStringOrSymbol(key)) throw structural(`${location}:key`, 'config should be a string or symbol');
    out.key = keyText(key);
  }
  const untracked = get(v, 'untracked');
  if (untracked !== undefined) {
    if (!isBoolean(untracked)) throw structural(`${location}:untracked`, 'config should be a boolean value');
    out.untracked = untracked;
  }
  const paths = get(v, 'paths');
  if (paths !== undefined) {
    if (!isArrayOfStrings(paths)) throw structural(`${location}:paths`, 'config should be an array of strings');
    out.paths = paths;
  }
  const policy = get(v, 'policy');
  if (policy !== undefined && policy !== '') {
    if (typeof policy !== 'string' || !CACHE_POLICIES.includes(policy))
      throw structural(location, 'policy should be pull-push, push, or pull');
    out.policy = policy as CiCache['policy'];
  }
  return out;
}

/** Job variables over global ones: globals in their order (a job value replaces the value), then the job's new keys. */
export function mergeVariables(global: CiVariable[], job: CiVariable[]): CiVariable[] {
  const merged = new Map(global.map((v) => [v.key, v.value]));
  for (const v of job) merged.set(v.key, v.value);
  return [...merged].map(([key, value]) => ({ key, value }));
}
