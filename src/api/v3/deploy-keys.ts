import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { KeyRecord, SSHKey, presentKey, presentKeyRecord } from '../shared/entities/key';
import { recordId } from '../shared/record-params';

const ProjectId = Type.Object({ id: Type.String() });
const ProjectKey = Type.Object({ id: Type.String(), key_id: Type.String() });
// Not pre-checked in 8.12: a missing title or key gets the model's validation messages (400).
const CreateDeployKey = Type.Object({ title: Type.Optional(Type.String()), key: Type.Optional(Type.String()) });

/** Deploy keys (GitLab 8.12's `deploy_keys.rb`): a project's under both `keys` and `deploy_keys`, managed by masters. */
export function deployKeysRoutes(api: Api, { services }: RouteDeps): void {
  const deployKeys = services.deployKeys;

  api.get(
    '/deploy_keys',
    {
      config: { access: 'admin' },
      schema: { response: { 200: Type.Array(SSHKey) } },
    },
    async () => (await deployKeys.listAll()).map(presentKey),
  );

  for (const path of ['keys', 'deploy_keys']) {
    api.get(
      `/projects/:id/${path}`,
      {
        config: { project: 'admin_project' },
        schema: { params: ProjectId, response: { 200: Type.Array(SSHKey) } },
      },
      async (request) => (await deployKeys.listOf(request.project.id)).map(presentKey),
    );

    api.get(
      `/projects/:id/${path}/:key_id`,
      {
        config: { project: 'admin_project' },
        schema: { params: ProjectKey, response: { 200: SSHKey } },
      },
      async (request) => presentKey(await deployKeys.findIn(request.project.id, recordId(request.params.key_id))),
    );

    api.post(
      `/projects/:id/${path}`,
      {
        config: { project: 'admin_project' },
        schema: { params: ProjectId, body: CreateDeployKey, response: { 201: SSHKey } },
      },
      async (request, reply) => reply.status(201).send(presentKey(await deployKeys.create(request.project, request.user!, request.body))),
    );

    api.post(
      `/projects/:id/${path}/:key_id/enable`,
      {
        config: { project: 'admin_project' },
        schema: { params: ProjectKey, response: { 201: SSHKey } },
      },
      async (request, reply) =>
        reply.status(201).send(presentKey(await deployKeys.enable(request.project, request.user!, recordId(request.params.key_id)))),
    );

    api.delete(
      `/projects/:id/${path}/:key_id/disable`,
      {
        config: { project: 'admin_project' },
        schema: { params: ProjectKey, response: { 200: SSHKey } },
      },
      async (request) => presentKey(await deployKeys.disable(request.project.id, recordId(request.params.key_id))),
    );

    api.delete(
      `/projects/:id/${path}/:key_id`,
      {
        config: { project: 'admin_project' },
        schema: { params: ProjectKey, response: { 200: KeyRecord } },
      },
      async (request) => presentKeyRecord(await deployKeys.remove(request.project.id, recordId(request.params.key_id))),
    );
  }
}
