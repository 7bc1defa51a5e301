import type { FastifyInstance } from 'fastify';
import type { Services } from '../services/index';
import { PAGE, pageContext, sendPage } from './request';
import type { ProjectParams } from './project-scope';
import { projectPath } from './paths';
import { recordId } from './pipeline-routes';
import { administrator } from './admin-guard';
import { administeredProject } from './settings-scope';
import { settingsFrame } from './pages/settings/frame';
import { deliveryDetails, recentDeliveries } from './pages/hook-deliveries';
import { systemHookPage } from './pages/admin/hooks';
import { adminNav } from './pages/admin/nav';
import { html } from './html';

type LogParams = ProjectParams & { hook_id: string; log_id: string };

/**
 * A hook's recorded deliveries (GitLab's "Recent deliveries" and `hook_logs/:id`): a project hook's
 * to those who administer the project, a system hook's to administrators; to anyone else a 404.
 */
export function hookDeliveryRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  pages.get<{ Params: LogParams }>('/:namespace/:project/hooks/:hook_id/hook_logs/:log_id', { config: PAGE }, async (request, reply) => {
    const { project } = await administeredProject(services, request);
    const hook = await services.projectHooks.find(project.id, request.params.hook_id);
    const log = await services.hookLogs.find(hook.id, recordId(request.params.log_id));
    const back = html`<p><a href="${projectPath(project)}/hooks/${String(hook.id)}/edit">Back to the webhook</a></p>`;
    return sendPage(request, reply, `Delivery · ${project.name}`, settingsFrame(project, 'hooks', html`${back}${deliveryDetails(log)}`));
  });

  pages.get<{ Params: { id: string } }>('/admin/hooks/:id', { config: PAGE }, async (request, reply) => {
    administrator(request);
    const hook = await services.systemHooks.get(recordId(request.params.id));
    const logs = await services.hookLogs.recent(hook.id);
    const body = systemHookPage(hook, pageContext(request).csrfToken, recentDeliveries(logs, `/admin/hooks/${hook.id}/hook_logs`));
    return sendPage(request, reply, 'System hook · Admin area', body);
  });

  pages.get<{ Params: { id: string; log_id: string } }>('/admin/hooks/:id/hook_logs/:log_id', { config: PAGE }, async (request, reply) => {
    administrator(request);
    const hook = await services.systemHooks.get(recordId(request.params.id));
    const log = await services.hookLogs.find(hook.id, recordId(request.params.log_id));
    const body = html`${adminNav('Hooks')}<p><a href="/admin/hooks/${String(hook.id)}">Back to the system hook</a></p>${deliveryDetails(log)}`;
    return sendPage(request, reply, 'Delivery · Admin area', body);
  });
}
