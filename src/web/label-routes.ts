import type { FastifyInstance } from 'fastify';
import type { Services } from '../services/index';
import { can } from '../services/policy';
import { PAGE, sendPage } from './request';
import { projectFor, type ProjectParams } from './project-scope';
import { projectPath } from './paths';
import { labelListPage } from './pages/labels/list';

/** `…/labels`: the project's labels with the counts the caller may see (the API's `LabelsService.list`). */
export function labelRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  pages.get<{ Params: ProjectParams }>('/:namespace/:project/labels', { config: PAGE }, async (request, reply) => {
    const { project, standing } = await projectFor(services, request, 'read_label');
    const labels = await services.labels.list(project.id, standing);
    const body = labelListPage({ projectPath: projectPath(project), labels, mergeRequests: can(standing, 'read_merge_request') });
    return sendPage(request, reply, `Labels · ${project.name}`, body);
  });
}
