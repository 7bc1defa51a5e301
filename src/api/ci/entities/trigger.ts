import { Type, type Static } from '@sinclair/typebox';
import type { TriggeredPipeline, TriggerRequest } from '../../../services/ci/pipelines/triggers';
import { Nullable, NullableTimestamp, Timestamp, TriggerVariables } from '../../shared/schemas';

/** GitLab 8.12's `Ci::API::Entities::TriggerRequest`: the request and the pipeline it made (`commit`). */
export const LegacyTriggerRequest = Type.Object({
  id: Type.Integer(),
  variables: TriggerVariables,
  commit: Type.Object({
    id: Type.Integer(),
    sha: Type.String(),
    project_id: Type.Integer(),
    created_at: Timestamp,
    status: Type.String(),
    finished_at: NullableTimestamp,
    duration: Nullable(Type.Integer()),
    git_commit_message: Nullable(Type.String()),
    git_author_name: Nullable(Type.String()),
    git_author_email: Nullable(Type.String()),
  }),
});

export function presentLegacyTriggerRequest(request: TriggerRequest, pipeline: TriggeredPipeline): Static<typeof LegacyTriggerRequest> {
  const { id, sha, project_id, created_at, status, finished_at, duration, git_commit_message, git_author_name, git_author_email } =
    pipeline;
  return {
    id: request.id,
    variables: request.variables,
    commit: { id, sha, project_id, created_at, status, finished_at, duration, git_commit_message, git_author_name, git_author_email },
  };
}
