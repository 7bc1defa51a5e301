import type { FastifyRequest } from 'fastify';
import { notFound } from '../errors';
import { can, type ProjectAbility, type ProjectStanding } from '../services/policy';
import type { Services } from '../services/index';
import type { Project } from '../services/projects/types';

export interface ProjectParams {
  namespace: string;
  project: string;
}

/**
 * The project a page's path names, found as the API finds it (`findReadable`), when the caller has
 * `ability` on it. A project the caller may not see and an ability the caller lacks are the same
 * 404 as a missing project: a page never tells that something hidden exists.
 */
export async function projectFor(
  services: Services,
  request: FastifyRequest<{ Params: ProjectParams }>,
  ability: ProjectAbility,
): Promise<{ project: Project; standing: ProjectStanding }> {
  const { namespace, project: name } = request.params;
  const found = await services.projects.findReadable(`${namespace}/${name}`, request.web.user);
  if (!can(found.standing, ability)) throw notFound();
  return found;
}
