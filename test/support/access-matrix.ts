import assert from 'node:assert/strict';
import type { ApiClient } from './client';
import { CALLERS, type Caller } from './project-world';

export type Visibility = 'private' | 'internal' | 'public';
export const VISIBILITY_LEVELS: Record<Visibility, number> = { private: 0, internal: 10, public: 20 };

/** Whether a signed-in `caller` sees a project of that visibility at all (anonymous callers get 401 first). */
export function canSee(visibility: Visibility, caller: Exclude<Caller, 'anonymous'>): boolean {
  if (caller === 'non-member') return visibility !== 'private';
  return true;
}

export interface Rule {
  /** The least powerful caller allowed (default: anyone who sees the project). */
  minimum?: Caller;
  /** The status of an allowed call (default 200). */
  success?: number;
}

/**
 * The status `caller` gets from a project route, in GitLab's order of checks: a token, which every
 * API row asks (401), then the project's visibility (404, the project stays hidden), then the role (403).
 */
export function expectedStatus(visibility: Visibility, caller: Caller, { minimum = 'non-member', success = 200 }: Rule = {}): number {
  if (caller === 'anonymous') return 401;
  if (!canSee(visibility, caller)) return 404;
  return CALLERS.indexOf(caller) >= CALLERS.indexOf(minimum) ? success : 403;
}

export type Call = (client: ApiClient) => Promise<{ status: number }>;

/**
 * Makes the call as each caller in turn (in CALLERS order, least powerful first: a row may depend on
 * the one before, like unstarring what was starred) and asserts every status at once, so a failure
 * shows the whole row of the table.
 */
export async function assertAccess(clients: Partial<Record<Caller, ApiClient>>, call: Call, expected: (caller: Caller) => number, message?: string): Promise<void> {
  const actual: Partial<Record<Caller, number>> = {};
  const wanted: Partial<Record<Caller, number>> = {};
  for (const caller of CALLERS) {
    const client = clients[caller];
    if (!client) continue;
    actual[caller] = (await call(client)).status;
    wanted[caller] = expected(caller);
  }
  assert.deepEqual(actual, wanted, message);
}
