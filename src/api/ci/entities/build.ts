import { Type, type Static } from '@sinclair/typebox';
import type { BuildRow } from '../../../services/ci/types';
import type { JobArtifactsFile, RunnerJob } from '../../../services/ci/runners/payload';

/*
 * The build as runners receive it (GitLab 8.12's `Entities::BuildDetails`, reference §2.3.2), keys in
 * GitLab's order. `artifacts_file` and `artifacts_expire_at` appear only while the build has
 * artifacts. The service makes a protocol-neutral record (`services/ci/runners/payload.ts`);
 * `presentBuildPayload` shapes it and this schema serializes it.
 */

const ArtifactsFile = Type.Object({ filename: Type.String(), size: Type.Union([Type.Integer(), Type.Null()]) });

const summaryFields = {
  id: Type.Integer(),
  ref: Type.Union([Type.String(), Type.Null()]),
  tag: Type.Boolean(),
  sha: Type.String(),
  status: Type.String(),
  name: Type.String(),
  token: Type.String(),
  stage: Type.Union([Type.String(), Type.Null()]),
  project_id: Type.Integer(),
  project_name: Type.String(),
  artifacts_file: Type.Optional(ArtifactsFile),
};

export const BuildSummary = Type.Object(summaryFields);

export const BuildVariable = Type.Object({ key: Type.String(), value: Type.Union([Type.String(), Type.Null()]), public: Type.Boolean() });

export const BuildPayload = Type.Object({
  ...summaryFields,
  commands: Type.String(),
  repo_url: Type.String(),
  before_sha: Type.String(),
  allow_git_fetch: Type.Boolean(),
  artifacts_expire_at: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  // The job's options exactly as stored at creation: any JSON object.
  options: Type.Object({}, { additionalProperties: true }),
  timeout: Type.Integer(),
  variables: Type.Array(BuildVariable),
  depends_on_builds: Type.Array(BuildSummary),
});

export const RegisteredRunner = Type.Object({ id: Type.Integer(), token: Type.String() });

type Summary = Static<typeof BuildSummary>;

/** A build of the payload or of its `depends_on_builds`, in GitLab 8.12's short shape. */
function summaryOf(job: RunnerJob, build: BuildRow, token: string, artifacts: JobArtifactsFile | undefined): Summary {
  return {
    id: build.id,
    ref: build.ref,
    tag: Boolean(build.tag),
    sha: job.pipeline.sha,
    status: build.status,
    name: build.name,
    token,
    stage: build.stage,
    project_id: build.project_id,
    project_name: job.project.name,
    ...(artifacts ? { artifacts_file: artifacts } : {}),
  };
}

/** The runner API v1's build payload (8.12's `Entities::BuildDetails`). */
export function presentBuildPayload(job: RunnerJob): Static<typeof BuildPayload> {
  return {
    ...summaryOf(job, job.build, job.token, job.artifacts && { filename: job.artifacts.filename, size: job.artifacts.size }),
    commands: job.build.commands,
    repo_url: job.repoUrl,
    before_sha: job.pipeline.beforeSha,
    allow_git_fetch: job.project.allowGitFetch,
    ...(job.artifacts ? { artifacts_expire_at: job.artifacts.expireAt } : {}),
    options: job.options,
    timeout: job.timeout,
    variables: job.variables,
    depends_on_builds: job.dependencies.map((dependency) => summaryOf(job, dependency.build, dependency.token, dependency.artifacts)),
  };
}
