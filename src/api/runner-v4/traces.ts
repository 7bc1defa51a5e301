import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Api } from '../../http/api';
import type { RunnerV4Deps } from './deps';
import type { BuildRow } from '../../services/ci/types';
import { idOf } from '../shared/runner-requests';
import { jobToken } from './tokens';

// Runners cap a trace at 4 MiB by default; a part is a few seconds of it.
const TRACE_PART_LIMIT = 16 * 1024 * 1024;

/** How often a runner is asked to send its trace (seconds): a cancel is seen within it. */
const TRACE_UPDATE_INTERVAL = '3';

/**
 * A running job's trace, part by part (GitLab's `PATCH /jobs/:id/trace`). The body is the raw part,
 * whatever its type; `Content-Range: <start>-<end>` must start where the stored trace ends (416 with
 * `Range: 0-<stored length>` otherwise, and the runner resends from there). `Job-Status` tells the
 * runner to go on; a job canceled meanwhile answers 403 with `Job-Status: canceled`, and the runner stops.
 */
export function tracesRoutes(api: Api, { services }: RunnerV4Deps): void {
  const authorized = new WeakMap<FastifyRequest, BuildRow>();
  api.patch(
    '/jobs/:id/trace',
    {
      bodyLimit: TRACE_PART_LIMIT,
      config: { ownBody: true },
      schema: { params: Type.Object({ id: Type.String() }) },
      // The job and its token are checked before the part is read.
      onRequest: async (request) => {
        const token = jobToken(request, request.query as Record<string, unknown>);
        const id = idOf((request.params as { id: string }).id);
        authorized.set(request, await services.buildRequests.authorizeJob(id, token, { running: true }));
      },
    },
    async (request, reply) => {
      const job = authorized.get(request)!;
      const range = request.headers['content-range'];
      const part = Buffer.isBuffer(request.body) ? request.body : Buffer.from(typeof request.body === 'string' ? request.body : '');
      const { length, status } = await services.buildRequests.appendTrace(job, typeof range === 'string' ? range : undefined, part);
      return reply
        .code(202)
        .headers({ 'Job-Status': status, Range: `0-${length}`, 'X-GitLab-Trace-Update-Interval': TRACE_UPDATE_INTERVAL })
        .send();
    },
  );
}
