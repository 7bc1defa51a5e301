import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { Trigger, TriggerRequest, presentTrigger, presentTriggerRequest } from './entities/trigger';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { hashParam } from '../../http/params';

const ProjectId = Type.Object({ id: Type.String() });
const TriggerToken = Type.Object({ id: Type.String(), token: Type.String() });
const PageQuery = Type.Object({ page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) });
// `variables` is judged by the service, in 8.12's words ("needs to be a hash"), so any value passes here.
const TriggerBody = Type.Object({ ref: Type.String(), token: Type.String(), variables: Type.Optional(Type.Unknown()) });

/** Build triggers: managed by masters (GitLab's `admin_build`), called with a trigger token alone. */
export function triggersRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const triggers = services.triggers;

  // No user: the trigger token is the credential, so the project is looked up by the service, not the guard.
  api.post(
    '/projects/:id/trigger/builds',
    {
      config: { access: 'public' },
      schema: { params: ProjectId, body: TriggerBody, response: { 201: TriggerRequest } },
    },
    async (request, reply) => {
      const { ref, token } = request.body;
      const triggered = await triggers.trigger(request.params.id, { ref, token, variables: hashParam(request.body, 'variables') });
      return reply.status(201).send(presentTriggerRequest(triggered));
    },
  );

  api.get(
    '/projects/:id/triggers',
    {
      config: { project: 'admin_build' },
      schema: { params: ProjectId, querystring: PageQuery, response: { 200: Type.Array(Trigger) } },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { triggers: list, total } = await triggers.list(request.project.id, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return list.map(presentTrigger);
    },
  );

  api.get(
    '/projects/:id/triggers/:token',
    {
      config: { project: 'admin_build' },
      schema: { params: TriggerToken, querystring: Type.Object({}), response: { 200: Trigger } },
    },
    async (request) => presentTrigger(await triggers.find(request.project.id, request.params.token)),
  );

  api.post(
    '/projects/:id/triggers',
    {
      config: { project: 'admin_build' },
      schema: { params: ProjectId, body: Type.Object({}), response: { 201: Trigger } },
    },
    async (request, reply) => reply.status(201).send(presentTrigger(await triggers.create(request.project.id))),
  );

  api.delete(
    '/projects/:id/triggers/:token',
    {
      config: { project: 'admin_build' },
      schema: { params: TriggerToken, querystring: Type.Object({}), response: { 200: Trigger } },
    },
    async (request) => presentTrigger(await triggers.delete(request.project.id, request.params.token)),
  );
}
