import { Type, type Static } from '@sinclair/typebox';
import type { PipelineRow } from '../../../services/ci/types';
import type { User } from '../../../services/users/users';
import { UserBasic, presentUserBasic } from '../../shared/entities/user';
import { Nullable, NullableTimestamp, Timestamp, type Presenter } from './common';

/** GitLab 8.12's `Entities::Pipeline`. */
export const Pipeline = Type.Object({
  id: Type.Integer(),
  status: Type.String(),
  ref: Nullable(Type.String()),
  sha: Type.String(),
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
});

export function presentPipeline(pipeline: PipelineRow, users: Map<number, User>, presenter: Presenter): Static<typeof Pipeline> {
  const user = pipeline.user_id === null ? undefined : users.get(pipeline.user_id);
  return {
    id: pipeline.id,
    status: pipeline.status,
    ref: pipeline.ref,
    sha: pipeline.sha,
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
  };
}
