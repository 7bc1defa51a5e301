import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Api, RouteDeps } from '../shared/types';
import { Trigger, presentTrigger } from './entities/trigger';
import { Pipeline, presentPipeline } from './entities/pipeline';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { hashParam } from '../../http/params';
import { RecordId, TextString } from '../shared/params';
import type { Trigger as TriggerRecord } from '../../services/ci/pipelines/triggers';

const ProjectId = Type.Object({ id: Type.String() });
// A path that is not an id names no trigger (404).
const TriggerPath = Type.Object({ id: Type.String(), trigger_id: RecordId });
const PageQuery = Type.Object({ page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) });
const NoParams = Type.Object({});
// `variables` is judged by the service ("needs to be a hash"), so any value passes here.
const TriggerBody = Type.Object({ ref: TextString(), token: TextString(), variables: Type.Optional(Type.Unknown()) });

// GitLab's `admin_build`: masters and owners manage triggers.
const adminBuild = { project: 'admin_build' } as const;

/** Pipeline triggers: managed by masters, by id (GitLab 9), and called with a trigger token alone. */
export function triggersRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const { triggers, users } = services;

  const present = async (request: FastifyRequest, list: TriggerRecord[]) => {
    const owners = await users.findMany(list.flatMap((trigger) => (trigger.owner_id === null ? [] : [trigger.owner_id])));
    return list.map((trigger) =>
      presentTrigger(trigger, trigger.owner_id === null ? undefined : owners.get(trigger.owner_id), request.user!, presenter),
    );
  };
  const presentOne = async (request: FastifyRequest, trigger: TriggerRecord) => (await present(request, [trigger]))[0];

  // No user: the trigger token is the credential, so the project is found by the service, not the guard.
  api.post(
    '/projects/:id/trigger/pipeline',
    {
      config: { access: 'public', grapeParams: true },
      schema: { params: ProjectId, body: TriggerBody, response: { 201: Pipeline } },
    },
    async (request, reply) => {
      const { ref, token } = request.body;
      const call = { ref, token, variables: hashParam(request.body, 'variables') };
      const { project, pipeline } = await triggers.triggerPipeline(request.params.id, call);
      // A trigger's pipeline has no user.
      return reply.status(201).send(presentPipeline(pipeline, undefined, project, presenter));
    },
  );

  api.get(
    '/projects/:id/triggers',
    { config: adminBuild, schema: { params: ProjectId, querystring: PageQuery, response: { 200: Type.Array(Trigger) } } },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { triggers: list, total } = await triggers.list(request.project.id, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return present(request, list);
    },
  );

  api.get(
    '/projects/:id/triggers/:trigger_id',
    { config: adminBuild, schema: { params: TriggerPath, querystring: NoParams, response: { 200: Trigger } } },
    async (request) => presentOne(request, await triggers.findById(request.project.id, request.params.trigger_id)),
  );

  api.post(
    '/projects/:id/triggers',
    {
      config: { ...adminBuild, grapeParams: true },
      schema: { params: ProjectId, body: Type.Object({ description: TextString() }), response: { 201: Trigger } },
    },
    async (request, reply) => {
      const created = await triggers.create(request.project.id, { description: request.body.description, ownerId: request.user!.id });
      return reply.status(201).send(await presentOne(request, created));
    },
  );

  api.put(
    '/projects/:id/triggers/:trigger_id',
    {
      config: adminBuild,
      schema: { params: TriggerPath, body: Type.Object({ description: Type.Optional(TextString()) }), response: { 200: Trigger } },
    },
    async (request) =>
      presentOne(request, await triggers.update(request.project.id, request.params.trigger_id, { description: request.body.description })),
  );

  // GitLab 9 answered the removed trigger; 11 answered 204. python-gitlab reads either.
  api.delete(
    '/projects/:id/triggers/:trigger_id',
    { config: adminBuild, schema: { params: TriggerPath, querystring: NoParams, response: { 200: Trigger } } },
    async (request) => presentOne(request, await triggers.deleteById(request.project.id, request.params.trigger_id)),
  );
}
