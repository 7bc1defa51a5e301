import { Type } from '@sinclair/typebox';

/*
 * The build as runners receive it (GitLab 8.12's `Entities::BuildDetails`, reference §2.3.2), keys in
 * GitLab's order. `artifacts_file` and `artifacts_expire_at` appear only while the build has
 * artifacts. The payload is made by the service (`services/ci/runners/payload.ts`); this schema
 * serializes it.
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
