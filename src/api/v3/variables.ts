import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Api, RouteDeps } from './types';
import { Variable, presentVariable } from './entities/variable';
import { pageOf, setPageHeaders } from '../../http/pagination';
import type { Project } from '../../services/projects/types';

const ProjectId = Type.Object({ id: Type.String() });
const VariableKey = Type.Object({ id: Type.String(), key: Type.String() });
const PageQuery = Type.Object({ page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) });

/** Build variables of a project: masters only (GitLab's `admin_build`). */
export function variablesRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const variables = services.variables;

  // GitLab settles the project and the caller's role before it reads any parameter:
  // 401, then 404 (project hidden), then 403, then 400.
  const managed = new WeakMap<FastifyRequest, Project>();
  const preValidation = async (request: FastifyRequest) => {
    const { project, standing } = await services.projects.findReadable((request.params as { id: string }).id, request.user);
    services.projects.authorize(standing, 'admin_build');
    managed.set(request, project);
  };
  const projectIdOf = (request: FastifyRequest) => managed.get(request)!.id;

  api.get('/projects/:id/variables', {
    preValidation,
    schema: { params: ProjectId, querystring: PageQuery, response: { 200: Type.Array(Variable) } },
  }, async (request, reply) => {
    const page = pageOf(request.query);
    const { variables: list, total } = await variables.list(projectIdOf(request), page);
    setPageHeaders(request, reply, presenter.externalUrl, page, total);
    return list.map(presentVariable);
  });

  api.get('/projects/:id/variables/:key', {
    preValidation,
    schema: { params: VariableKey, querystring: Type.Object({}), response: { 200: Variable } },
  }, async (request) => presentVariable(await variables.find(projectIdOf(request), request.params.key)));

  api.post('/projects/:id/variables', {
    preValidation,
    schema: { params: ProjectId, body: Type.Object({ key: Type.String(), value: Type.String() }), response: { 201: Variable } },
  }, async (request, reply) => {
    const created = await variables.create(projectIdOf(request), { key: request.body.key, value: request.body.value });
    return reply.status(201).send(presentVariable(created));
  });

  // GitLab 8.12 left `value` optional here; the spec requires it.
  api.put('/projects/:id/variables/:key', {
    preValidation,
    schema: { params: VariableKey, body: Type.Object({ value: Type.String() }), response: { 200: Variable } },
  }, async (request) => presentVariable(await variables.update(projectIdOf(request), request.params.key, request.body.value)));

  api.delete('/projects/:id/variables/:key', {
    preValidation,
    schema: { params: VariableKey, querystring: Type.Object({}), response: { 200: Variable } },
  }, async (request) => presentVariable(await variables.delete(projectIdOf(request), request.params.key)));
}
