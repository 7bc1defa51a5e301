import type { FastifyRequest } from 'fastify';
import { authenticate, headerValue, stringParam, type TokenStrategy } from '../../http/tokens';
import type { RunnerRegistrationService } from '../../services/ci/runners/registration';
import type { RunnerRow } from '../../services/ci/types';
import { forbidden } from '../../errors';

/*
 * The runner API's two credentials (src/http/tokens.ts): a runner's own token, always the `token`
 * parameter; and a build's credential for its trace and artifacts, the `token` parameter or the
 * `BUILD-TOKEN` header (the parameter wins), which the service checks against the build named in
 * the path (its own token or its project's runners token).
 */

export function runnerToken(runners: RunnerRegistrationService): TokenStrategy<RunnerRow> {
  return {
    kind: 'runner',
    read: (_request, params) => stringParam(params.token),
    resolve: (token) => runners.findByToken(token),
  };
}

/** A build credential is checked against its build, so resolving it only hands it on. */
export const buildCredential: TokenStrategy<string> = {
  kind: 'build',
  read: (request, params) => stringParam(params.token) || headerValue(request, 'build-token'),
  resolve: async (token) => token,
};

/** The runner of the request's token; 403 for a missing or unknown one, as 8.12's `authenticate_runner!`. */
export async function requireRunner(
  strategy: TokenStrategy<RunnerRow>,
  request: FastifyRequest,
  params: Record<string, unknown>,
): Promise<RunnerRow> {
  const runner = await authenticate(strategy, request, params);
  if (!runner) throw forbidden();
  request.log = request.log.child({ runnerId: runner.id });
  return runner;
}
