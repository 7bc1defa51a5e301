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

// GitLab's `admin_build` on the project: masters and owners.
const adminProject = { project: 'admin_build' } as const;

/**
 * Runners as users and administrators manage them (GitLab 9–11's `API::Runners`, its management
 * part). `POST /runners`, `DELETE /runners` and `POST /runners/verify` are the runners' own
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
