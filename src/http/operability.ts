import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';

const Health = Type.Object({ status: Type.Literal('ok') });
const Readiness = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('failing')]),
  database: Type.Union([Type.Literal('ok'), Type.Literal('failing')]),
});

/**
 * Liveness (`/-/health`: the process answers) and readiness (`/-/readiness`: the database answers
 * too), open to anyone so that load balancers and orchestrators need no token. Both are in the
 * OpenAPI document, outside `/api/v3` as GitLab kept them.
 */
export function registerOperability(app: FastifyInstance, checkDatabase: () => Promise<void>): void {
  const tags = ['operability'];
  app.get(
    '/-/health',
    { config: { access: 'public' }, schema: { tags, summary: 'The process is up', response: { 200: Health } } },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/-/readiness',
    {
      config: { access: 'public' },
      schema: { tags, summary: 'The process is up and its database answers', response: { 200: Readiness, 503: Readiness } },
    },
    async (request, reply) => {
      try {
        await checkDatabase();
        return { status: 'ok' as const, database: 'ok' as const };
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed');
        return reply.status(503).send({ status: 'failing', database: 'failing' });
      }
    },
  );
}
