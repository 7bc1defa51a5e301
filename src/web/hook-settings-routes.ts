import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services/index';
import type { Project } from '../services/projects/types';
import type { ProjectHookAttributes } from '../services/hooks/project-hooks';
import type { HookFlag } from '../services/hooks/flags';
import { PAGE, pageContext, sendPage } from './request';
import type { ProjectParams } from './project-scope';
import { projectPath } from './paths';
import { fieldErrors, type FieldErrors } from './form-errors';
import { administeredProject, FormText, isDelete } from './settings-scope';
import { recentDeliveries } from './pages/hook-deliveries';
import { editHookPage, HOOK_CHOICES, type HookValues, hookValues, hooksPage, type HooksSettings } from './pages/settings/hooks';
import { redirectWithNotice } from './flash';

const Flag = FormText(10);
const HookBody = Type.Object({
  authenticity_token: FormText(),
  _method: FormText(10),
  url: FormText(2000),
  token: FormText(255),
  ...(Object.fromEntries(HOOK_CHOICES.map(([flag]) => [flag, Flag])) as Record<HookFlag, typeof Flag>),
});
type HookBody = Static<typeof HookBody>;
const TokenBody = Type.Object({ authenticity_token: FormText() });
type HookParams = ProjectParams & { hook_id: string };

/** A form's values: every flag is on the form, so one unchecked is off. */
const typedValues = (body: HookBody): HookValues => ({
  url: body.url,
  flags: Object.fromEntries(HOOK_CHOICES.map(([flag]) => [flag, body[flag] === '1'])) as Record<HookFlag, boolean>,
});

/** The service's refusals: GitLab's `Invalid url given` is about the URL field. */
function hookErrors(error: unknown): FieldErrors | undefined {
  const errors = fieldErrors(error);
  if (errors?.base?.[0] === 'Invalid url given') return { url: ['is not a valid http(s) URL'] };
  return errors;
}

/**
 * `…/hooks`: a project's webhooks, created, changed and removed through `ProjectHooksService` as
 * the API's `hooks` routes do, and a test delivery (`HookTestService`) whose answer is shown.
 */
export function hookSettingsRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  async function show(
    request: FastifyRequest,
    reply: FastifyReply,
    project: Project,
    extra: Omit<HooksSettings, 'project' | 'hooks'> = {},
    status = 200,
  ) {
    const { hooks } = await services.projectHooks.list(project.id, { offset: 0, limit: 100 });
    return sendPage(request, reply, `Webhooks · ${project.name}`, hooksPage(pageContext(request), { project, hooks, ...extra }), status);
  }
  const back = (request: FastifyRequest, reply: FastifyReply, project: Project, notice: string) =>
    redirectWithNotice(request, reply, `${projectPath(project)}/hooks`, notice);
  const attributesOf = (body: HookBody, editing: boolean): ProjectHookAttributes => {
    const { flags } = typedValues(body);
    // Left blank while editing, the stored token stays (the service keeps it when none is given).
    const token = editing && !body.token ? undefined : body.token || undefined;
    return { url: body.url ?? '', token, ...flags };
  };

  pages.get<{ Params: ProjectParams }>('/:namespace/:project/hooks', { config: PAGE }, async (request, reply) =>
    show(request, reply, (await administeredProject(services, request)).project),
  );

  pages.post<{ Params: ProjectParams; Body: HookBody }>(
    '/:namespace/:project/hooks',
    { config: PAGE, schema: { body: HookBody } },
    async (request, reply) => {
      const { project } = await administeredProject(services, request);
      try {
        await services.projectHooks.create(project.id, attributesOf(request.body, false));
      } catch (error) {
        const errors = hookErrors(error);
        if (!errors) throw error;
        return show(request, reply, project, { typed: { ...typedValues(request.body), errors } }, 400);
      }
      return back(request, reply, project, 'Hook was successfully created.');
    },
  );

  pages.get<{ Params: HookParams }>('/:namespace/:project/hooks/:hook_id/edit', { config: PAGE }, async (request, reply) => {
    const { project } = await administeredProject(services, request);
    const hook = await services.projectHooks.find(project.id, request.params.hook_id);
    const deliveries = recentDeliveries(await services.hookLogs.recent(hook.id), `${projectPath(project)}/hooks/${hook.id}/hook_logs`);
    return sendPage(
      request,
      reply,
      `Edit webhook · ${project.name}`,
      editHookPage(pageContext(request), project, hook, { values: hookValues(hook), deliveries }),
    );
  });

  pages.post<{ Params: HookParams; Body: HookBody }>(
    '/:namespace/:project/hooks/:hook_id',
    { config: PAGE, schema: { body: HookBody } },
    async (request, reply) => {
      const { project } = await administeredProject(services, request);
      const { hook_id: hookId } = request.params;
      if (isDelete(request.body)) {
        await services.projectHooks.delete(project.id, hookId);
        return back(request, reply, project, 'Hook was successfully deleted.');
      }
      const hook = await services.projectHooks.find(project.id, hookId);
      try {
        await services.projectHooks.update(project.id, hookId, attributesOf(request.body, true));
      } catch (error) {
        const errors = hookErrors(error);
        if (!errors) throw error;
        const page = editHookPage(pageContext(request), project, hook, { values: typedValues(request.body), errors });
        return sendPage(request, reply, `Edit webhook · ${project.name}`, page, 400);
      }
      return back(request, reply, project, 'Hook was successfully updated.');
    },
  );

  // GitLab 8.12 tested with a GET; a delivery is an effect, so here it is a form's POST.
  pages.post<{ Params: HookParams; Body: Static<typeof TokenBody> }>(
    '/:namespace/:project/hooks/:hook_id/test',
    { config: PAGE, schema: { body: TokenBody } },
    async (request, reply) => {
      const { project, user } = await administeredProject(services, request);
      const result = await services.hookTests.test(project, request.params.hook_id, user);
      if (result.delivered && result.status >= 200 && result.status < 300)
        return show(request, reply, project, { notice: `Hook executed successfully: HTTP ${result.status}` });
      const failure = result.delivered
        ? `Hook executed successfully but returned HTTP ${result.status}`
        : `Hook execution failed: ${result.reason}`;
      return show(request, reply, project, { failure });
    },
  );
}
