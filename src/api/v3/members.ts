import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { AccessRevoked, Member, presentMember } from '../shared/entities/member';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { NameString, RecordId } from '../shared/params';
import { SOURCE_KINDS } from '../../services/members/types';
import { guardedSource, sourceGuard } from '../shared/member-source';

const SourceId = Type.Object({ id: Type.String() });
const MemberPath = Type.Object({ id: Type.String(), user_id: RecordId });
/**
 * Checked by the service after the permission check, as GitLab does: 403 comes before 400. Text
 * first: an integer first would coerce a blank `"  "` to 0, where 8.12's `required_attributes!`
 * saw a blank value, not given (a number is coerced to its text, which the service reads back).
 */
const Loose = Type.Optional(Type.Union([Type.String(), Type.Integer(), Type.Null()]));

/** GET/POST/PUT/DELETE /projects/:id/members and /groups/:id/members. */
export function membersRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const members = services.members;

  for (const kind of SOURCE_KINDS) {
    api.get(
      `/${kind}/:id/members`,
      {
        config: sourceGuard(kind),
        schema: {
          params: SourceId,
          querystring: Type.Object({
            query: Type.Optional(NameString()),
            page: Type.Optional(Type.Any()),
            per_page: Type.Optional(Type.Any()),
          }),
          response: { 200: Type.Array(Member) },
        },
      },
      async (request, reply) => {
        const source = guardedSource(members, kind, request);
        const page = pageOf(request.query);
        const result = await members.list(source, { query: request.query.query, offset: page.offset, limit: page.limit });
        setPageHeaders(request, reply, presenter.externalUrl, page, result.total);
        return result.members.map((member) => presentMember(member, presenter));
      },
    );

    api.get(
      `/${kind}/:id/members/:user_id`,
      {
        config: sourceGuard(kind),
        schema: { params: MemberPath, response: { 200: Member } },
      },
      async (request) => {
        const source = guardedSource(members, kind, request);
        return presentMember(await members.get(source, request.params.user_id), presenter);
      },
    );

    api.post(
      `/${kind}/:id/members`,
      {
        config: sourceGuard(kind),
        schema: {
          params: SourceId,
          body: Type.Object({ user_id: Loose, access_level: Loose, expires_at: Loose }),
          response: { 201: Member },
        },
      },
      async (request, reply) => {
        const source = guardedSource(members, kind, request);
        const member = await members.add(source, request.user!, request.body);
        return reply.status(201).send(presentMember(member, presenter));
      },
    );

    api.put(
      `/${kind}/:id/members/:user_id`,
      {
        config: sourceGuard(kind),
        schema: { params: MemberPath, body: Type.Object({ access_level: Loose, expires_at: Loose }), response: { 200: Member } },
      },
      async (request) => {
        const source = guardedSource(members, kind, request);
        return presentMember(await members.update(source, request.params.user_id, request.body), presenter);
      },
    );

    api.delete(
      `/${kind}/:id/members/:user_id`,
      {
        config: sourceGuard(kind),
        schema: { params: MemberPath, response: { 200: Type.Union([Member, AccessRevoked]) } },
      },
      async (request) => {
        const source = guardedSource(members, kind, request);
        const removed = await members.remove(source, request.user!, request.params.user_id);
        return removed ? presentMember(removed, presenter) : { message: 'Access revoked' as const, id: request.params.user_id };
      },
    );
  }
}
