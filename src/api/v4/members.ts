import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { Member, presentMember } from '../shared/entities/member';
import { NameString, RecordId } from '../shared/params';
import { guardedSource, sourceGuard } from '../shared/member-source';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { SOURCE_KINDS } from '../../services/members/types';
import { accessLevelSchema } from './access-levels';
import { recordNotFound } from '../../errors';

const SourceId = Type.Object({ id: Type.String() });
const MemberPath = Type.Object({ id: Type.String(), user_id: RecordId });
const ListQuery = Type.Object({ query: Type.Optional(NameString()), page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) });
const ExpiresAt = Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()]));

/** GET/POST/PUT/DELETE /projects/:id/members and /groups/:id/members in v4: an existing member is 409, a removal 204. */
export function membersRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const members = services.members;

  for (const kind of SOURCE_KINDS) {
    // GitLab v4 validates parameters before anything else (Grape's `values:`), so an unknown level is 400 before any 403.
    const AccessLevel = accessLevelSchema(kind);
    // `/members/all` adds the members a project inherits from its group (Forge has no subgroups, so a group's are its own).
    for (const [suffix, inherited] of [
      ['', false],
      ['/all', true],
    ] as const) {
      api.get(
        `/${kind}/:id/members${suffix}`,
        {
          config: sourceGuard(kind),
          schema: { params: SourceId, querystring: ListQuery, response: { 200: Type.Array(Member) } },
        },
        async (request, reply) => {
          const source = guardedSource(members, kind, request);
          const page = pageOf(request.query);
          const result = await members.list(source, { query: request.query.query, offset: page.offset, limit: page.limit, inherited });
          setPageHeaders(request, reply, presenter.externalUrl, page, result.total);
          return result.members.map((member) => presentMember(member, presenter));
        },
      );
    }

    api.get(
      `/${kind}/:id/members/:user_id`,
      { config: sourceGuard(kind), schema: { params: MemberPath, response: { 200: Member } } },
      async (request) => presentMember(await members.get(guardedSource(members, kind, request), request.params.user_id), presenter),
    );

    api.post(
      `/${kind}/:id/members`,
      {
        config: sourceGuard(kind),
        schema: {
          params: SourceId,
          body: Type.Object({ user_id: RecordId, access_level: AccessLevel, expires_at: ExpiresAt }),
          response: { 201: Member },
        },
      },
      async (request, reply) => {
        const source = guardedSource(members, kind, request);
        const member = await members.add(source, request.user!, request.body, { existingIsConflict: true });
        return reply.status(201).send(presentMember(member, presenter));
      },
    );

    api.put(
      `/${kind}/:id/members/:user_id`,
      {
        config: sourceGuard(kind),
        schema: { params: MemberPath, body: Type.Object({ access_level: AccessLevel, expires_at: ExpiresAt }), response: { 200: Member } },
      },
      async (request) => {
        const source = guardedSource(members, kind, request);
        return presentMember(await members.update(source, request.params.user_id, request.body), presenter);
      },
    );

    api.delete(
      `/${kind}/:id/members/:user_id`,
      { config: sourceGuard(kind), schema: { params: MemberPath, response: { 204: Type.Null() } } },
      async (request, reply) => {
        const source = guardedSource(members, kind, request);
        const removed = await members.remove(source, request.user!, request.params.user_id);
        if (!removed) throw recordNotFound();
        return reply.status(204).send(null);
      },
    );
  }
}
