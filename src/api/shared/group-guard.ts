import type { FastifyInstance } from 'fastify';
import type { Group, GroupsService } from '../../services/groups/groups';
import type { GroupAbility, GroupStanding } from '../../services/policy';
import { routeOptionsOf } from '../../http/route-template';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The ability a `/groups/:id/…` route needs; the guard loads the group before validation. */
    group?: GroupAbility;
  }
  interface FastifyRequest {
    /** The group of a guarded route. */
    group: Group;
    /** The caller's standing towards it, for further checks. */
    groupStanding: GroupStanding;
  }
}

/**
 * Every door's `/groups/:id` resolution, the group twin of `project-guard.ts`. Declared where routes
 * are declared: `config: { group: 'admin_group' }`. `:id` is the group's id or path. In GitLab's order:
 * 401 (anonymous, by the auth hook) → 404 Group Not Found (missing or hidden) → 403 (ability)
 * → 400 (parameters, by validation afterwards).
 */
export function registerGroupGuard(app: FastifyInstance, groups: GroupsService): void {
  app.decorateRequest('group', null as unknown as Group);
  app.decorateRequest('groupStanding', null as unknown as GroupStanding);
  app.addHook('preValidation', async (request) => {
    const ability = routeOptionsOf(request).config.group;
    if (!ability) return;
    const id = (request.params as { id?: string }).id ?? '';
    const { group, standing } = await groups.findReadable(id, request.user);
    groups.authorize(standing, ability);
    request.group = group;
    request.groupStanding = standing;
  });
}
