import type { FastifyRequest } from 'fastify';
import { authenticate, headerValue, stringParam, type TokenStrategy } from '../../http/tokens';
import type { RunnerRegistrationService } from '../../services/ci/runners/registration';
import type { RunnerRow } from '../../services/ci/types';
import { forbidden } from '../../errors';

/*
 * The runner API v4's two credentials: a runner's token (the `token` parameter; runners since 16
 * also send it as `RUNNER-TOKEN`), and a job's token (`token` in a `PUT`'s body, `JOB-TOKEN` on
 * trace parts and artifacts), checked by the service against the job named in the path.
 */

export function runnerToken(runners: RunnerRegistrationService): TokenStrategy<RunnerRow> {
  return {
    kind: 'runner',
    read: (request, params) => stringParam(params.token) || headerValue(request, 'runner-token'),
    resolve: (token) => runners.findByToken(token),
  };
}

/** A job's token as the request carries it: the `token` parameter first, else the `JOB-TOKEN` header. */
export function jobToken(request: FastifyRequest, params: Record<string, unknown>): string | undefined {
  return stringParam(params.token) || headerValue(request, 'job-token');
}

/** The runner of the request's token; 403 for an unknown one, as GitLab's `authenticate_runner!`. */
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
