import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, insufficientScope, invalidToken, notFound, unauthorized } from '../errors';
import { missingScope } from './scopes';
import { mergeParams } from './params';
import { authenticate, headerValue, stringParam, type TokenStrategy } from './tokens';
import { routeOptionsOf } from './route-template';

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
    /** The route also takes a running job's token (`JOB-TOKEN` header or `job_token`), acting as the job's user. */
    jobToken?: boolean;
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

/**
 * What a scoped token (personal access token, OAuth2 access token) comes to: its owner with the
 * token's scopes, a refusal to tell the caller about, or undefined for no such token.
 */
export type ScopedTokenLookup<User> = { user: User; scopes: readonly string[] } | { refused: 'revoked' | 'expired' } | undefined;

export interface UserDirectory<User extends Principal> {
  /** The active user owning this private token; undefined for unknown tokens and blocked users. */
  findByToken(token: string): Promise<User | undefined>;
  /** The user `sudo` names, by id or username. */
  findByIdOrUsername(value: string): Promise<User | undefined>;
  /** The owner and scopes of a personal access token or an OAuth2 access token. */
  findByScopedToken(token: string): Promise<ScopedTokenLookup<User>>;
  /** The active user a running job runs for, by the job's token; undefined once the job finished. */
  findByJobToken(token: string): Promise<User | undefined>;
}

/**
 * What a job token may do beyond the routes that take it: read only, never `sudo` (GitLab's job
 * token authenticates only where a route allows it, and grants no more).
 */
const JOB_TOKEN_SCOPES: readonly string[] = ['read_api'];

/** The caller a request's credentials name; `scopes` is undefined for the private token, which may do everything. */
interface Caller<User> {
  user: User;
  scopes: readonly string[] | undefined;
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

/** OAuth2's bearer token (RFC 6750): the `Authorization: Bearer` header or the `access_token` parameter. */
export function bearerToken(request: FastifyRequest, params: Record<string, unknown>): string | undefined {
  const header = headerValue(request, 'authorization');
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : stringParam(params.access_token);
}

/**
 * The caller of a request: a private token (as GitLab, a personal access token is accepted where a
 * private token is), else a bearer token. A revoked or expired scoped token is answered 401 with
 * the reason, even where a token is optional; an unknown one counts as none.
 */
async function resolveCaller<User extends Principal>(
  users: UserDirectory<User>,
  strategy: TokenStrategy<User>,
  request: FastifyRequest,
  params: Record<string, unknown>,
): Promise<Caller<User> | undefined> {
  if (routeOptionsOf(request).config.jobToken) {
    const jobToken = headerValue(request, 'job-token') ?? stringParam(params.job_token);
    if (jobToken !== undefined && jobToken !== '') {
      const user = await users.findByJobToken(jobToken);
      if (!user) throw unauthorized();
      return { user, scopes: JOB_TOKEN_SCOPES };
    }
  }
  const privateToken = strategy.read(request, params);
  let scoped: ScopedTokenLookup<User>;
  if (privateToken !== undefined && privateToken !== '') {
    const user = await authenticate(strategy, request, params);
    if (user) return { user, scopes: undefined };
    scoped = await users.findByScopedToken(privateToken);
  } else {
    const bearer = bearerToken(request, params);
    if (bearer === undefined || bearer === '') return undefined;
    scoped = await users.findByScopedToken(bearer);
  }
  if (scoped === undefined) return undefined;
  if ('refused' in scoped) throw invalidToken(scoped.refused);
  return { user: scoped.user, scopes: scoped.scopes };
}

/**
 * Resolves the caller of the consumer API, checks a scoped token's scopes, applies `sudo`, and
 * enforces the route's access. Runs before validation and before any look-up (the project guard
 * comes after): an anonymous call is 401 whatever its parameters, and whether or not the project
 * it names exists.
 */
export function registerAuthentication<User extends Principal>(app: FastifyInstance, users: UserDirectory<User>): void {
  const strategy = userToken(users);
  app.decorateRequest('user', null);
  const setUser = (request: FastifyRequest, user: User) => ((request as unknown as { user: User }).user = user);
  app.addHook('preValidation', async (request, reply) => {
    const access = routeOptionsOf(request).config.access ?? 'user';
    if (access === 'public' || request.is404) return;
    const params = safeParams(request);
    const caller = await resolveCaller(users, strategy, request, params);
    let user = caller?.user;
    if (caller && user) {
      const sudo = stringParam(params.sudo) ?? headerValue(request, 'sudo');
      const sudoGiven = sudo !== undefined && sudo !== '';
      if (caller.scopes) {
        const missing = missingScope(caller.scopes, request.method, routeOptionsOf(request).url ?? '', sudoGiven);
        if (missing !== undefined) throw insufficientScope(missing);
      }
      if (sudoGiven) user = await applySudo(users, user, sudo);
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
