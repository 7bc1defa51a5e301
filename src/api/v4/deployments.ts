import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { Deployment, presentDeployment } from './entities/deployment';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { RecordId } from '../shared/params';

const ProjectId = Type.Object({ id: Type.String() });
// A path that is not an id names no deployment (404).
const DeploymentPath = Type.Object({ id: Type.String(), deployment_id: RecordId });
const PageQuery = Type.Object({ page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) });
const NoParams = Type.Object({});

// GitLab's `read_deployment`: reporters and up; its deployments API asks a signed-in caller (`authenticate!`).
const readDeployment = { project: 'read_deployment' } as const;

/** The deployments of a project. */
export function deploymentsRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const { deployments } = services;

  api.get(
    '/projects/:id/deployments',
    { config: readDeployment, schema: { params: ProjectId, querystring: PageQuery, response: { 200: Type.Array(Deployment) } } },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { deployments: list, total } = await deployments.list(request.project, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return list.map((details) => presentDeployment(details, request.project, presenter));
    },
  );

  api.get(
    '/projects/:id/deployments/:deployment_id',
    { config: readDeployment, schema: { params: DeploymentPath, querystring: NoParams, response: { 200: Deployment } } },
    async (request) => presentDeployment(await deployments.find(request.project, request.params.deployment_id), request.project, presenter),
  );
}
