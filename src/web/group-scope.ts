import type { FastifyRequest } from 'fastify';
import type { Services } from '../services/index';
import type { Group } from '../services/groups/groups';
import { canOnGroup, type GroupStanding } from '../services/policy';
import type { User } from '../services/users/users';
import { WebError } from './request';

export type GroupParams = { path: string };

/** The group of a `/groups/:path/…` page, found as the API's guard finds it: one the caller may not read is the same 404 as a missing one. */
export function readableGroup(
  services: Services,
  request: FastifyRequest<{ Params: GroupParams }>,
): Promise<{ group: Group; standing: GroupStanding }> {
  return services.groups.findReadable(request.params.path, request.web.user);
}

/**
 * The group of a settings page or a member change: only its owners and administrators (the API's
 * `admin_group`) find it; anyone else, even one who reads the group, gets the 404 of a missing
 * page, as a project's settings answer those who may not administer it.
 */
export async function ownedGroup(
  services: Services,
  request: FastifyRequest<{ Params: GroupParams }>,
): Promise<{ group: Group; standing: GroupStanding; user: User }> {
  const user = request.web.user;
  if (!user) throw new WebError(404);
  const found = await readableGroup(services, request);
  if (!canOnGroup(found.standing, 'admin_group')) throw new WebError(404);
  return { ...found, user };
}

/** A group's page, as GitLab's `web_url` names it. */
export const groupPath = (group: Group): string => `/groups/${encodeURIComponent(group.path)}`;
