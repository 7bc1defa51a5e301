/*
 * The build payload as the server sends it (reference §2.3.2), typed for what the runner reads
 * (§8.7), and the job options it acts on, read defensively: `options` is whatever the job's YAML held.
 */

export interface BuildSummary {
  id: number;
  name: string;
  token: string;
  stage: string | null;
  artifacts_file?: { filename: string; size: number | null };
}

export interface BuildVariable {
  key: string;
  value: string | null;
  public: boolean;
}

export interface BuildPayload extends BuildSummary {
  ref: string | null;
  tag: boolean;
  sha: string;
  project_id: number;
  project_name: string;
  commands: string;
  repo_url: string;
  before_sha: string;
  allow_git_fetch: boolean;
  options: Record<string, unknown> | null;
  timeout: number;
  variables: BuildVariable[];
  depends_on_builds: BuildSummary[];
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

/** `after_script`, as lines. */
export function afterScriptOf(payload: BuildPayload): string[] {
  return strings(payload.options?.after_script);
}

/** The jobs whose artifacts this one wants (`dependencies`); undefined means all earlier ones (§8.5 step 4). */
export function dependenciesOf(payload: BuildPayload): string[] | undefined {
  const dependencies = payload.options?.dependencies;
  return Array.isArray(dependencies) ? strings(dependencies) : undefined;
}

/** `artifacts`, or undefined when there is nothing to collect (neither `paths` nor `untracked`). */
export function artifactsOf(payload: BuildPayload): ArtifactsOptions | undefined {
  const raw = payload.options?.artifacts;
  if (!raw || typeof raw !== 'object') return undefined;
  const artifacts = raw as Record<string, unknown>;
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

/**
 * `cache`, or undefined when there is nothing to cache (neither `paths` nor `untracked`), as the
 * runner skips it. `policy` is later GitLab's (9.4; 8.12 knew none): absent, both ways.
 */
export function cacheOf(payload: BuildPayload): CacheOptions | undefined {
  const raw = payload.options?.cache;
  if (!raw || typeof raw !== 'object') return undefined;
  const cache = raw as Record<string, unknown>;
  const paths = strings(cache.paths);
  const untracked = cache.untracked === true;
  if (paths.length === 0 && !untracked) return undefined;
  const policy = cache.policy === 'pull' || cache.policy === 'push' ? cache.policy : 'pull-push';
  return { key: typeof cache.key === 'string' && cache.key !== '' ? cache.key : undefined, paths, untracked, policy };
}

/** What a shell executor cannot honour: `image` and `services`, for the one line the trace says about them. */
export function containerOptionsOf(payload: BuildPayload): { image?: string; services: string[] } {
  const image = payload.options?.image;
  return { image: typeof image === 'string' ? image : undefined, services: strings(payload.options?.services) };
}

/** The build's time limit in milliseconds: `timeout` seconds, 7200 when it is not positive (§8.5). */
export function timeoutMsOf(payload: BuildPayload): number {
  const seconds = Number.isFinite(payload.timeout) && payload.timeout > 0 ? payload.timeout : 7200;
  return seconds * 1000;
}
