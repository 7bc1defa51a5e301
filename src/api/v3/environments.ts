import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Api, RouteDeps } from '../shared/types';
import { Environment, presentEnvironment } from './entities/environment';
import { presentProject } from './entities/project';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { RecordId, TextString } from '../shared/params';
import type { EnvironmentRow } from '../../services/ci/types';

const ProjectId = Type.Object({ id: Type.String() });
// 8.12 declared `environment_id` an Integer; a path that is not one names no environment here (404).
const EnvironmentPath = Type.Object({ id: Type.String(), environment_id: RecordId });
const PageQuery = Type.Object({ page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) });
const NoParams = Type.Object({});
// Lengths are the service's validation (255, with GitLab's message), beside the other checks of the record.
const CreateBody = Type.Object({ name: TextString(), external_url: Type.Optional(TextString()) });
// A blank `external_url` clears it (GitLab's `nullify_external_url`); a null one is absent, as everywhere.
const UpdateBody = Type.Object({ name: Type.Optional(TextString()), external_url: Type.Optional(TextString()) });

/** The environments of a project: reporters read them, developers create them, masters change and remove them. */
export function environmentsRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const { environments, projects } = services;

  // Every environment of the answer belongs to the route's project, shown once as `Entities::Project`.
  const present = async (request: FastifyRequest, list: EnvironmentRow[]) => {
    const project = presentProject(request.project, await projects.details([request.project], request.user), presenter);
    return list.map((environment) => presentEnvironment(environment, project));
  };
  const presentOne = async (request: FastifyRequest, environment: EnvironmentRow) => (await present(request, [environment]))[0];

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

  api.post(
    '/projects/:id/environments',
    {
      // `name` is Grape-declared: a missing one is `{"error":"name is missing"}`, a blank one the record's `can't be blank`.
      config: { project: 'create_environment', grapeParams: true },
      schema: { params: ProjectId, body: CreateBody, response: { 201: Environment } },
    },
    async (request, reply) => reply.status(201).send(await presentOne(request, await environments.create(request.project, request.body))),
  );

  api.put(
    '/projects/:id/environments/:environment_id',
    {
      config: { project: 'update_environment', grapeParams: true },
      schema: { params: EnvironmentPath, body: UpdateBody, response: { 200: Environment } },
    },
    async (request) => presentOne(request, await environments.update(request.project, request.params.environment_id, request.body)),
  );

  // 8.12 asked `update_environment` here too: masters remove environments.
  api.delete(
    '/projects/:id/environments/:environment_id',
    {
      config: { project: 'update_environment' },
      schema: { params: EnvironmentPath, querystring: NoParams, response: { 200: Environment } },
    },
    async (request) => presentOne(request, await environments.delete(request.project, request.params.environment_id)),
  );
}
