import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { User } from '../services/users/users';
import type { UsersService } from '../services/users/users';
import { forbidden, notFound, unauthorized } from '../errors';
import { mergeParams } from './params';
import { authenticate, headerValue, stringParam, type TokenStrategy } from './tokens';

/**
 * Who may call a consumer API route. Every row of the API needs a signed-in user unless stated:
 * `public` routes are open to anyone (session, templates, health, the OpenAPI document);
 * `optional` reads a token when given but never refuses (`GET /licenses/:key` fills the copyright
 * holder with it); `admin` needs an administrator.
 */
export type Access = 'public' | 'optional' | 'user' | 'admin';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller after `sudo`, or null for anonymous callers. */
    user: User | null;
  }
  interface FastifyContextConfig {
    access?: Access;
  }
}

/** The user private token: the `PRIVATE-TOKEN` header (also spelled `PRIVATE_TOKEN`) or the `private_token` parameter. Blocked users are nobody. */
export function userToken(users: UsersService): TokenStrategy<User> {
  return {
    kind: 'user',
    read: (request, params) => headerValue(request, 'private-token') ?? headerValue(request, 'private_token') ?? stringParam(params.private_token),
    resolve: (token) => users.findByToken(token),
  };
}

/**
 * Resolves the caller of the consumer API, applies `sudo`, and enforces the route's access.
 * Runs before validation and before any look-up (the project guard comes after): an anonymous
 * call is 401 whatever its parameters, and whether or not the project it names exists.
 */
export function registerAuthentication(app: FastifyInstance, users: UsersService): void {
  const strategy = userToken(users);
  app.decorateRequest('user', null);
  app.addHook('preValidation', async (request, reply) => {
    const access = request.routeOptions.config.access ?? 'user';
    if (access === 'public' || request.is404) return;
    const params = safeParams(request);
    let user = await authenticate(strategy, request, params);
    if (user) {
      const sudo = stringParam(params.sudo) ?? headerValue(request, 'sudo');
      if (sudo !== undefined && sudo !== '') user = await applySudo(users, user, sudo);
      request.user = user;
      // Every line of this request, "request completed" included, names the caller (never the token).
      request.log = request.log.child({ userId: user.id });
      reply.log = request.log;
    }
    if (access === 'optional') return;
    if (!request.user) throw unauthorized();
    if (access === 'admin' && request.user.admin !== 1) throw forbidden();
  });
}

/** GitLab 8.12.0's sudo: to oneself is a no-op; to anyone else needs an administrator. */
async function applySudo(users: UsersService, caller: User, value: string): Promise<User> {
  if (value === String(caller.id) || value.toLowerCase() === caller.username.toLowerCase()) return caller;
  if (caller.admin !== 1) throw forbidden('Must be admin to use sudo');
  const target = await users.findByIdOrUsername(value);
  if (!target) throw notFound(`No user id or username for: ${value}`);
  return target;
}

function safeParams(request: FastifyRequest): Record<string, unknown> {
  try {
    return mergeParams(request);
  } catch {
    return {};
  }
}
