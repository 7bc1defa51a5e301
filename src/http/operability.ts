import type { FastifyInstance } from 'fastify';

/** Liveness (`/-/health`) and readiness (`/-/readiness`: the database answers). */
export function registerOperability(app: FastifyInstance, checkDatabase: () => Promise<void>): void {
  app.get('/-/health', { config: { access: 'public' }, schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/-/readiness', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    try {
      await checkDatabase();
      return { status: 'ok', database: 'ok' };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      return reply.status(503).send({ status: 'failing', database: 'failing' });
    }
  });
}
