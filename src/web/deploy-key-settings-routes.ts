import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services/index';
import type { Project } from '../services/projects/types';
import type { User } from '../services/users/users';
import { PAGE, pageContext, sendPage } from './request';
import { recordNumber, type ProjectParams } from './project-scope';
import { projectPath } from './paths';
import { fieldErrors } from './form-errors';
import { administeredProject, FormText } from './settings-scope';
import { type DeployKeysSettings, deployKeysPage } from './pages/settings/deploy-keys';
import { redirectWithNotice } from './flash';

const KeyBody = Type.Object({ authenticity_token: FormText(), title: FormText(255), key: FormText(20_000) });
const TokenBody = Type.Object({ authenticity_token: FormText(), _method: FormText(10) });
type KeyParams = ProjectParams & { key_id: string };

/**
 * `…/deploy_keys`: add a deploy key, enable one of the caller's other projects' keys, remove one,
 * each through `DeployKeysService` as the API's `deploy_keys` routes call it.
 */
export function deployKeySettingsRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  async function show(request: FastifyRequest, reply: FastifyReply, project: Project, user: User, typed?: DeployKeysSettings['typed']) {
    const [enabled, available] = await Promise.all([
      services.deployKeys.listOf(project.id),
      services.deployKeys.enableableOn(project.id, user),
    ]);
    const body = deployKeysPage(pageContext(request), { project, enabled, available, typed });
    return sendPage(request, reply, `Deploy keys · ${project.name}`, body, typed?.errors ? 400 : 200);
  }
  const back = (request: FastifyRequest, reply: FastifyReply, project: Project, notice: string) =>
    redirectWithNotice(request, reply, `${projectPath(project)}/deploy_keys`, notice);

  pages.get<{ Params: ProjectParams }>('/:namespace/:project/deploy_keys', { config: PAGE }, async (request, reply) => {
    const { project, user } = await administeredProject(services, request);
    return show(request, reply, project, user);
  });

  pages.post<{ Params: ProjectParams; Body: Static<typeof KeyBody> }>(
    '/:namespace/:project/deploy_keys',
    { config: PAGE, schema: { body: KeyBody } },
    async (request, reply) => {
      const { project, user } = await administeredProject(services, request);
      const { title, key } = request.body;
      try {
        await services.deployKeys.create(project, user, { title, key });
      } catch (error) {
        const errors = fieldErrors(error);
        if (!errors) throw error;
        // A key's fingerprint is the key's own trouble (unreadable, or taken): said beside the key.
        const { fingerprint, ...rest } = errors;
        const shown = fingerprint
          ? { ...rest, key: [...(rest.key ?? []), ...fingerprint.map((message) => `fingerprint ${message}`)] }
          : errors;
        return show(request, reply, project, user, { title, key, errors: shown });
      }
      return back(request, reply, project, 'Deploy key was successfully created.');
    },
  );

  pages.post<{ Params: KeyParams; Body: Static<typeof TokenBody> }>(
    '/:namespace/:project/deploy_keys/:key_id/enable',
    { config: PAGE, schema: { body: TokenBody } },
    async (request, reply) => {
      const { project, user } = await administeredProject(services, request);
      await services.deployKeys.enable(project, user, recordNumber(request.params.key_id));
      return back(request, reply, project, 'Deploy key was successfully enabled.');
    },
  );

  pages.post<{ Params: KeyParams; Body: Static<typeof TokenBody> }>(
    '/:namespace/:project/deploy_keys/:key_id',
    { config: PAGE, schema: { body: TokenBody } },
    async (request, reply) => {
      const { project } = await administeredProject(services, request);
      await services.deployKeys.remove(project.id, recordNumber(request.params.key_id));
      return back(request, reply, project, 'Deploy key was successfully removed.');
    },
  );
}
