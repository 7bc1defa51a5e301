import { isArrayOfStrings, isHash, get, isString, structural, unknownKeys } from './checks';
import type { CiRetry } from './types';

/** The failures `retry: when:` may name (GitLab's `retry_when` values: `always` and the failure reasons). */
export const RETRY_WHEN = [
  'always',
  'unknown_failure',
  'script_failure',
  'api_failure',
  'stuck_or_timeout_failure',
  'runner_system_failure',
  'missing_dependency_failure',
  'runner_unsupported',
  'stale_schedule',
  'job_execution_timeout',
  'archived_failure',
  'unmet_prerequisites',
  'scheduler_failure',
  'data_integrity_failure',
] as const;

const RETRY_KEYS = ['max', 'when'] as const;
const MAX_RETRIES = 2;

/** `retry: N` or `retry: {max, when}`, with the messages of GitLab's `Retry` entry. */
export function retryEntry(location: string, v: unknown): CiRetry | null {
  if (v === undefined) return null;
  if (Number.isInteger(v)) return { max: count(location, 'config', v as number) };
  if (!isHash(v)) throw structural(location, 'has to be either an integer or a hash');
  const unknown = unknownKeys(v, RETRY_KEYS);
  if (unknown.length > 0) throw structural(location, `config contains unknown keys: ${unknown.join(', ')}`);
  const out: CiRetry = {};
  const max = get(v, 'max');
  if (max !== undefined) {
    if (typeof max !== 'number') throw structural(location, 'max is not a number');
    if (!Number.isInteger(max)) throw structural(location, 'max must be an integer');
    out.max = count(location, 'max', max);
  }
  const when = get(v, 'when');
  if (when !== undefined) {
    if (!isString(when) && !isArrayOfStrings(when)) throw structural(location, 'when should be an array of strings or a string');
    const known = (w: string) => (RETRY_WHEN as readonly string[]).includes(w);
    if (isString(when) && !known(when)) throw structural(location, 'when is not included in the list');
    const unknownWhen = isString(when) ? [] : when.filter((w) => !known(w));
    if (unknownWhen.length > 0) throw structural(location, `when contains unknown values: ${unknownWhen.join(', ')}`);
    out.when = isString(when) ? [when] : when;
  }
  return out;
}

function count(location: string, attribute: string, n: number): number {
  if (n < 0) throw structural(location, `${attribute} must be greater than or equal to 0`);
  if (n > MAX_RETRIES) throw structural(location, `${attribute} must be less than or equal to ${MAX_RETRIES}`);
  return n;
}

/** Whether a job that failed for `reason` after `retries` retries is retried again (GitLab's `Ci::Build#retryable?` by config). */
export function retriesAgain(retry: CiRetry | undefined, retries: number, reason: string): boolean {
  if (!retry || retries >= (retry.max ?? 0)) return false;
  const when = retry.when ?? ['always'];
  return when.includes('always') || when.includes(reason);
}
