import { Type, type Static } from '@sinclair/typebox';
import type { PipelineRow } from '../../../services/ci/types';
import type { Project } from '../../../services/projects/types';
import type { User } from '../../../services/users/users';
import { projectUrls } from '../../../lib/urls';
import { UserBasic, presentUserBasic } from '../../shared/entities/user';
import { Nullable, NullableTimestamp, Timestamp } from '../../shared/schemas';
import type { Presenter } from '../../shared/types';

/** GitLab 9–11's `Entities::PipelineBasic`: what a pipeline list shows. */
export const PipelineBasic = Type.Object({
  id: Type.Integer(),
  sha: Type.String(),
  ref: Nullable(Type.String()),
  status: Type.String(),
  web_url: Type.String(),
});

/** GitLab 9–11's `Entities::Pipeline`: one pipeline, and what creating or triggering one answers. */
export const Pipeline = Type.Object({
  ...PipelineBasic.properties,
  before_sha: Nullable(Type.String()),
  tag: Type.Boolean(),
  yaml_errors: Nullable(Type.String()),
  user: Nullable(UserBasic),
  created_at: Timestamp,
  updated_at: Timestamp,
  started_at: NullableTimestamp,
  finished_at: NullableTimestamp,
  committed_at: NullableTimestamp,
  duration: Nullable(Type.Integer()),
  coverage: Nullable(Type.String()),
  /** GitLab 10+'s: how the pipeline came (`push`, `trigger`, `api`). */
  source: Type.String(),
});

export function presentPipelineBasic(
  pipeline: Pick<PipelineRow, 'id' | 'sha' | 'ref' | 'status'>,
  project: Project,
  presenter: Presenter,
): Static<typeof PipelineBasic> {
  return {
    id: pipeline.id,
    sha: pipeline.sha,
    ref: pipeline.ref,
    status: pipeline.status,
    web_url: `${projectUrls(presenter, project).web}/pipelines/${pipeline.id}`,
  };
}

export function presentPipeline(
  pipeline: PipelineRow,
  user: User | undefined,
  project: Project,
  presenter: Presenter,
): Static<typeof Pipeline> {
  return Object.assign(presentPipelineBasic(pipeline, project, presenter), {
    before_sha: pipeline.before_sha,
    tag: pipeline.tag === 1,
    yaml_errors: pipeline.yaml_errors,
    user: user ? presentUserBasic(user, presenter) : null,
    created_at: pipeline.created_at,
    updated_at: pipeline.updated_at,
    started_at: pipeline.started_at,
    finished_at: pipeline.finished_at,
    committed_at: pipeline.committed_at,
    duration: pipeline.duration,
    // Forge does not average its jobs' coverage into the pipeline's.
    coverage: null,
    source: pipeline.source,
  });
}
