import type { FastifyInstance, FastifyRequest } from 'fastify';
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
  interface FastifyContextConfig {
    access?: Access;
  }
}

/**
 * What authentication needs to know of a user. The door declares `request.user` with its own,
 * fuller type (`src/api/shared/request.ts`); this layer knows no service.
 */
export interface Principal {
  id: number;
  username: string;
  /** 1 for administrators, as stored. */
  admin: number;
}

export interface UserDirectory<User extends Principal> {
  /** The active user owning this private token; undefined for unknown tokens and blocked users. */
  findByToken(token: string): Promise<User | undefined>;
  /** The user `sudo` names, by id or username. */
  findByIdOrUsername(value: string): Promise<User | undefined>;
}

/** The user private token: the `PRIVATE-TOKEN` header (also spelled `PRIVATE_TOKEN`) or the `private_token` parameter. Blocked users are nobody. */
export function userToken<User extends Principal>(users: UserDirectory<User>): TokenStrategy<User> {
  return {
    kind: 'user',
    read: (request, params) =>
      headerValue(request, 'private-token') ?? headerValue(request, 'private_token') ?? stringParam(params.private_token),
    resolve: (token) => users.findByToken(token),
  };
}

/**
 * Resolves the caller of the consumer API, applies `sudo`, and enforces the route's access.
 * Runs before validation and before any look-up (the project guard comes after): an anonymous
 * call is 401 whatever its parameters, and whether or not the project it names exists.
 */
export function registerAuthentication<User extends Principal>(app: FastifyInstance, users: UserDirectory<User>): void {
  const strategy = userToken(users);
  app.decorateRequest('user', null);
  const setUser = (request: FastifyRequest, user: User) => ((request as unknown as { user: User }).user = user);
  app.addHook('preValidation', async (request, reply) => {
    const access = request.routeOptions.config.access ?? 'user';
    if (access === 'public' || request.is404) return;
    const params = safeParams(request);
    let user = await authenticate(strategy, request, params);
    if (user) {
      const sudo = stringParam(params.sudo) ?? headerValue(request, 'sudo');
      if (sudo !== undefined && sudo !== '') user = await applySudo(users, user, sudo);
      setUser(request, user);
      // Every line of this request, "request completed" included, names the caller (never the token).
      request.log = request.log.child({ userId: user.id });
      reply.log = request.log;
    }
    if (access === 'optional') return;
    if (!user) throw unauthorized();
    if (access === 'admin' && user.admin !== 1) throw forbidden();
  });
}

/** GitLab 8.12.0's sudo: to oneself is a no-op; to anyone else needs an administrator. */
async function applySudo<User extends Principal>(users: UserDirectory<User>, caller: User, value: string): Promise<User> {
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
