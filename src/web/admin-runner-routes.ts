import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors';
import type { Services } from '../services/index';
import { PAGE, pageContext, sendPage } from './request';
import { pageNumber } from './pages/pager';
import { ADMIN_PER_PAGE, adminWindow, administrator, TokenBody } from './admin-guard';
import { adminRunnerPage, adminRunnersPage } from './pages/admin/runners';
import { redirectWithNotice } from './flash';

const PageQuery = Type.Object({ page: Type.Optional(Type.String({ maxLength: 10 })) });
const AssignBody = Type.Object({
  authenticity_token: Type.Optional(Type.String({ maxLength: 255 })),
  project: Type.Optional(Type.String({ maxLength: 1024 })),
});
type RunnerParams = { Params: { id: string } };

/** What a refusal from the runners service says, without its status prefix (`403 Forbidden - Runner is locked`). */
function refusalOf(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || ![400, 403, 404, 409].includes(error.status)) return undefined;
  const message = (error.body as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message.replace(/^\d{3} [A-Za-z ]*(- )?/, '') || message : 'The runner could not be assigned.';
}

/**
 * The administration of runners (GitLab 8.12's `/admin/runners`): every runner with pause, resume and
 * removal, the shared registration token, and a runner's page that assigns it to a project. Each
 * write is the runners service call `PUT /runners/:id`, `DELETE /runners/:id` and `POST /projects/:id/runners` make.
 */
export function adminRunnerRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  const runners = services.runnerAdmin;

  pages.get<{ Querystring: typeof PageQuery.static }>(
    '/admin/runners',
    { config: PAGE, schema: { querystring: PageQuery } },
    async (request, reply) => {
      administrator(request);
      const page = pageNumber(request.query.page);
      const [{ runners: items, total }, settings] = await Promise.all([
        runners.listAll(undefined, adminWindow(page)),
        services.settings.get(),
      ]);
      const body = adminRunnersPage(
        { items, page, perPage: ADMIN_PER_PAGE, total },
        settings.runners_registration_token,
        pageContext(request).csrfToken,
      );
      return sendPage(request, reply, 'Runners · Admin area', body);
    },
  );

  const showRunner = async (
    request: FastifyRequest<RunnerParams>,
    reply: FastifyReply,
    form: { projectPath?: string; error?: string } = {},
  ) => {
    const details = await runners.details(administrator(request), request.params.id);
    const page = adminRunnerPage(details, { csrfToken: pageContext(request).csrfToken, ...form });
    return sendPage(request, reply, `Runner #${details.runner.id} · Admin area`, page, form.error ? 400 : 200);
  };

  pages.get<RunnerParams>('/admin/runners/:id', { config: PAGE }, async (request, reply) => showRunner(request, reply));

  for (const [action, active] of [
    ['pause', false],
    ['resume', true],
  ] as const) {
    pages.post<RunnerParams>(`/admin/runners/:id/${action}`, { config: PAGE, schema: { body: TokenBody } }, async (request, reply) => {
      await runners.update(administrator(request), request.params.id, { active });
      return redirectWithNotice(request, reply, '/admin/runners', 'Runner was successfully updated.');
    });
  }

  pages.post<RunnerParams>('/admin/runners/:id/delete', { config: PAGE, schema: { body: TokenBody } }, async (request, reply) => {
    await runners.remove(administrator(request), request.params.id);
    return redirectWithNotice(request, reply, '/admin/runners', 'Runner was successfully deleted.');
  });

  pages.post<RunnerParams & { Body: typeof AssignBody.static }>(
    '/admin/runners/:id/projects',
    { config: PAGE, schema: { body: AssignBody } },
    async (request, reply) => {
      const admin = administrator(request);
      const path = (request.body.project ?? '').trim().replace(/^\/+|\/+$/g, '');
      const project = path.includes('/') ? await services.projects.find(path) : undefined;
      if (!project) return showRunner(request, reply, { projectPath: path, error: 'No project has this path.' });
      try {
        await runners.enable(admin, project.id, request.params.id);
      } catch (error) {
        const message = refusalOf(error);
        if (message === undefined) throw error;
        return showRunner(request, reply, { projectPath: path, error: message });
      }
      return redirectWithNotice(request, reply, `/admin/runners/${request.params.id}`, 'Runner was successfully updated.');
    },
  );

  pages.post('/admin/application_settings/reset_runners_token', { config: PAGE, schema: { body: TokenBody } }, async (request, reply) => {
    administrator(request);
    await services.settings.resetRunnersToken();
    return redirectWithNotice(request, reply, '/admin/runners', 'New runners registration token has been generated!');
  });
}
