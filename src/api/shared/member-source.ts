import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import type { MembersService } from '../../services/members/members';
import type { MemberSource, SourceKind } from '../../services/members/types';

/**
 * `/projects/:id/…` and `/groups/:id/…` members and access requests: the guard the route declares
 * (any reader of the project or group gets past it; who may change what is the service's question).
 */
export const sourceGuard = (kind: SourceKind): FastifyContextConfig =>
  kind === 'projects' ? { project: 'read_project' } : { group: 'read_group' };

/** The project or group the route's guard loaded, as a membership source. */
export function guardedSource(members: MembersService, kind: SourceKind, request: FastifyRequest): MemberSource {
  return kind === 'projects'
    ? members.projectSource(request.project, request.standing)
    : members.groupSource(request.group, request.groupStanding);
}
