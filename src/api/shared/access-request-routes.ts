import { Type, type TSchema } from '@sinclair/typebox';
import type { Api, RouteDeps } from './types';
import { RecordId } from './params';
import { AccessRequester, Member, presentAccessRequester, presentMember } from './entities/member';
import { guardedSource, sourceGuard } from './member-source';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { SOURCE_KINDS, type SourceKind } from '../../services/members/types';

const SourceId = Type.Object({ id: Type.String() });
const RequesterPath = Type.Object({ id: Type.String(), user_id: RecordId });

/** Where the doors differ: how an approval's level is written, and what a denial answers. */
export interface AccessRequestDoor {
  accessLevel(kind: SourceKind): TSchema;
  /** v3 answers the requester who was denied; v4 answers 204. */
  denialAnswersRequester: boolean;
}

/** /projects/:id/access_requests and /groups/:id/access_requests, for either door. */
export function accessRequestRoutes(api: Api, { services, presenter }: RouteDeps, door: AccessRequestDoor): void {
  const { members, accessRequests } = services;

  for (const kind of SOURCE_KINDS) {
    api.get(
      `/${kind}/:id/access_requests`,
      {
        config: sourceGuard(kind),
        schema: {
          params: SourceId,
          querystring: Type.Object({ page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) }),
          response: { 200: Type.Array(AccessRequester) },
        },
      },
      async (request, reply) => {
        const source = guardedSource(members, kind, request);
        const page = pageOf(request.query);
        const result = await accessRequests.list(source, page);
        setPageHeaders(request, reply, presenter.externalUrl, page, result.total);
        return result.requests.map((requester) => presentAccessRequester(requester, presenter));
      },
    );

    api.post(
      `/${kind}/:id/access_requests`,
      { config: sourceGuard(kind), schema: { params: SourceId, response: { 201: AccessRequester } } },
      async (request, reply) => {
        const source = guardedSource(members, kind, request);
        return reply.status(201).send(presentAccessRequester(await accessRequests.request(source, request.user!), presenter));
      },
    );

    // Approval answers 201 with the new member.
    api.put(
      `/${kind}/:id/access_requests/:user_id/approve`,
      {
        config: sourceGuard(kind),
        schema: {
          params: RequesterPath,
          body: Type.Object({ access_level: Type.Optional(door.accessLevel(kind)) }),
          response: { 201: Member },
        },
      },
      async (request, reply) => {
        const source = guardedSource(members, kind, request);
        const level = (request.body as { access_level?: number | string | null } | undefined)?.access_level;
        const member = await accessRequests.approve(source, request.params.user_id, level);
        return reply.status(201).send(presentMember(member, presenter));
      },
    );

    api.delete(
      `/${kind}/:id/access_requests/:user_id`,
      {
        config: sourceGuard(kind),
        schema: { params: RequesterPath, response: door.denialAnswersRequester ? { 200: AccessRequester } : { 204: Type.Null() } },
      },
      async (request, reply) => {
        const source = guardedSource(members, kind, request);
        const requester = await accessRequests.remove(source, request.user!, request.params.user_id);
        return door.denialAnswersRequester ? presentAccessRequester(requester, presenter) : reply.status(204).send(null);
      },
    );
  }
}
