import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { Runner, RunnerDetails, presentRunner, presentRunnerDetails } from './entities/runner';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { givenAttributes, NameString, TextString } from '../shared/params';

// Strings, so that an id naming no runner (`abc`, past 32 bits) is `404 Not found`, not a 400.
const RunnerPath = Type.Object({ id: Type.String() });
const ProjectPath = Type.Object({ id: Type.String() });
const ProjectRunnerPath = Type.Object({ id: Type.String(), runner_id: Type.String() });
// `scope` is checked by the service, which answers 400 for a name it does not list.
const ListQuery = Type.Object({ scope: Type.Optional(Type.Any()), page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) });
const NoParams = Type.Object({});
const RunnerChanges = Type.Object({
  description: Type.Optional(TextString()),
  active: Type.Optional(Type.Boolean()),
  // An array (`tag_list[]=a`) or a comma-separated list, as ActsAsTaggable reads either.
  tag_list: Type.Optional(Type.Union([Type.Array(NameString()), TextString()])),
  run_untagged: Type.Optional(Type.Boolean()),
  locked: Type.Optional(Type.Boolean()),
});

// GitLab 15.10's `POST /user/runners`: `tag_list` an array (or a comma-separated list, as Grape coerces it).
const UserRunner = Type.Object({
  runner_type: Type.Union([Type.Literal('instance_type'), Type.Literal('group_type'), Type.Literal('project_type')]),
  group_id: Type.Optional(Type.Integer()),
  project_id: Type.Optional(Type.Integer()),
  description: Type.Optional(TextString()),
  maintenance_note: Type.Optional(TextString()),
  paused: Type.Optional(Type.Boolean()),
  locked: Type.Optional(Type.Boolean()),
  run_untagged: Type.Optional(Type.Boolean()),
  tag_list: Type.Optional(Type.Union([Type.Array(NameString()), TextString()])),
  access_level: Type.Optional(Type.Union([Type.Literal('not_protected'), Type.Literal('ref_protected')])),
  maximum_timeout: Type.Optional(Type.Integer({ minimum: 600 })),
});
const CreatedRunner = Type.Object({ id: Type.Integer(), token: Type.String(), token_expires_at: Type.Null() });

// GitLab's `admin_build` on the project: masters and owners.
const adminProject = { project: 'admin_build' } as const;

/**
 * Runners as users and administrators manage them (GitLab 9–11's `API::Runners`, its management
 * part), and `POST /user/runners`, by which a user makes a runner and gets its authentication
 * token. `POST /runners`, `DELETE /runners` and `POST /runners/verify` are the runners' own
 * protocol, served elsewhere: no route here takes them.
 */
export function runnersRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const runners = services.runnerAdmin;

  api.get('/runners', { schema: { querystring: ListQuery, response: { 200: Type.Array(Runner) } } }, async (request, reply) => {
    const page = pageOf(request.query);
    const { runners: list, total } = await runners.listOwned(request.user!, request.query.scope, page);
    setPageHeaders(request, reply, presenter.externalUrl, page, total);
    return list.map(presentRunner);
  });

  api.post(
    '/user/runners',
    { config: { grapeParams: true }, schema: { body: UserRunner, response: { 201: CreatedRunner } } },
    async (request, reply) => {
      const body = request.body;
      const { runner, token } = await runners.createForUser(request.user!, {
        runnerType: body.runner_type,
        groupId: body.group_id === undefined ? undefined : String(body.group_id),
        projectId: body.project_id === undefined ? undefined : String(body.project_id),
        description: body.description,
        tagList: body.tag_list,
        runUntagged: body.run_untagged,
        locked: body.locked,
        active: body.paused !== true,
        accessLevel: body.access_level,
        maximumTimeout: body.maximum_timeout,
      });
      return reply.status(201).send({ id: runner.id, token, token_expires_at: null });
    },
  );

  api.get(
    '/runners/all',
    { config: { access: 'admin' }, schema: { querystring: ListQuery, response: { 200: Type.Array(Runner) } } },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { runners: list, total } = await runners.listAll(request.query.scope, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return list.map(presentRunner);
    },
  );

  api.get('/runners/:id', { schema: { params: RunnerPath, querystring: NoParams, response: { 200: RunnerDetails } } }, async (request) =>
    presentRunnerDetails(await runners.details(request.user!, request.params.id), presenter),
  );

  api.put('/runners/:id', { schema: { params: RunnerPath, body: RunnerChanges, response: { 200: RunnerDetails } } }, async (request) => {
    // GitLab's `attributes_for_keys`: a blank parameter, an empty list too, changes nothing.
    const given = givenAttributes(request.body);
    if (Array.isArray(given.tag_list) && given.tag_list.length === 0) delete given.tag_list;
    const updated = await runners.update(request.user!, request.params.id, {
      description: given.description,
      active: given.active,
      tagList: given.tag_list,
      runUntagged: given.run_untagged,
      locked: given.locked,
    });
    return presentRunnerDetails(updated, presenter);
  });

  api.delete('/runners/:id', { schema: { params: RunnerPath, querystring: NoParams, response: { 200: Runner } } }, async (request) =>
    presentRunner(await runners.remove(request.user!, request.params.id)),
  );

  api.get(
    '/projects/:id/runners',
    { config: adminProject, schema: { params: ProjectPath, querystring: ListQuery, response: { 200: Type.Array(Runner) } } },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { runners: list, total } = await runners.listForProject(request.project.id, request.query.scope, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return list.map(presentRunner);
    },
  );

  api.post(
    '/projects/:id/runners',
    {
      config: { ...adminProject, grapeParams: true },
      schema: { params: ProjectPath, body: Type.Object({ runner_id: Type.String() }), response: { 201: Runner } },
    },
    async (request, reply) => {
      const runner = await runners.enable(request.user!, request.project.id, request.body.runner_id);
      return reply.status(201).send(presentRunner(runner));
    },
  );

  api.delete(
    '/projects/:id/runners/:runner_id',
    { config: adminProject, schema: { params: ProjectRunnerPath, querystring: NoParams, response: { 200: Runner } } },
    async (request) => presentRunner(await runners.disable(request.project.id, request.params.runner_id)),
  );
}
