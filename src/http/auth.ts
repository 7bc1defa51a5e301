import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { User } from '../services/users/users';
import type { UsersService } from '../services/users/users';
import { forbidden, notFound, unauthorized } from '../errors';
import { mergeParams } from './params';

/** Who may call a route: anyone, anyone (user resolved when given), signed-in users, administrators. */
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

/**
 * Resolves the caller from the `PRIVATE-TOKEN` header (also spelled `PRIVATE_TOKEN`)
 * or the `private_token` parameter, applies `sudo`, and enforces the route's access.
 * Runs before validation: an anonymous call is 401 whatever its parameters.
 */
export function registerAuthentication(app: FastifyInstance, users: UsersService): void {
  app.decorateRequest('user', null);
  app.addHook('preValidation', async (request, reply) => {
    const access = request.routeOptions.config.access ?? 'user';
    if (access === 'public' || request.is404) return;
    const params = safeParams(request);
    const token = header(request, 'private-token') ?? header(request, 'private_token') ?? stringParam(params.private_token);
    let user = token ? await users.findByToken(token) : undefined;
    if (user) {
      const sudo = stringParam(params.sudo) ?? header(request, 'sudo');
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

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function stringParam(value: unknown): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}

function safeParams(request: FastifyRequest): Record<string, unknown> {
  try {
    return mergeParams(request);
  } catch {
    return {};
  }
}
