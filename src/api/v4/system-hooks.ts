import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { NameString, RecordId, TextString, givenAttributes } from '../shared/params';
import { HookTestResult } from '../shared/entities/hook';
import { SystemHook, presentSystemHook } from './entities/hook';
import { notFound } from '../../errors';
import { PageQuery, pageOfList } from './paging';
import { renameNotFound } from './not-found';

const HookId = Type.Object({ id: RecordId });

const CreateHook = Type.Object({
  url: TextString(),
  token: Type.Optional(NameString()),
  push_events: Type.Optional(Type.Boolean()),
  tag_push_events: Type.Optional(Type.Boolean()),
  merge_requests_events: Type.Optional(Type.Boolean()),
  enable_ssl_verification: Type.Optional(Type.Boolean()),
});

/** System hooks (GitLab 11's `system_hooks.rb`): administrators only; `GET /hooks/:id` tests one, removing answers 204. */
export function systemHooksRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const hooks = services.systemHooks;
  const config = { access: 'admin' } as const;

  api.get(
    '/hooks',
    { config, schema: { querystring: Type.Object(PageQuery), response: { 200: Type.Array(SystemHook) } } },
    async (request, reply) => pageOfList(request, reply, presenter, (await hooks.list()).map(presentSystemHook)),
  );

  api.post('/hooks', { config, schema: { body: CreateHook, response: { 201: SystemHook } } }, async (request, reply) => {
    const { url, token, push_events, tag_push_events, merge_requests_events, enable_ssl_verification } = request.body;
    // Named one by one: a body's other fields (an unknown one, `__proto__`) never reach the row.
    const flags = givenAttributes({ push_events, tag_push_events, merge_requests_events, enable_ssl_verification });
    return reply.status(201).send(presentSystemHook(await hooks.create(url, { token, flags })));
  });

  // Queued, so a slow hook never holds the answer.
  api.get('/hooks/:id', { config, schema: { params: HookId, response: { 200: HookTestResult } } }, async (request) =>
    hooks.test(request.params.id).catch(renameNotFound('Hook')),
  );

  api.delete('/hooks/:id', { config, schema: { params: HookId } }, async (request, reply) => {
    if (!(await hooks.delete(request.params.id))) throw notFound('Hook');
    return reply.status(204).send();
  });
}
