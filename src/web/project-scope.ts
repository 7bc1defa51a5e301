import type { FastifyRequest } from 'fastify';
import { can, type ProjectAbility, type ProjectStanding } from '../services/policy';
import type { Services } from '../services/index';
import type { Project } from '../services/projects/types';
import { RESERVED } from './browse-routes';
import { WebError } from './request';

export type ProjectParams = { namespace: string; project: string };

/**
 * The project of a `/:namespace/:project/…` page, found with the same call and policy as the API's:
 * a project the caller may not read, or whose feature (`ability`) they may not use, is the same
 * 404 as a missing one.
 */
export async function projectFor(
  services: Services,
  request: FastifyRequest<{ Params: ProjectParams }>,
  ability: ProjectAbility,
): Promise<{ project: Project; standing: ProjectStanding }> {
  const { namespace, project: name } = request.params;
  if (RESERVED.has(namespace.toLowerCase())) throw new WebError(404);
  const found = await services.projects.findReadable(`${namespace}/${name}`, request.web.user);
  if (!can(found.standing, ability)) throw new WebError(404);
  return found;
}

/** A positive record number from the path, or the page's 404. */
export function recordNumber(value: string): number {
  if (!/^\d{1,9}$/.test(value) || Number(value) === 0) throw new WebError(404);
  return Number(value);
}
