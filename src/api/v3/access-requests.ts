import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { RecordId } from '../shared/params';
import { AccessRequester, Member, presentAccessRequester, presentMember } from '../shared/entities/member';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { SOURCE_KINDS } from '../../services/members/types';
import { guardedSource, sourceGuard } from '../shared/member-source';

const SourceId = Type.Object({ id: Type.String() });
const RequesterPath = Type.Object({ id: Type.String(), user_id: RecordId });

/** /projects/:id/access_requests and /groups/:id/access_requests. */
export function accessRequestsRoutes(api: Api, { services, presenter }: RouteDeps): void {
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
      {
        config: sourceGuard(kind),
        schema: { params: SourceId, response: { 201: AccessRequester } },
      },
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
          body: Type.Object({ access_level: Type.Optional(Type.Union([Type.Integer(), Type.String(), Type.Null()])) }),
          response: { 201: Member },
        },
      },
      async (request, reply) => {
        const source = guardedSource(members, kind, request);
        const member = await accessRequests.approve(source, request.params.user_id, request.body.access_level);
        return reply.status(201).send(presentMember(member, presenter));
      },
    );

    api.delete(
      `/${kind}/:id/access_requests/:user_id`,
      {
        config: sourceGuard(kind),
        schema: { params: RequesterPath, response: { 200: AccessRequester } },
      },
      async (request) => {
        const source = guardedSource(members, kind, request);
        return presentAccessRequester(await accessRequests.remove(source, request.user!, request.params.user_id), presenter);
      },
    );
  }
}
