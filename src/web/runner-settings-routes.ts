import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services/index';
import type { ProjectStanding } from '../services/policy';
import type { Project } from '../services/projects/types';
import type { User } from '../services/users/users';
import { PAGE, pageContext, sendPage } from './request';
import type { ProjectParams } from './project-scope';
import { projectPath } from './paths';
import { fieldErrors, type FieldErrors } from './form-errors';
import { administeredProject, FormText } from './settings-scope';
import { runnersPage } from './pages/settings/runners';
import { redirectWithNotice } from './flash';

const TokenBody = Type.Object({ authenticity_token: FormText(), _method: FormText(10) });
type RunnerParams = ProjectParams & { runner_id: string };
const LISTED = { offset: 0, limit: 100 };

/**
 * `…/runners`: a project's specific runners enabled and disabled (`RunnerAdminService`, as the
 * API's project runners routes), shared runners on or off (a project update), and the
 * registration token shown and reset.
 */
export function runnerSettingsRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  async function show(
    request: FastifyRequest,
    reply: FastifyReply,
    found: { project: Project; standing: ProjectStanding; user: User },
    errors?: FieldErrors,
  ) {
    const { project, user } = found;
    const [ofProject, owned] = await Promise.all([
      services.runnerAdmin.listForProject(project.id, undefined, { offset: 0, limit: 1000 }),
      services.runnerAdmin.listOwned(user, undefined, LISTED),
    ]);
    const enabled = ofProject.runners.filter((runner) => runner.is_shared === 0);
    const enabledIds = new Set(enabled.map((runner) => runner.id));
    const body = runnersPage(pageContext(request), {
      project,
      registrationToken: services.projects.runnersToken(project),
      enabled,
      available: owned.runners.filter((runner) => !enabledIds.has(runner.id) && runner.locked === 0),
      sharedCount: ofProject.runners.length - enabled.length,
      errors,
    });
    return sendPage(request, reply, `Runners · ${project.name}`, body, errors ? 400 : 200);
  }
  /** A refusal of the runner services (locked, shared, already enabled) shown on the page. */
  async function attempt(
    request: FastifyRequest<{ Params: ProjectParams }>,
    reply: FastifyReply,
    change: (found: Awaited<ReturnType<typeof administeredProject>>) => Promise<unknown>,
  ) {
    const found = await administeredProject(services, request);
    try {
      await change(found);
    } catch (error) {
      const errors = fieldErrors(error);
      if (!errors) throw error;
      return show(request, reply, found, errors);
    }
    return redirectWithNotice(request, reply, `${projectPath(found.project)}/runners`, 'Runners were successfully updated.');
  }

  pages.get<{ Params: ProjectParams }>('/:namespace/:project/runners', { config: PAGE }, async (request, reply) =>
    show(request, reply, await administeredProject(services, request)),
  );

  pages.post<{ Params: RunnerParams; Body: Static<typeof TokenBody> }>(
    '/:namespace/:project/runners/:runner_id/enable',
    { config: PAGE, schema: { body: TokenBody } },
    (request, reply) =>
      attempt(request, reply, ({ project, user }) => services.runnerAdmin.enable(user, project.id, request.params.runner_id)),
  );

  pages.post<{ Params: RunnerParams; Body: Static<typeof TokenBody> }>(
    '/:namespace/:project/runners/:runner_id',
    { config: PAGE, schema: { body: TokenBody } },
    (request, reply) => attempt(request, reply, ({ project }) => services.runnerAdmin.disable(project.id, request.params.runner_id)),
  );

  pages.post<{ Params: ProjectParams; Body: Static<typeof TokenBody> }>(
    '/:namespace/:project/runners/shared',
    { config: PAGE, schema: { body: TokenBody } },
    (request, reply) =>
      attempt(request, reply, ({ project, standing, user }) =>
        services.projects.update(project, standing, user, { shared_runners_enabled: project.shared_runners_enabled !== 1 }),
      ),
  );

  pages.post<{ Params: ProjectParams; Body: Static<typeof TokenBody> }>(
    '/:namespace/:project/runners_token/reset',
    { config: PAGE, schema: { body: TokenBody } },
    (request, reply) => attempt(request, reply, ({ project, standing }) => services.projects.resetRunnersToken(project, standing)),
  );
}
