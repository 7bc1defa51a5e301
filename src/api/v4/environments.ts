import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Api, RouteDeps } from '../shared/types';
import { Environment, presentEnvironment } from './entities/environment';
import { presentBasicProject } from './entities/project';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { RecordId, TextString } from '../shared/params';
import type { EnvironmentRow } from '../../services/ci/types';

const ProjectId = Type.Object({ id: Type.String() });
// A path that is not an id names no environment (404).
const EnvironmentPath = Type.Object({ id: Type.String(), environment_id: RecordId });
const PageQuery = Type.Object({ page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) });
const NoParams = Type.Object({});
// Lengths are the service's validation (255, with GitLab's message), beside the other checks of the record.
const CreateBody = Type.Object({ name: TextString(), external_url: Type.Optional(TextString()) });
// A blank `external_url` clears it (GitLab's `nullify_external_url`).
const UpdateBody = Type.Object({ name: Type.Optional(TextString()), external_url: Type.Optional(TextString()) });

/** The environments of a project (signed-in callers only, as GitLab's `authenticate!`): reporters read them, developers create and stop them, masters change and remove them. */
export function environmentsRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const { environments } = services;

  // Every environment of the answer belongs to the route's project, shown once as the basic project.
  const present = (request: FastifyRequest, list: EnvironmentRow[]) => {
    const project = presentBasicProject(request.project, presenter);
    return list.map((environment) => presentEnvironment(environment, project));
  };
  const presentOne = (request: FastifyRequest, environment: EnvironmentRow) => present(request, [environment])[0];

  api.get(
    '/projects/:id/environments',
    {
      config: { project: 'read_environment' },
      schema: { params: ProjectId, querystring: PageQuery, response: { 200: Type.Array(Environment) } },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { environments: list, total } = await environments.list(request.project, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return present(request, list);
    },
  );

  api.get(
    '/projects/:id/environments/:environment_id',
    {
      config: { project: 'read_environment' },
      schema: { params: EnvironmentPath, querystring: NoParams, response: { 200: Environment } },
    },
    async (request) => presentOne(request, await environments.find(request.project, request.params.environment_id)),
  );

  api.post(
    '/projects/:id/environments',
    {
      config: { project: 'create_environment', grapeParams: true },
      schema: { params: ProjectId, body: CreateBody, response: { 201: Environment } },
    },
    async (request, reply) => reply.status(201).send(presentOne(request, await environments.create(request.project, request.body))),
  );

  api.put(
    '/projects/:id/environments/:environment_id',
    {
      config: { project: 'update_environment', grapeParams: true },
      schema: { params: EnvironmentPath, body: UpdateBody, response: { 200: Environment } },
    },
    async (request) => presentOne(request, await environments.update(request.project, request.params.environment_id, request.body)),
  );

  api.delete(
    '/projects/:id/environments/:environment_id',
    {
      config: { project: 'update_environment' },
      schema: { params: EnvironmentPath, querystring: NoParams, response: { 200: Environment } },
    },
    async (request) => presentOne(request, await environments.delete(request.project, request.params.environment_id)),
  );

  // Developers stop environments (GitLab 9's `stop_environment`); answered 200 as GitLab did.
  api.post(
    '/projects/:id/environments/:environment_id/stop',
    {
      config: { project: 'create_environment' },
      schema: { params: EnvironmentPath, body: NoParams, response: { 200: Environment } },
    },
    async (request, reply) =>
      reply.status(200).send(presentOne(request, await environments.stop(request.project, request.params.environment_id))),
  );
}
