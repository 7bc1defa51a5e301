import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { Variable, presentVariable } from './entities/variable';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { TextString } from '../shared/params';

const ProjectId = Type.Object({ id: Type.String() });
const VariableKey = Type.Object({ id: Type.String(), key: Type.String() });
const PageQuery = Type.Object({ page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) });
const NoParams = Type.Object({});
// GitLab 9.3's `protected` and 11.10's `masked`: booleans as Grape reads them.
const Protected = Type.Optional(Type.Boolean());
const Masked = Type.Optional(Type.Boolean());

// GitLab's `admin_build`: masters and owners.
const adminBuild = { project: 'admin_build' } as const;

/** The CI variables of a project: masters only. */
export function variablesRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const variables = services.variables;

  api.get(
    '/projects/:id/variables',
    { config: adminBuild, schema: { params: ProjectId, querystring: PageQuery, response: { 200: Type.Array(Variable) } } },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { variables: list, total } = await variables.list(request.project.id, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return list.map(presentVariable);
    },
  );

  api.get(
    '/projects/:id/variables/:key',
    { config: adminBuild, schema: { params: VariableKey, querystring: NoParams, response: { 200: Variable } } },
    async (request) => presentVariable(await variables.find(request.project.id, request.params.key)),
  );

  api.post(
    '/projects/:id/variables',
    {
      config: { ...adminBuild, grapeParams: true },
      schema: {
        params: ProjectId,
        body: Type.Object({ key: Type.String(), value: TextString(), protected: Protected, masked: Masked }),
        response: { 201: Variable },
      },
    },
    async (request, reply) => {
      const { key, value, protected: isProtected, masked } = request.body;
      const created = await variables.create(request.project.id, { key, value, protected: isProtected, masked });
      return reply.status(201).send(presentVariable(created));
    },
  );

  api.put(
    '/projects/:id/variables/:key',
    {
      config: { ...adminBuild, grapeParams: true },
      schema: {
        params: VariableKey,
        body: Type.Object({ value: TextString(), protected: Protected, masked: Masked }),
        response: { 200: Variable },
      },
    },
    async (request) => {
      const { value, protected: isProtected, masked } = request.body;
      return presentVariable(await variables.update(request.project.id, request.params.key, { value, protected: isProtected, masked }));
    },
  );

  // GitLab 9 answered the removed variable (11 answered 204).
  api.delete(
    '/projects/:id/variables/:key',
    { config: adminBuild, schema: { params: VariableKey, querystring: NoParams, response: { 200: Variable } } },
    async (request) => presentVariable(await variables.delete(request.project.id, request.params.key)),
  );
}
