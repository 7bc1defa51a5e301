import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { TextString, RecordId } from '../shared/params';
import { SystemHookRecord, presentSystemHookRecord } from './entities/hook';
import { HookTestResult, SystemHook, presentSystemHook } from '../shared/entities/hook';

const HookId = Type.Object({ id: RecordId });

/** System hooks: administrators only (anonymous 401, other users 403). */
export function systemHooksRoutes(api: Api, { services }: RouteDeps): void {
  const hooks = services.systemHooks;
  const admin = { access: 'admin' } as const;

  api.get(
    '/hooks',
    {
      config: admin,
      schema: { querystring: Type.Object({}), response: { 200: Type.Array(SystemHook) } },
    },
    async () => (await hooks.list()).map(presentSystemHook),
  );

  // The spec shows the created hook as a one-element array (GitLab 8.12 answered the
  // object). 8.12 also answered an invalid URL with a bare 404, a plain bug: ours is
  // the validation error.
  api.post(
    '/hooks',
    {
      config: admin,
      schema: { body: Type.Object({ url: TextString() }), response: { 201: Type.Array(SystemHook) } },
    },
    async (request, reply) => reply.status(201).send([presentSystemHook(await hooks.create(request.body.url))]),
  );

  // GitLab 8.12 posted the test event during the request; ours is queued, so a slow hook never holds the answer.
  api.get(
    '/hooks/:id',
    {
      config: admin,
      schema: { params: HookId, response: { 200: HookTestResult } },
    },
    async (request) => hooks.test(request.params.id),
  );

  // 200 even when there is no such hook (GitLab rescued the failed look-up): the body is then null.
  api.delete(
    '/hooks/:id',
    {
      config: admin,
      schema: { params: HookId, response: { 200: Type.Union([SystemHookRecord, Type.Null()]) } },
    },
    async (request) => {
      const hook = await hooks.delete(request.params.id);
      return hook ? presentSystemHookRecord(hook) : null;
    },
  );
}
