/*
 * The job as `POST /api/v4/jobs/request` sends it (gitlab-runner's `common.JobResponse`), typed for
 * what the runner reads, and the parts it acts on, read defensively: a server may leave any out.
 */

export interface JobVariable {
  key: string;
  value: string | null;
  public: boolean;
}

export interface JobStep {
  name: string;
  script: string[];
  timeout?: number;
  when?: string;
  allow_failure?: boolean;
}

export interface JobArtifact {
  name: string | null;
  untracked: boolean;
  paths: string[];
  when: string;
  expire_in: string | null;
  artifact_type?: string;
  artifact_format?: string;
}

export interface JobCache {
  key: string | null;
  untracked: boolean;
  paths: string[];
  policy: string;
}

export interface JobDependency {
  id: number;
  name: string;
  token: string;
  artifacts_file?: { filename: string; size: number | null };
}

export interface JobPayload {
  id: number;
  token: string;
  allow_git_fetch: boolean;
  job_info: { name: string; stage: string | null; project_id: number; project_name: string };
  git_info: {
    repo_url: string;
    ref: string | null;
    sha: string;
    before_sha: string;
    ref_type: string;
    refspecs?: string[];
    depth?: number;
  };
  runner_info: { timeout: number };
  variables: JobVariable[];
  steps: JobStep[];
  image: { name: string } | null;
  services: { name: string }[];
  artifacts: JobArtifact[] | null;
  cache: JobCache[] | null;
  dependencies: JobDependency[] | null;
}

export type ArtifactsWhen = 'on_success' | 'on_failure' | 'always';

export interface ArtifactsOptions {
  name: string;
  paths: string[];
  untracked: boolean;
  when: ArtifactsWhen;
  expireIn?: string;
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

/** The lines of the step named `name` (`script`: before_script and script; `after_script`). */
export function stepOf(payload: JobPayload, name: string): string[] {
  return strings((payload.steps ?? []).find((step) => step.name === name)?.script);
}

/** The jobs whose artifacts this one downloads: the server has already applied `dependencies:`. */
export function dependenciesOf(payload: JobPayload): JobDependency[] {
  return (payload.dependencies ?? []).filter((dependency) => dependency.artifacts_file?.filename);
}

/** The `archive` artifact, or undefined when there is nothing to collect (neither `paths` nor `untracked`). */
export function artifactsOf(payload: JobPayload): ArtifactsOptions | undefined {
  const artifacts = (payload.artifacts ?? []).find((artifact) => (artifact.artifact_type ?? 'archive') === 'archive');
  if (!artifacts) return undefined;
  const paths = strings(artifacts.paths);
  const untracked = artifacts.untracked === true;
  if (paths.length === 0 && !untracked) return undefined;
  const when = artifacts.when === 'on_failure' || artifacts.when === 'always' ? artifacts.when : 'on_success';
  return {
    name: typeof artifacts.name === 'string' && artifacts.name !== '' ? artifacts.name : 'artifacts',
    paths,
    untracked,
    when,
    expireIn: typeof artifacts.expire_in === 'string' && artifacts.expire_in !== '' ? artifacts.expire_in : undefined,
  };
}

export type CachePolicy = 'pull-push' | 'pull' | 'push';

export interface CacheOptions {
  /** As written, before expansion; undefined for the runner's default. */
  key?: string;
  paths: string[];
  untracked: boolean;
  policy: CachePolicy;
}

/** The first cache, or undefined when there is nothing to cache (neither `paths` nor `untracked`), as the runner skips it. */
export function cacheOf(payload: JobPayload): CacheOptions | undefined {
  const cache = (payload.cache ?? [])[0];
  if (!cache) return undefined;
  const paths = strings(cache.paths);
  const untracked = cache.untracked === true;
  if (paths.length === 0 && !untracked) return undefined;
  const policy = cache.policy === 'pull' || cache.policy === 'push' ? cache.policy : 'pull-push';
  return { key: typeof cache.key === 'string' && cache.key !== '' ? cache.key : undefined, paths, untracked, policy };
}

/** What a shell executor cannot honour: `image` and `services`, for the one line the trace says about them. */
export function containerOptionsOf(payload: JobPayload): { image?: string; services: string[] } {
  return {
    image: payload.image?.name || undefined,
    services: (payload.services ?? []).map((service) => service.name).filter((name) => typeof name === 'string'),
  };
}

/** The job's time limit in milliseconds: `runner_info.timeout` seconds, 3600 (gitlab-runner's default) when not positive. */
export function timeoutMsOf(payload: JobPayload): number {
  const seconds = payload.runner_info?.timeout;
  return (Number.isFinite(seconds) && seconds > 0 ? seconds : 3600) * 1000;
}
