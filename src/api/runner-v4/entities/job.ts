import { Type, type Static } from '@sinclair/typebox';
import type { RunnerJob } from '../../../services/ci/runners/payload';
import { FAILURE_REASONS } from '../../../services/ci/runners/updates';
import { Nullable } from '../../shared/schemas';

/*
 * A job as gitlab-runner 10–17 decode it (GitLab's `Entities::JobRequest::Response`; the runner's
 * `common.JobResponse`). Images and services are objects (`{name}`): the runner cannot decode the
 * short string form of the YAML, so GitLab expands it, as here.
 */

const Image = Type.Object({
  name: Type.String(),
  alias: Type.Optional(Type.String()),
  entrypoint: Type.Optional(Type.Array(Type.String())),
  command: Type.Optional(Type.Array(Type.String())),
});

const Step = Type.Object({
  name: Type.String(),
  script: Type.Array(Type.String()),
  timeout: Type.Integer(),
  when: Type.String(),
  allow_failure: Type.Boolean(),
});

const Artifact = Type.Object({
  name: Nullable(Type.String()),
  untracked: Type.Boolean(),
  paths: Type.Array(Type.String()),
  when: Type.String(),
  expire_in: Nullable(Type.String()),
  artifact_type: Type.String(),
  artifact_format: Type.String(),
  exclude: Type.Optional(Type.Array(Type.String())),
});

const Cache = Type.Object({
  key: Nullable(Type.String()),
  untracked: Type.Boolean(),
  paths: Type.Array(Type.String()),
  policy: Type.String(),
});

const Dependency = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  token: Type.String(),
  artifacts_file: Type.Optional(Type.Object({ filename: Type.String(), size: Nullable(Type.Integer()) })),
});

export const JobPayload = Type.Object({
  id: Type.Integer(),
  token: Type.String(),
  allow_git_fetch: Type.Boolean(),
  job_info: Type.Object({ name: Type.String(), stage: Nullable(Type.String()), project_id: Type.Integer(), project_name: Type.String() }),
  git_info: Type.Object({
    repo_url: Type.String(),
    ref: Nullable(Type.String()),
    sha: Type.String(),
    before_sha: Type.String(),
    ref_type: Type.String(),
    refspecs: Type.Array(Type.String()),
    depth: Type.Integer(),
  }),
  runner_info: Type.Object({ timeout: Type.Integer() }),
  variables: Type.Array(
    Type.Object({
      key: Type.String(),
      value: Nullable(Type.String()),
      public: Type.Boolean(),
      masked: Type.Boolean(),
      file: Type.Boolean(),
    }),
  ),
  steps: Type.Array(Step),
  image: Nullable(Image),
  services: Type.Array(Image),
  artifacts: Type.Array(Artifact),
  cache: Type.Array(Cache),
  credentials: Type.Array(Type.Object({}, { additionalProperties: true })),
  dependencies: Type.Array(Dependency),
  features: Type.Object({ trace_sections: Type.Boolean(), failure_reasons: Type.Array(Type.String()) }),
});

type Payload = Static<typeof JobPayload>;

