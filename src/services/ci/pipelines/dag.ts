import { combinedStatus, type CiStatus, type StatusOfBuild } from './status';

/*
 * GitLab 12.2's `needs`: a job that names what it needs starts when those jobs are done, whatever
 * the stages hold, and its `when` is judged against them alone.
 */

/** A pipeline's latest build of a name, as processing reads it. */
export interface ProcessedBuild extends StatusOfBuild {
  id: number;
  name: string;
  status: string;
  stage_idx: number;
  when: string;
  options: string;
}

/** What a need waits for: an end, or a skip (a skipped job, or a manual one not played). */
const DONE: readonly string[] = ['success', 'failed', 'canceled', 'skipped'];

/** The names a build needs, from its stored options; null for a build the stages open. */
export function neededNames(options: string): Set<string> | null {
  try {
    const needs: unknown = (JSON.parse(options || '{}') as { needs?: unknown }).needs;
    if (!Array.isArray(needs)) return null;
    return new Set(needs.map((need: { name?: unknown }) => need?.name).filter((name): name is string => typeof name === 'string'));
  } catch {
    return null;
  }
}

/**
 * What the builds a `created` build needs say: undefined while one of them has not ended, else
 * their combined status (none at all, or all skipped, counts as success, as an empty or skipped
 * earlier stage does). A need that the pipeline lacks (an `optional` one) is not waited for.
 */
export function needsOutcome(needed: Set<string>, latest: readonly ProcessedBuild[]): CiStatus | undefined {
  const builds = latest.filter((build) => needed.has(build.name));
  if (builds.some((build) => !DONE.includes(build.status))) return undefined;
  const combined = combinedStatus(builds);
  return builds.length === 0 || combined === 'skipped' ? 'success' : combined;
}
