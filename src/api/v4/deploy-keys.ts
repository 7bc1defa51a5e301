import { Type, type Static } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { SSHKey, presentKey } from '../shared/entities/key';
import { recordId } from '../shared/record-params';
import type { Key } from '../../services/users/keys';
import { PageQuery, pageOfList } from './paging';
import { validationFailed } from '../../errors';

const ProjectId = Type.Object({ id: Type.String() });
const ProjectKey = Type.Object({ id: Type.String(), key_id: Type.String() });
// Not pre-checked: a missing title or key gets the model's validation messages (400).
const CreateDeployKey = Type.Object({
  title: Type.Optional(Type.String()),
  key: Type.Optional(Type.String()),
  can_push: Type.Optional(Type.Boolean({ description: 'Forge deploy keys fetch only: true is refused' })),
});

/** v4's deploy key: `can_push` is always false, since Forge's deploy keys fetch only. */
const DeployKey = Type.Object({ ...SSHKey.properties, can_push: Type.Boolean() });
const presentDeployKey = (key: Key): Static<typeof DeployKey> => Object.assign(presentKey(key), { can_push: false });

/** Deploy keys (GitLab 11's `deploy_keys.rb`): under `deploy_keys` only; removing answers 204; no `/disable`. */
export function deployKeysRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const deployKeys = services.deployKeys;

  api.get(
    '/deploy_keys',
    { config: { access: 'admin' }, schema: { querystring: Type.Object(PageQuery), response: { 200: Type.Array(DeployKey) } } },
    async (request, reply) => pageOfList(request, reply, presenter, (await deployKeys.listAll()).map(presentDeployKey)),
  );

  api.get(
    '/projects/:id/deploy_keys',
    {
      config: { project: 'admin_project' },
      schema: { params: ProjectId, querystring: Type.Object(PageQuery), response: { 200: Type.Array(DeployKey) } },
    },
    async (request, reply) => pageOfList(request, reply, presenter, (await deployKeys.listOf(request.project.id)).map(presentDeployKey)),
  );

  api.get(
    '/projects/:id/deploy_keys/:key_id',
    { config: { project: 'admin_project' }, schema: { params: ProjectKey, response: { 200: DeployKey } } },
    async (request) => presentDeployKey(await deployKeys.findIn(request.project.id, recordId(request.params.key_id))),
  );

  api.post(
    '/projects/:id/deploy_keys',
    { config: { project: 'admin_project' }, schema: { params: ProjectId, body: CreateDeployKey, response: { 201: DeployKey } } },
    async (request, reply) => {
      const { can_push, ...attributes } = request.body;
      if (can_push === true) throw validationFailed({ can_push: ['is not supported: deploy keys fetch only'] });
      return reply.status(201).send(presentDeployKey(await deployKeys.create(request.project, request.user!, attributes)));
    },
  );

  api.post(
    '/projects/:id/deploy_keys/:key_id/enable',
    { config: { project: 'admin_project' }, schema: { params: ProjectKey, response: { 201: DeployKey } } },
    async (request, reply) =>
      reply.status(201).send(presentDeployKey(await deployKeys.enable(request.project, request.user!, recordId(request.params.key_id)))),
  );

  api.delete(
    '/projects/:id/deploy_keys/:key_id',
    { config: { project: 'admin_project' }, schema: { params: ProjectKey } },
    async (request, reply) => {
      await deployKeys.remove(request.project.id, recordId(request.params.key_id));
      return reply.status(204).send();
    },
  );
}
