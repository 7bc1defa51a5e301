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

/** GitLab's body for each refusal of a project route. */
export const REFUSALS: Readonly<Record<number, unknown>> = {
  401: { message: '401 Unauthorized' },
  403: { message: '403 Forbidden' },
  404: { message: '404 Project Not Found' },
};

/**
 * `download_code`, which every route that shows or copies a project's code asks (GitLab 8.12's
 * `fork_project` too): reporters and up of a private project; anyone signed in who sees a public or
 * internal one. A guest of a private project sees the project but not its code.
 */
export function codeReadStatus(visibility: Visibility, caller: Caller, success = 200): number {
  return expectedStatus(visibility, caller, { minimum: visibility === 'private' ? 'reporter' : 'non-member', success });
}

export interface AccessProject {
  id: number;
  clients: Partial<Record<Caller, ApiClient>>;
}

/**
 * `assertAccess` on each project given (by its visibility), each caller expecting `expected`'s
 * status, and then GitLab's body for every refusal the route answered.
 */
export async function assertRouteAccess(
  projects: Partial<Record<Visibility, AccessProject>>,
  call: (client: ApiClient, projectId: number) => Promise<{ status: number; body?: unknown }>,
  expected: (visibility: Visibility, caller: Caller) => number,
): Promise<void> {
  for (const [visibility, project] of Object.entries(projects) as [Visibility, AccessProject][]) {
    const refusals: { status: number; body?: unknown }[] = [];
    const recording = async (client: ApiClient) => {
      const response = await call(client, project.id);
      if (response.status in REFUSALS) refusals.push(response);
      return response;
    };
    await assertAccess(project.clients, recording, (caller) => expected(visibility, caller), `${visibility} project`);
    for (const { status, body } of refusals) assert.deepEqual(body, REFUSALS[status], `the body of a ${status} from a ${visibility} project`);
  }
}

/** `assertRouteAccess` for a route that shows code (`download_code`). */
export function assertCodeAccess(
  projects: Partial<Record<Visibility, AccessProject>>,
  call: (client: ApiClient, projectId: number) => Promise<{ status: number; body?: unknown }>,
  success = 200,
): Promise<void> {
  return assertRouteAccess(projects, call, (visibility, caller) => codeReadStatus(visibility, caller, success));
}
