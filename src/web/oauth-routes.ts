import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../errors';
import type { Services } from '../services/index';
import type { AuthorizationRequest } from '../services/access-tokens/oauth';
import { PAGE, WebError, pageContext, sendPage } from './request';
import { consentPage } from './pages/oauth/authorize';

const Field = Type.Optional(Type.String({ maxLength: 2048 }));
const AuthorizeQuery = Type.Object({ client_id: Field, redirect_uri: Field, response_type: Field, scope: Field, state: Field });
const AuthorizeBody = Type.Object({
  authenticity_token: Type.Optional(Type.String({ maxLength: 255 })),
  client_id: Field,
  redirect_uri: Field,
  response_type: Field,
  scope: Field,
  state: Field,
  decision: Type.Optional(Type.Union([Type.Literal('approve'), Type.Literal('deny')])),
});
type AuthorizeFields = Static<typeof AuthorizeQuery>;

const asRequest = (fields: AuthorizeFields): AuthorizationRequest => ({
  clientId: fields.client_id,
  redirectUri: fields.redirect_uri,
  responseType: fields.response_type,
  scope: fields.scope,
});

/**
 * The consent page of GitLab's OAuth2 provider, where a browser sent to `GET /oauth/authorize` by
 * a client (glab, an IDE, a CI tool) lands: it signs the user in, says which application asks for
 * which scopes, and sends the browser back to the registered redirect URI with a code (or
 * `error=access_denied`). A request naming an unknown client or another redirect URI is an error
 * page here, never a redirect: only a registered URI is ever followed.
 */
export function oauthRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  const check = async (fields: AuthorizeFields) => {
    try {
      return await services.oauth.checkAuthorization(asRequest(fields));
    } catch (error) {
      if (error instanceof ApiError) throw new WebError(error.status === 401 ? 400 : error.status, describe(error));
      throw error;
    }
  };

  pages.get<{ Querystring: AuthorizeFields }>(
    '/oauth/authorize/confirm',
    { config: PAGE, schema: { querystring: AuthorizeQuery } },
    async (request, reply) => {
      const user = request.web.user;
      if (!user) return reply.redirect(`/users/sign_in?redirect_to=${encodeURIComponent(request.url)}`, 303);
      const checked = await check(request.query);
      const owner = checked.application.owner_id === null ? undefined : await services.users.findById(checked.application.owner_id);
      const fields = Object.fromEntries(Object.entries(request.query).filter(([, value]) => value !== undefined)) as Record<string, string>;
      const page = consentPage({
        csrfToken: pageContext(request).csrfToken,
        checked,
        fields,
        ownerName: owner && `${owner.name} (@${owner.username})`,
      });
      return sendPage(request, reply, 'Authorize application', page);
    },
  );

  pages.post<{ Body: Static<typeof AuthorizeBody> }>(
    '/oauth/authorize/confirm',
    { config: PAGE, schema: { body: AuthorizeBody } },
    async (request, reply) => {
      const user = request.web.user;
      if (!user) throw new WebError(404);
      const { decision, state, authenticity_token: _token, ...fields } = request.body;
      const checked = await check(fields);
      if (decision !== 'approve')
        return redirectBack(reply, checked.redirectUri, { error: 'access_denied', error_description: DENIED, state });
      const grant = await services.oauth.authorize(user, asRequest(fields));
      return redirectBack(reply, grant.redirectUri, { code: grant.code, state });
    },
  );
}

const DENIED = 'The resource owner or authorization server denied the request.';

function redirectBack(reply: FastifyReply, uri: string, params: Record<string, string | undefined>) {
  const target = new URL(uri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) target.searchParams.set(name, value);
  return reply.redirect(target.toString(), 302);
}

function describe(error: ApiError): string {
  const body = error.body as { error_description?: unknown } | undefined;
  return typeof body?.error_description === 'string' ? body.error_description : 'The authorization request is not valid.';
}
