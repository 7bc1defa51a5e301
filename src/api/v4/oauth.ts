import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Api, RouteDeps } from '../shared/types';
import { LIMITS } from '../../lib/limits';
import { bearerToken } from '../../http/auth';
import { oauthError } from '../../errors';
import type { ClientCredentials } from '../../services/access-tokens/oauth';

const Param = Type.Optional(Type.String({ maxLength: LIMITS.name }));

const TokenRequest = Type.Object({
  grant_type: Param,
  username: Param,
  password: Param,
  scope: Param,
  code: Param,
  redirect_uri: Type.Optional(Type.String({ maxLength: LIMITS.text })),
  refresh_token: Param,
  client_id: Param,
  client_secret: Param,
});

const TokenResponse = Type.Object({
  access_token: Type.String(),
  token_type: Type.String(),
  refresh_token: Type.String(),
  scope: Type.String(),
  created_at: Type.Integer(),
  expires_in: Type.Integer(),
});

const TokenInfo = Type.Object({
  resource_owner_id: Type.Integer(),
  scope: Type.Array(Type.String()),
  scopes: Type.Array(Type.String()),
  expires_in_seconds: Type.Integer(),
  application: Type.Union([Type.Object({ uid: Type.String() }), Type.Null()]),
  created_at: Type.Integer(),
});

const unsupportedGrant = () =>
  oauthError(400, 'unsupported_grant_type', 'The authorization grant type is not supported by the authorization server.');

/** The client of a token request: `client_id`/`client_secret` in the body, or HTTP Basic (RFC 6749 §2.3.1). */
function clientCredentials(request: FastifyRequest, body: { client_id?: string; client_secret?: string }): ClientCredentials {
  const match = /^Basic\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  if (match) {
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0)
      return { clientId: decodeURIComponent(decoded.slice(0, colon)), clientSecret: decodeURIComponent(decoded.slice(colon + 1)) };
  }
  return { clientId: body.client_id || undefined, clientSecret: body.client_secret };
}

/**
 * GitLab's OAuth2 provider (Doorkeeper) at the server's root, `/oauth/…`, where clients look for
 * it: registered from `app.ts` in the v4 scope (so it is in v4's OpenAPI document) with the prefix
 * `/oauth`. The token endpoint serves the password, authorization-code and refresh grants; access
 * tokens are then sent as `Authorization: Bearer`.
 *
 * `GET /oauth/authorize`: a caller the API knows (its private token, a personal access token with
 * `api`, …) authorizes directly and is redirected to the application's `redirect_uri` with `code`
 * and `state`; anyone else, a browser, is sent to the web door's consent page
 * (`/oauth/authorize/confirm`, the same query), which signs them in first and asks them.
 */
export function oauthRoutes(api: Api, { services }: RouteDeps): void {
  const oauth = services.oauth;
  // As in /api/v4: parameters only, and GitLab's exact `application/json`.
  api.addHook('onRoute', (route) => {
    route.bodyLimit = Math.min(route.bodyLimit ?? LIMITS.apiBodyBytes, LIMITS.apiBodyBytes);
  });
  api.addHook('onSend', async (_request, reply, payload) => {
    if (reply.getHeader('content-type') === 'application/json; charset=utf-8') reply.header('content-type', 'application/json');
    return payload;
  });

  api.post(
    '/token',
    { config: { access: 'public' }, schema: { body: TokenRequest, response: { 200: TokenResponse } } },
    async (request, reply) => {
      const body = request.body ?? {};
      const client = clientCredentials(request, body);
      // RFC 6749 §5.1: token answers are never cached.
      reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' });
      switch (body.grant_type) {
        case 'password':
          return oauth.passwordGrant(body.username, body.password, body.scope, client);
        case 'authorization_code':
          return oauth.codeGrant(body.code, body.redirect_uri, client);
        case 'refresh_token':
          return oauth.refreshGrant(body.refresh_token, client);
        default:
          throw unsupportedGrant();
      }
    },
  );

  api.get(
    '/authorize',
    {
      config: { access: 'optional' },
      schema: {
        querystring: Type.Object({
          client_id: Param,
          redirect_uri: Type.Optional(Type.String({ maxLength: LIMITS.text })),
          response_type: Param,
          scope: Param,
          state: Type.Optional(Type.String({ maxLength: LIMITS.text })),
        }),
      },
    },
    async (request, reply) => {
      const { client_id, redirect_uri, response_type, scope, state } = request.query;
      if (!request.user) {
        const query = request.url.indexOf('?');
        return reply.redirect(`/oauth/authorize/confirm${query < 0 ? '' : request.url.slice(query)}`, 302);
      }
      const grant = await oauth.authorize(request.user, {
        clientId: client_id,
        redirectUri: redirect_uri,
        responseType: response_type,
        scope,
      });
      const target = new URL(grant.redirectUri);
      target.searchParams.set('code', grant.code);
      if (state !== undefined) target.searchParams.set('state', state);
      return reply.redirect(target.toString(), 302);
    },
  );

  api.get('/token/info', { config: { access: 'public' }, schema: { response: { 200: TokenInfo } } }, async (request) => {
    const token = bearerToken(request, request.query as Record<string, unknown>);
    const info = token ? await oauth.tokenInfo(token) : undefined;
    if (!info) throw oauthError(401, 'invalid_token', 'The access token is invalid');
    const scopes = JSON.parse(info.record.scopes) as string[];
    return {
      resource_owner_id: info.record.user_id,
      scope: scopes,
      scopes,
      expires_in_seconds: Math.max(0, Math.floor((Date.parse(info.record.expires_at) - Date.now()) / 1000)),
      application: info.application ? { uid: info.application.uid } : null,
      created_at: Math.floor(Date.parse(info.record.created_at) / 1000),
    };
  });

  api.post(
    '/revoke',
    {
      config: { access: 'public' },
      schema: {
        body: Type.Object({ token: Type.String({ maxLength: LIMITS.name }), client_id: Param, client_secret: Param }),
        response: { 200: Type.Object({}) },
      },
    },
    async (request) => {
      await oauth.revoke(request.body.token, clientCredentials(request, request.body));
      return {};
    },
  );
}
