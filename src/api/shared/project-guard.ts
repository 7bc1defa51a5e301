import type { FastifyInstance } from 'fastify';
import type { ProjectsService } from '../../services/projects/projects';
import type { Project } from '../../services/projects/types';
import type { ProjectAbility, ProjectStanding } from '../../services/policy';
import { routeOptionsOf } from '../../http/route-template';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The ability a `/projects/:id/…` route needs; the guard loads the project before validation. */
    project?: ProjectAbility;
  }
  interface FastifyRequest {
    /** The project of a guarded route. */
    project: Project;
    /** The caller's standing towards it, for further checks. */
    standing: ProjectStanding;
  }
}

/**
 * Every door's `/projects/:id` resolution (it knows services' project types, which `src/http` may
 * not). Declared where routes are declared: `config: { project: 'download_code' }`. In GitLab's order:
 * 401 (anonymous, by the auth hook) → 404 Project Not Found (missing or hidden) → 403 (ability)
 * → 400 (parameters, by validation afterwards).
 */
export function registerProjectGuard(app: FastifyInstance, projects: ProjectsService): void {
  app.decorateRequest('project', null as unknown as Project);
  app.decorateRequest('standing', null as unknown as ProjectStanding);
  app.addHook('preValidation', async (request) => {
    const ability = routeOptionsOf(request).config.project;
    if (!ability) return;
    const id = (request.params as { id?: string }).id ?? '';
    const { project, standing } = await projects.findReadable(id, request.user);
    projects.authorize(standing, ability);
    request.project = project;
    request.standing = standing;
  });
}
