import type { FastifyRequest } from 'fastify';
import type { Api } from '../../http/api';
import type { RunnerApiDeps } from './deps';
import type { BuildRow } from '../../services/ci/types';
import { idOf } from './request';
import { buildCredential } from './tokens';
import { authenticate } from '../../http/tokens';

// Runners cap a trace at 4 MiB by default; a part is a few seconds of it.
const TRACE_PART_LIMIT = 16 * 1024 * 1024;

/** A running build's trace, part by part (reference §2.5). The body is the raw part, whatever its type. */
export function tracesRoutes(api: Api, { services }: RunnerApiDeps): void {
  const authorized = new WeakMap<FastifyRequest, BuildRow>();
  api.patch(
    '/builds/:id/trace.txt',
    {
      bodyLimit: TRACE_PART_LIMIT,
      config: { ownBody: true },
      // The build and its token are checked before the part is read: a refused part is not read
      // whole first (up to 16 MiB), only its first MiB is dropped so the runner sees the 403.
      onRequest: async (request) => {
        const token = await authenticate(buildCredential, request, request.query as Record<string, unknown>);
        authorized.set(request, await services.buildRequests.authorize(idOf((request.params as { id: string }).id), token));
      },
    },
    async (request, reply) => {
      const build = authorized.get(request)!;
      const range = request.headers['content-range'];
      const part = Buffer.isBuffer(request.body) ? request.body : Buffer.from(typeof request.body === 'string' ? request.body : '');
      const { length, status } = await services.buildRequests.appendTrace(build, typeof range === 'string' ? range : undefined, part);
      return reply
        .code(202)
        .headers({ 'Build-Status': status, Range: `0-${length}` })
        .send();
    },
  );
}
