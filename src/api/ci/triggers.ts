import { Type } from '@sinclair/typebox';
import type { Api } from '../../http/api';
import type { RunnerApiDeps } from './deps';
import { LegacyTriggerRequest, presentLegacyTriggerRequest } from './entities/trigger';
import { idOf, paramsOf } from './request';
import { hashParam } from '../../http/params';
import { notGiven } from '../../errors';

/**
 * The legacy trigger (reference §2.10), kept for scripts written against GitLab CI. In 8.12 `:id`
 * was the project's `ci_id`, the id it had in the standalone GitLab CI it was migrated from; Forge
 * never had a standalone CI, so a project's CI id is its id, and `:id` is the project id (digits
 * only, as 8.12 read a number). `:ref` is one path segment: a branch with a `/` in its name is sent
 * as `%2F`; unlike 8.12's router, a `.` in a ref name is taken as part of the name.
 */
export function triggersRoutes(api: Api, { services }: RunnerApiDeps): void {
  api.post(
    '/projects/:id/refs/:ref/trigger',
    {
      schema: { params: Type.Object({ id: Type.String(), ref: Type.String() }), response: { 201: LegacyTriggerRequest } },
    },
    async (request, reply) => {
      const params = paramsOf(request);
      const token = params.token;
      // 8.12's `required_attributes!`: absent, null and blank are all "not given".
      if (token === undefined || token === null || String(token).trim() === '') throw notGiven('token');
      // An id that cannot be a project's names none: `0` is never one.
      const projectId = String(idOf(request.params.id) ?? 0);
      const { request: triggered, pipeline } = await services.triggers.triggerWithPipeline(projectId, {
        token: String(token),
        ref: request.params.ref,
        variables: hashParam(params, 'variables'),
      });
      return reply.status(201).send(presentLegacyTriggerRequest(triggered, pipeline));
    },
  );
}
