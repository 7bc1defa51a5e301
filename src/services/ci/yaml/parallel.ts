import { structural } from './checks';
import type { CiJob } from './types';

/** `parallel: N` (GitLab 11.5): N copies of a job, `name 1/N` to `name N/N`. */
const MIN = 2;
const MAX = 200;

export function parallelEntry(location: string, v: unknown): number | null {
  if (v === undefined) return null;
  if (typeof v !== 'number' || Number.isNaN(v)) throw structural(location, 'parallel is not a number');
  if (!Number.isInteger(v)) throw structural(location, 'parallel must be an integer');
  if (v < MIN) throw structural(location, `parallel must be greater than or equal to ${MIN}`);
  if (v > MAX) throw structural(location, `parallel must be less than or equal to ${MAX}`);
  return v;
}

/**
 * Each parallel job as its copies, in place, each with `CI_NODE_INDEX` and `CI_NODE_TOTAL`; a
 * dependency or a need on a parallel job becomes one on each of its copies.
 */
export function expandParallel(jobs: ReadonlyArray<CiJob & { parallel: number | null }>): CiJob[] {
  const copies = new Map<string, string[]>();
  for (const j of jobs) {
    if (j.parallel !== null)
      copies.set(
        j.name,
        Array.from({ length: j.parallel }, (_, i) => `${j.name} ${i + 1}/${j.parallel}`),
      );
  }
  return jobs.flatMap(({ parallel, ...job }) => {
    const dependencies = job.dependencies?.flatMap((d) => copies.get(d) ?? [d]) ?? null;
    const needs = job.needs?.flatMap((need) => copies.get(need.name)?.map((name) => ({ ...need, name })) ?? [need]) ?? null;
    if (parallel === null) return [{ ...job, dependencies, needs }];
    return copies.get(job.name)!.map((name, i) => ({
      ...job,
      name,
      dependencies,
      needs,
      variables: [...job.variables, { key: 'CI_NODE_INDEX', value: String(i + 1) }, { key: 'CI_NODE_TOTAL', value: String(parallel) }],
    }));
  });
}
