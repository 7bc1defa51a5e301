import { badRequest } from '../../../errors';
import type { BuildRecord } from '../types';

/** The statuses a build list may be narrowed to (GitLab 8.12's `AVAILABLE_STATUSES`, and 11.4's `scheduled`). */
export const BUILD_STATUSES: readonly string[] = ['created', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped', 'scheduled'];

const FINISHED: readonly string[] = ['success', 'failed', 'canceled'];

export const isFinished = (build: { status: string }): boolean => FINISHED.includes(build.status);

/** GitLab 8.12's `retryable?` (builds being enabled is the route's permission): finished, with commands to run. */
export const isRetryable = (build: { status: string; commands: string }): boolean => isFinished(build) && build.commands !== '';

/**
 * The statuses of `scope`: one name or a list of them; none (absent or empty) lists every build.
 * An unknown name is 8.12's 400 `Scope contains invalid value(s)`.
 */
export function parseScope(scope: string | string[] | undefined): string[] | undefined {
  const names = scope === undefined ? [] : Array.isArray(scope) ? scope : [scope];
  if (names.length === 0 || (names.length === 1 && names[0] === '')) return undefined;
  if (names.some((name) => !BUILD_STATUSES.includes(name))) throw badRequest('Scope contains invalid value(s)');
  return names;
}

/**
 * GitLab's `artifacts?`: a file was stored and its expiry, if any, lies ahead. Expired files wait
 * for the hourly sweep; until then they are already gone for the API.
 */
export function hasArtifacts(build: Pick<BuildRecord, 'artifacts_file' | 'artifacts_expire_at'>, time = new Date().toISOString()): boolean {
  return build.artifacts_file !== null && (build.artifacts_expire_at === null || build.artifacts_expire_at > time);
}
