import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors';
import { metricsAccess } from './metrics-access';
import { routeTemplateOf } from './route-template';

/** What the endpoint needs of the app's metrics (`src/metrics.ts`). */
export interface MetricsReporter {
  readonly contentType: string;
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  text(onError: (source: string, error: unknown) => void): Promise<string>;
}

/**
 * `/-/metrics` in Prometheus' text format, for those `metricsAccess` lets in; anyone else is
 * answered 404, as if there were no such page. Every answered request is counted by its route's
 * template, never its URL (`/api/v3/projects/:id`, not one series per project), `unmatched` when
 * no route matched. Register before the doors, so that the hook sees their routes.
 */
export function registerMetrics(app: FastifyInstance, metrics: MetricsReporter, access: { token: string; allow: string[] }): void {
  const mayRead = metricsAccess(access);
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request.method, routeTemplateOf(request) ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  // Not in the OpenAPI document: an operator's page, not part of the API. Every method is routed
  // here, so that a refused caller gets 404 whatever it asks (a 405 would say the page exists).
  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: '/-/metrics',
    config: { access: 'public' },
    schema: { hide: true },
    handler: async (request, reply) => {
      if ((request.method !== 'GET' && request.method !== 'HEAD') || !mayRead(request)) throw notFound();
      const text = await metrics.text((source, error) => request.log.warn({ err: error, source }, 'a metrics source failed'));
      return reply.type(metrics.contentType).send(text);
    },
  });
}