export function presentJob(job: RunnerJob): Payload {
  const { build, options } = job;
  const ref = build.ref;
  const tag = job.pipeline.tag;
  const afterScript = strings(options.after_script);
  const wanted = Array.isArray(options.dependencies) ? new Set(strings(options.dependencies)) : undefined;
  return {
    id: build.id,
    token: job.token,
    allow_git_fetch: job.project.allowGitFetch,
    job_info: { name: build.name, stage: build.stage, project_id: build.project_id, project_name: job.project.name },
    git_info: {
      repo_url: job.repoUrl,
      ref,
      sha: job.pipeline.sha,
      before_sha: job.pipeline.beforeSha,
      ref_type: tag ? 'tag' : 'branch',
      refspecs: ref === null ? [] : [tag ? `+refs/tags/${ref}:refs/tags/${ref}` : `+refs/heads/${ref}:refs/remotes/origin/${ref}`],
      depth: 0,
    },
    runner_info: { timeout: job.timeout },
    variables: job.variables.map((variable) => ({ ...variable, masked: false, file: false })),
    steps: [
      // `before_script` and `script` are one step, as the build's commands keep them (one line each).
      {
        name: 'script',
        script: build.commands === '' ? [] : build.commands.split('\n'),
        timeout: job.timeout,
        when: 'on_success',
        allow_failure: false,
      },
      ...(afterScript.length > 0
        ? [{ name: 'after_script', script: afterScript, timeout: job.timeout, when: 'always', allow_failure: true }]
        : []),
    ],
    image: imageOf(options.image) ?? null,
    services: Array.isArray(options.services) ? options.services.map(imageOf).filter((image) => image !== undefined) : [],
    artifacts: artifactsOf(options.artifacts),
    cache: cacheOf(options.cache),
    credentials: [],
    dependencies: job.dependencies
      .filter((dependency) => wanted === undefined || wanted.has(dependency.build.name))
      .map((dependency) => ({
        id: dependency.build.id,
        name: dependency.build.name,
        token: dependency.token,
        ...(dependency.artifacts ? { artifacts_file: dependency.artifacts } : {}),
      })),
    features: { trace_sections: false, failure_reasons: [...FAILURE_REASONS] },
  };
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item) => typeof item === 'string') : []);
const record = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** `image: ruby:3` or `image: {name: ruby:3, entrypoint: [""]}` as the runner's `{name, …}`. */
function imageOf(value: unknown): Static<typeof Image> | undefined {
  if (typeof value === 'string') return value === '' ? undefined : { name: value };
  const given = record(value);
  if (!given || typeof given.name !== 'string') return undefined;
  return {
    name: given.name,
    ...(typeof given.alias === 'string' ? { alias: given.alias } : {}),
    ...(Array.isArray(given.entrypoint) ? { entrypoint: strings(given.entrypoint) } : {}),
    ...(Array.isArray(given.command) ? { command: strings(given.command) } : {}),
  };
}

/** Each report kind's file name and format, as GitLab's `Ci::JobArtifact` names them; gzip for the others. */
const REPORT_FILES: Record<string, { name: string; format: string }> = {
  junit: { name: 'junit.xml.gz', format: 'gzip' },
  dotenv: { name: '.env.gz', format: 'gzip' },
  metrics: { name: 'metrics.txt.gz', format: 'gzip' },
};

/**
 * GitLab's `BuildRunnerPresenter#artifacts`: the archive when the job gives `paths` or
 * `untracked` (with `exclude`), then one entry per report kind, uploaded whatever the job's end.
 */
function artifactsOf(value: unknown): Static<typeof Artifact>[] {
  const given = record(value);
  if (!given) return [];
  const expireIn = typeof given.expire_in === 'string' ? given.expire_in : null;
  const archive: Static<typeof Artifact>[] =
    given.untracked === undefined && given.paths === undefined
      ? []
      : [
          {
            name: typeof given.name === 'string' ? given.name : null,
            untracked: given.untracked === true,
            paths: strings(given.paths),
            when: typeof given.when === 'string' ? given.when : 'on_success',
            expire_in: expireIn,
            artifact_type: 'archive',
            artifact_format: 'zip',
            ...(Array.isArray(given.exclude) ? { exclude: strings(given.exclude) } : {}),
          },
        ];
  const reports = Object.entries(record(given.reports) ?? {}).map(([kind, paths]) => ({
    name: REPORT_FILES[kind]?.name ?? `gl-${kind.replace(/_/g, '-')}-report.json`,
    untracked: false,
    paths: strings(paths),
    when: 'always',
    expire_in: expireIn,
    artifact_type: kind,
    artifact_format: REPORT_FILES[kind]?.format ?? 'raw',
  }));
  return [...archive, ...reports];
}

function cacheOf(value: unknown): Static<typeof Cache>[] {
  const given = record(value);
  if (!given) return [];
  return [
    {
      key: typeof given.key === 'string' ? given.key : null,
      untracked: given.untracked === true,
      paths: strings(given.paths),
      policy: typeof given.policy === 'string' ? given.policy : 'pull-push',
    },
  ];
}
