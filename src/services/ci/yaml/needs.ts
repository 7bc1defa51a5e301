import { CiConfigError, get, isBlank, isBoolean, isHash, isString, structural, unknownKeys } from './checks';
import type { CiNeed } from './types';

/*
 * `needs` (GitLab 12.2's DAG), with GitLab's messages: its `Needs` and `Need` entries for the
 * value, its `YamlProcessor#validate_job_needs!` for what the names point at.
 */

const NEED_KEYS = ['job', 'artifacts', 'optional'] as const;

/** The job's `needs` as written: names or `{job, artifacts, optional}`; `[]` is a job that needs nothing. */
export function needsEntry(location: string, v: unknown): CiNeed[] | null {
  if (v === undefined) return null;
  if (!Array.isArray(v) && !isHash(v)) throw structural(location, 'config can only be a hash or an array');
  // The hash form names other pipelines (`pipeline:`), which Forge does not run.
  if (!Array.isArray(v)) throw structural(`${location}:need`, 'has an unsupported type');
  return v.map((item) => need(`${location}:need`, item));
}

function need(location: string, v: unknown): CiNeed {
  if (isString(v)) {
    if (isBlank(v)) throw structural(location, "config can't be blank");
    return { name: v, artifacts: true, optional: false };
  }
  if (!isHash(v) || get(v, 'job') === undefined) throw structural(location, 'has an unsupported type');
  const unknown = unknownKeys(v, NEED_KEYS);
  if (unknown.length > 0) throw structural(location, `config contains unknown keys: ${unknown.join(', ')}`);
  const job = get(v, 'job');
  if (!isString(job)) throw structural(location, 'job should be a string');
  if (isBlank(job)) throw structural(location, "job can't be blank");
  const artifacts = get(v, 'artifacts');
  if (artifacts !== undefined && !isBoolean(artifacts)) throw structural(location, 'artifacts should be a boolean value');
  const optional = get(v, 'optional');
  if (optional !== undefined && !isBoolean(optional)) throw structural(location, 'optional should be a boolean value');
  return { name: job, artifacts: artifacts !== false, optional: optional === true };
}

interface NeedingJob {
  name: string;
  stage: string;
  needs: CiNeed[] | null;
  dependencies: string[] | null;
}

/**
 * The processor's checks of one job's needs (messages keep the job's case): each need names a
 * job of an earlier stage, and a job with needs takes artifacts only from what it needs.
 */
export function checkNeeds(job: NeedingJob, byName: Map<string, { stage: string }>, stages: string[]): void {
  if (job.needs === null) return;
  for (const { name } of job.needs) {
    const other = byName.get(name);
    if (!other) throw new CiConfigError(`${job.name} job: undefined need: ${name}`);
    if (!(stages.indexOf(other.stage) < stages.indexOf(job.stage))) {
      throw new CiConfigError(`${job.name} job: need ${name} is not defined in prior stages`);
    }
  }
  const needed = new Set(job.needs.map((n) => n.name));
  for (const dependency of job.dependencies ?? []) {
    if (!needed.has(dependency)) throw new CiConfigError(`${job.name} job: dependency ${dependency} should be part of needs`);
  }
}
