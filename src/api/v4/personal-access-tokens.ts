import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { NameString, RecordId, filterId } from '../shared/params';
import { forbidden, notFound } from '../../errors';
import { TOKEN_SCOPES } from '../../services/access-tokens/scopes';
import type { User } from '../../services/users/users';
import { mayManageEveryToken, mayManageTokensOf } from '../../services/policy';
import { PersonalAccessToken, PersonalAccessTokenWithToken, presentPersonalAccessToken } from './entities/personal-access-token';
import { PageQuery } from './paging';
import { pageOf, setPageHeaders } from '../../http/pagination';
import type { FastifyReply, FastifyRequest } from 'fastify';

const CreateToken = Type.Object({
  name: NameString(),
  scopes: Type.Array(NameString(), { description: TOKEN_SCOPES.join(', ') }),
  expires_at: Type.Optional(NameString({ description: 'YYYY-MM-DD: the token stops working on that day (UTC)' })),
});

/**
 * Personal access tokens as GitLab's API has them: administrators create them for any user
 * (`POST /users/:user_id/personal_access_tokens`, GitLab 13.6; GitLab's users make their own on a
 * web page, which Forge does not have yet); everyone lists and revokes their own, administrators
 * anybody's (`/personal_access_tokens`, GitLab 13.3).
 */
export function personalAccessTokensRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const tokens = services.personalAccessTokens;

  /** A token the caller may see: their own, or any for an administrator; else not found. */
  const visibleToken = async (caller: User, id: number) => {
    const token = await tokens.find(id);
    if (!token || !mayManageTokensOf(caller, token.user_id)) throw notFound('Personal Access Token');
    return token;
  };

  const listPage = async (request: FastifyRequest, reply: FastifyReply, userId: number | undefined) => {
    const page = pageOf(request.query as Record<string, unknown>);
    const result = await tokens.list({ userId, offset: page.offset, limit: page.limit });
    setPageHeaders(request, reply, presenter.externalUrl, page, result.total);
    return result.tokens.map(presentPersonalAccessToken);
  };

  api.post(
    '/users/:user_id/personal_access_tokens',
    {
      config: { access: 'admin' },
      schema: { params: Type.Object({ user_id: RecordId }), body: CreateToken, response: { 201: PersonalAccessTokenWithToken } },
    },
    async (request, reply) => {
      const { record, token } = await tokens.create(request.params.user_id, request.body);
      return reply.status(201).send({ ...presentPersonalAccessToken(record), token });
    },
  );

  api.get(
    '/users/:user_id/personal_access_tokens',
    {
      schema: {
        params: Type.Object({ user_id: RecordId }),
        querystring: Type.Object(PageQuery),
        response: { 200: Type.Array(PersonalAccessToken) },
      },
    },
    async (request, reply) => {
      const caller = request.user!;
      if (!mayManageTokensOf(caller, request.params.user_id)) throw forbidden();
      if (!(await services.users.findById(request.params.user_id))) throw notFound('User');
      return listPage(request, reply, request.params.user_id);
    },
  );

  api.get(
    '/personal_access_tokens',
    {
      schema: {
        querystring: Type.Object({ user_id: Type.Optional(Type.Any({ description: 'administrators: one user’s tokens' })), ...PageQuery }),
        response: { 200: Type.Array(PersonalAccessToken) },
      },
    },
    async (request, reply) => {
      const caller = request.user!;
      const userId = filterId(request.query.user_id);
      if (userId !== undefined && !mayManageTokensOf(caller, userId)) throw forbidden();
      return listPage(request, reply, mayManageEveryToken(caller) ? userId : caller.id);
    },
  );

  api.get(
    '/personal_access_tokens/:id',
    { schema: { params: Type.Object({ id: RecordId }), response: { 200: PersonalAccessToken } } },
    async (request) => presentPersonalAccessToken(await visibleToken(request.user!, request.params.id)),
  );

  api.delete('/personal_access_tokens/:id', { schema: { params: Type.Object({ id: RecordId }) } }, async (request, reply) => {
    const token = await visibleToken(request.user!, request.params.id);
    await tokens.revoke(token.id);
    return reply.status(204).send();
  });
}
