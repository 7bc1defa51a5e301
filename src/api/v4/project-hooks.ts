import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { NameString, TextString } from '../shared/params';
import { ProjectHook, optionalHookFlags, presentProjectHook, serviceFlags, type V4HookFlag } from './entities/project-hook';
import { pageOf, setPageHeaders } from '../../http/pagination';

const ProjectId = Type.Object({ id: Type.String() });
// A string, so that `abc` is an unknown hook (404) as in GitLab, not an unmatched route.
const HookId = Type.Object({ id: Type.String(), hook_id: Type.String() });
const PageQuery = Type.Object({ page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) });

const HookAttributes = Type.Object({
  url: TextString(),
  ...optionalHookFlags(),
  /** Sent back as `X-Gitlab-Token` with every delivery; never shown. */
  token: Type.Optional(NameString()),
});

type HookBody = { url: string; token?: string } & Partial<Record<V4HookFlag, boolean>>;
const attributesOf = (body: HookBody) => ({ url: body.url, token: body.token, ...serviceFlags(body) });

/** Project hooks in v4's flag names (`job_events`): masters only (GitLab's `admin_project`). */
export function projectHooksRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const hooks = services.projectHooks;

  api.get(
    '/projects/:id/hooks',
    {
      config: { project: 'admin_project' },
      schema: { params: ProjectId, querystring: PageQuery, response: { 200: Type.Array(ProjectHook) } },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { hooks: list, total } = await hooks.list(request.project.id, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return list.map(presentProjectHook);
    },
  );

  api.get(
    '/projects/:id/hooks/:hook_id',
    { config: { project: 'admin_project' }, schema: { params: HookId, response: { 200: ProjectHook } } },
    async (request) => presentProjectHook(await hooks.find(request.project.id, request.params.hook_id)),
  );

  api.post(
    '/projects/:id/hooks',
    { config: { project: 'admin_project' }, schema: { params: ProjectId, body: HookAttributes, response: { 201: ProjectHook } } },
    async (request, reply) =>
      reply.status(201).send(presentProjectHook(await hooks.create(request.project.id, attributesOf(request.body as HookBody)))),
  );

  api.put(
    '/projects/:id/hooks/:hook_id',
    { config: { project: 'admin_project' }, schema: { params: HookId, body: HookAttributes, response: { 200: ProjectHook } } },
    async (request) =>
      presentProjectHook(await hooks.update(request.project.id, request.params.hook_id, attributesOf(request.body as HookBody))),
  );

  // GitLab v4 answers a removal with 204 and no body.
  api.delete(
    '/projects/:id/hooks/:hook_id',
    { config: { project: 'admin_project' }, schema: { params: HookId, response: { 204: Type.Null() } } },
    async (request, reply) => {
      await hooks.delete(request.project.id, request.params.hook_id);
      return reply.status(204).send(null);
    },
  );
}
