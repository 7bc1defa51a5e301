import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { Variable, presentVariable } from '../shared/entities/variable';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { TextString } from '../shared/params';

const ProjectId = Type.Object({ id: Type.String() });
const VariableKey = Type.Object({ id: Type.String(), key: Type.String() });
const PageQuery = Type.Object({ page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) });

/** Build variables of a project: masters only (GitLab's `admin_build`). */
export function variablesRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const variables = services.variables;

  api.get(
    '/projects/:id/variables',
    {
      config: { project: 'admin_build' },
      schema: { params: ProjectId, querystring: PageQuery, response: { 200: Type.Array(Variable) } },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { variables: list, total } = await variables.list(request.project.id, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return list.map(presentVariable);
    },
  );

  api.get(
    '/projects/:id/variables/:key',
    {
      config: { project: 'admin_build' },
      schema: { params: VariableKey, querystring: Type.Object({}), response: { 200: Variable } },
    },
    async (request) => presentVariable(await variables.find(request.project.id, request.params.key)),
  );

  api.post(
    '/projects/:id/variables',
    {
      config: { project: 'admin_build' },
      schema: { params: ProjectId, body: Type.Object({ key: Type.String(), value: TextString() }), response: { 201: Variable } },
    },
    async (request, reply) => {
      const created = await variables.create(request.project.id, { key: request.body.key, value: request.body.value });
      return reply.status(201).send(presentVariable(created));
    },
  );

  // GitLab 8.12 left `value` optional here; the spec requires it.
  api.put(
    '/projects/:id/variables/:key',
    {
      config: { project: 'admin_build' },
      schema: { params: VariableKey, body: Type.Object({ value: TextString() }), response: { 200: Variable } },
    },
    async (request) => presentVariable(await variables.update(request.project.id, request.params.key, { value: request.body.value })),
  );

  api.delete(
    '/projects/:id/variables/:key',
    {
      config: { project: 'admin_build' },
      schema: { params: VariableKey, querystring: Type.Object({}), response: { 200: Variable } },
    },
    async (request) => presentVariable(await variables.delete(request.project.id, request.params.key)),
  );
}
