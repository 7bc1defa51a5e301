/**
 * The normalized shape of a valid `.gitlab-ci.yml`, as GitLab 8.12's
 * `Ci::GitlabCiYamlProcessor` hands it on to pipeline creation
 * (reference §5.3, §6.2, §6.3). Everything here is plain data: it can be stored
 * on a build row (`options`, `yaml_variables`) without further conversion.
 */

export type JobWhen = 'on_success' | 'on_failure' | 'always' | 'manual' | 'delayed';
export type ArtifactsWhen = 'on_success' | 'on_failure' | 'always';

/** Only the keys the file gave: 8.12 sends `options.cache` with the specified keys only (§2.3.2). */
export interface CiCache {
  key?: string;
  untracked?: boolean;
  paths?: string[];
  /** Later GitLab's (9.4): whether a build restores the cache, saves it, or both (the default). */
  policy?: 'pull-push' | 'push' | 'pull';
}

/** Only the keys the file gave: `options.artifacts` is the hash "exactly as written" (§2.3.2). */
export interface CiArtifacts {
  name?: string;
  untracked?: boolean;
  paths?: string[];
  when?: ArtifactsWhen;
  expire_in?: string;
  /** Later GitLab's (13.1): paths left out of `paths`. */
  exclude?: string[];
  /** Later GitLab's (11.2): files uploaded beside the archive, each with its `artifact_type`. */
  reports?: CiReports;
}

/** `artifacts: reports:`: the report files of each kind (`junit` …), as globs (a string becomes one). */
export type CiReports = Record<string, string[]>;

/** One entry of `needs` (GitLab 12.2+): a string `build` is `{ name: build, artifacts: true, optional: false }`. */
export interface CiNeed {
  name: string;
  artifacts: boolean;
  optional: boolean;
}

/** `retry` as GitLab stores it: `retry: 2` is `{ max: 2 }`; `when` as written (a string becomes one). */
export interface CiRetry {
  max?: number;
  when?: string[];
}

export interface CiEnvironment {
  name: string;
  url?: string;
}

/** A YAML variable, in file order (§3 item 6: global keys first, then the job's new keys). */
export interface CiVariable {
  key: string;
  value: string;
}

/** One `rules` (or `workflow:rules`) entry: a rule matches when every clause it has holds. */
export interface CiRule {
  if?: string;
  changes?: string[];
  exists?: string[];
  when?: JobWhen | 'never';
  allowFailure?: boolean;
  variables?: CiVariable[];
}

export interface CiJob {
  name: string;
  stage: string;
  /** Index of `stage` in `CiConfig.stages` (a build's `stage_idx`, §4.4). */
  stageIdx: number;
  /** The job's own `script` lines (a bare string becomes one line); empty when absent. */
  script: string[];
  /** The job's `before_script`, or the global one; null when neither is given. */
  beforeScript: string[] | null;
  afterScript: string[] | null;
  /** `before_script` then `script`, joined by "\n": the build's `commands` (§2.3.2). */
  commands: string;
  image: string | null;
  services: string[] | null;
  /** Global variables merged with the job's (job values win). */
  variables: CiVariable[];
  tags: string[];
  allowFailure: boolean;
  when: JobWhen;
  dependencies: string[] | null;
  artifacts: CiArtifacts | null;
  cache: CiCache | null;
  environment: CiEnvironment | null;
  /** Ref policies as written; null when absent (§6.4). */
  only: string[] | null;
  except: string[] | null;
  /** `rules` as written; null when absent (then only/except decide). */
  rules: CiRule[] | null;
  /** The jobs this one starts after, whatever their stage; `[]` starts it at once; null: the stages decide. */
  needs: CiNeed[] | null;
  retry: CiRetry | null;
  /** Seconds (`timeout: 1h 30m`), the job's own limit below the project's. */
  timeout: number | null;
  interruptible: boolean | null;
  /** `when: delayed`'s wait (`30 minutes`), as written; null for other jobs. */
  startIn: string | null;
}

export interface CiConfig {
  stages: string[];
  image: string | null;
  services: string[] | null;
  beforeScript: string[] | null;
  afterScript: string[] | null;
  variables: CiVariable[];
  cache: CiCache | null;
  /** `workflow:rules`; null when absent (every pipeline is created). */
  workflowRules: CiRule[] | null;
  /** Visible jobs in file order (hidden `.name` jobs and global keys left out). */
  jobs: CiJob[];
}

export type ParseResult = { ok: true; config: CiConfig } | { ok: false; error: string };
