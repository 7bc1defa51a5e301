import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../v3/types';
import { TriggerVariables } from '../v3/entities/trigger';
import { Nullable, NullableTimestamp, Timestamp } from '../v3/entities/common';
import { idOf, paramsOf } from './request';
import { hashParam } from '../../http/params';
import { notGiven } from '../../errors';

/** GitLab 8.12's `Ci::API::Entities::TriggerRequest`: the request and the pipeline it made (`commit`). */
const LegacyTriggerRequest = Type.Object({
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

/**
 * The legacy trigger (reference §2.10), kept for scripts written against GitLab CI. In 8.12 `:id`
 * was the project's `ci_id`, the id it had in the standalone GitLab CI it was migrated from; Forge
 * never had a standalone CI, so a project's CI id is its id, and `:id` is the project id (digits
 * only, as 8.12 read a number). `:ref` is one path segment: a branch with a `/` in its name is sent
 * as `%2F`; unlike 8.12's router, a `.` in a ref name is taken as part of the name.
 */
export function triggersRoutes(api: Api, { services }: RouteDeps): void {
  api.post('/projects/:id/refs/:ref/trigger', {
    schema: { params: Type.Object({ id: Type.String(), ref: Type.String() }), response: { 201: LegacyTriggerRequest } },
  }, async (request, reply) => {
    const params = paramsOf(request);
    const token = params.token;
    if (token === undefined || (typeof token === 'string' && token.trim() === '')) throw notGiven('token');
    // An id that cannot be a project's names none: `0` is never one.
    const projectId = String(idOf(request.params.id) ?? 0);
    const { request: triggered, pipeline } = await services.triggers.triggerWithPipeline(projectId, {
      token: String(token),
      ref: request.params.ref,
      variables: hashParam(params, 'variables'),
    });
    return reply.status(201).send({ id: triggered.id, variables: triggered.variables, commit: pipeline });
  });
}
