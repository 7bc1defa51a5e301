import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../errors';
import type { Services } from '../services/index';
import type { User } from '../services/users/users';
import { isActiveToken } from '../services/access-tokens/personal-access-tokens';
import { PAGE, pageContext, sendPage } from './request';
import { fieldErrors } from './form-errors';
import { recordId } from './pipeline-routes';
import { personalAccessTokensPage, type TokensForm } from './pages/profile/personal-access-tokens';

const TokenBody = Type.Object({ authenticity_token: Type.Optional(Type.String({ maxLength: 255 })) });
const CreateBody = Type.Object({
  authenticity_token: Type.Optional(Type.String({ maxLength: 255 })),
  name: Type.Optional(Type.String({ maxLength: 255 })),
  expires_at: Type.Optional(Type.String({ maxLength: 32 })),
  scopes: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Array(Type.String({ maxLength: 64 }), { maxItems: 16 })])),
});

/** How many of a user's tokens the page reads; revoked and expired ones stay stored but are not shown. */
const READ_LIMIT = 1000;

/**
 * `/profile/personal_access_tokens` (GitLab 9's page): a user makes tokens for today's clients
 * (python-gitlab, glab, an IDE) and revokes them, through the service the API's
 * `/personal_access_tokens` routes use.
 */
export function profileTokenRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  const me = (request: FastifyRequest): User => {
    if (!request.web.user) throw notFound();
    return request.web.user;
  };
  const show = async (request: FastifyRequest, reply: FastifyReply, form: Partial<TokensForm> = {}, status = 200) => {
    const user = me(request);
    const { tokens } = await services.personalAccessTokens.list({ userId: user.id, offset: 0, limit: READ_LIMIT });
    const page = personalAccessTokensPage({
      csrfToken: pageContext(request).csrfToken,
      active: tokens.filter(isActiveToken),
      admin: user.admin === 1,
      ...form,
    });
    return sendPage(request, reply, 'Personal Access Tokens', page, status);
  };

  pages.get('/profile/personal_access_tokens', { config: PAGE }, async (request, reply) => {
    if (!request.web.user) return reply.redirect(`/users/sign_in?redirect_to=${encodeURIComponent(request.url)}`, 303);
    return show(request, reply);
  });

  pages.post<{ Body: Static<typeof CreateBody> }>(
    '/profile/personal_access_tokens',
    { config: PAGE, schema: { body: CreateBody } },
    async (request, reply) => {
      const user = me(request);
      const { name = '', expires_at = '', scopes } = request.body;
      const values = { name, expires_at, scopes: [scopes ?? []].flat() };
      if (user.admin !== 1 && values.scopes.includes('sudo')) {
        return show(request, reply, { values, errors: { scopes: ['sudo is for administrators only'] } }, 400);
      }
      try {
        const created = await services.personalAccessTokens.create(user.id, values);
        // The token exists only in this answer: the page is shown here, not after a redirect.
        return show(request, reply, { created: { name: created.record.name, token: created.token } }, 201);
      } catch (error) {
        const errors = fieldErrors(error);
        if (!errors) throw error;
        return show(request, reply, { values, errors }, 400);
      }
    },
  );

  pages.post<{ Params: { id: string } }>(
    '/profile/personal_access_tokens/:id/revoke',
    { config: PAGE, schema: { body: TokenBody } },
    async (request, reply) => {
      const token = await services.personalAccessTokens.find(recordId(request.params.id));
      if (!token || token.user_id !== me(request).id || !isActiveToken(token)) throw notFound();
      await services.personalAccessTokens.revoke(token.id);
      return reply.redirect('/profile/personal_access_tokens', 303);
    },
  );
}
