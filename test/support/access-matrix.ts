import assert from 'node:assert/strict';
import type { ApiClient } from './client';
import { CALLERS, type Caller } from './project-world';

export type Visibility = 'private' | 'internal' | 'public';
export const VISIBILITY_LEVELS: Record<Visibility, number> = { private: 0, internal: 10, public: 20 };

/** Whether `caller` sees a project of that visibility at all. */
export function canSee(visibility: Visibility, caller: Caller): boolean {
  if (caller === 'anonymous') return visibility === 'public';
  if (caller === 'non-member') return visibility !== 'private';
  return true;
}

export interface Rule {
  /** The least powerful caller allowed (default: anyone who sees the project). */
  minimum?: Caller;
  /** The status of an allowed call (default 200). */
  success?: number;
  /** Whether the endpoint asks for a token before anything else (writes, member lists): 401 for anonymous. */
  signedIn?: boolean;
}

/**
 * The status GitLab gives `caller`, in GitLab's order of checks: a token when the endpoint needs one
 * (401), then the project's visibility (404, the project stays hidden), then the role (403).
 */
export function expectedStatus(visibility: Visibility, caller: Caller, { minimum = 'anonymous', success = 200, signedIn = false }: Rule = {}): number {
  if (signedIn && caller === 'anonymous') return 401;
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
