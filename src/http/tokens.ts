import type { FastifyRequest } from 'fastify';

/**
 * One kind of token a door accepts, resolved the same way for every kind: read from where that
 * door's clients send it, then looked up by its digest (the database holds digests only, so the
 * look-up reveals nothing about a token; stores compare in constant time where they compare).
 *
 * The consumer API accepts the user private token (`userToken` in auth.ts) and, where it is not
 * one, a personal access token or an OAuth2 token (also as `Authorization: Bearer`), whose scopes
 * `scopes.ts` checks. The runner API (`/ci/api/v1`, `src/api/ci/tokens.ts`) adds a runner token strategy (the `token` parameter,
 * `ci_runners.token_digest`) and a build credential (the `token` parameter or `BUILD-TOKEN` header,
 * checked against the build of the path) and authenticates its routes through `authenticate`
 * below, so no door grows its own token handling.
 */
export interface TokenStrategy<Principal> {
  /** Names the kind of caller (`user`, `runner`, `build`) in log lines. */
  kind: string;
  /** The token as sent with this request, or undefined when none is. */
  read(request: FastifyRequest, params: Record<string, unknown>): string | undefined;
  /** Whom the token belongs to; undefined for an unknown token and for a blocked or finished owner. */
  resolve(token: string): Promise<Principal | undefined>;
}

/** The principal of the request's token by this strategy, or undefined (no token, unknown, or not active). */
export async function authenticate<Principal>(
  strategy: TokenStrategy<Principal>,
  request: FastifyRequest,
  params: Record<string, unknown>,
): Promise<Principal | undefined> {
  const token = strategy.read(request, params);
  return token === undefined || token === '' ? undefined : strategy.resolve(token);
}

/** A header's value when sent and not empty. */
export function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A parameter's value as a string (numbers arrive as numbers from JSON bodies). */
export function stringParam(value: unknown): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}
