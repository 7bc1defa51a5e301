import Fastify, { type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { RequestLog, requestSummary } from './request-log';
import { routerErrorOptions } from './errors';
import { lazyCompilersFactory } from './lazy-schemas';
import { registerRequestId, requestIdOf } from './request-id';
import { keepRouteOptions } from './route-template';
import { closeConnectionsOnClose } from './closing-connections';

/** Where log lines go and from which level; false for silence (tests). */
export type HttpLogging = false | { level?: string; stream?: NodeJS.WritableStream };

/**
 * The Fastify instance every door is mounted on: logging (one line per request), request ids, GitLab's `.json`
 * suffixes, body limits and validation settings. Each API version's OpenAPI document is its door's (`http/openapi.ts`).
 */
export async function createHttpServer(options: { logLevel: string; logger?: HttpLogging }) {
  const { logger } = options;
  const server = Fastify({
    logger: logger === false ? false : { level: options.logLevel, ...logger, serializers: { req: requestSummary } },
    // One line per request at info, not Fastify's two.
    logController: new RequestLog(),
    // The caller's X-Request-Id when sane, else a UUID: answered as X-Request-Id, logged as `reqId`, carried into jobs.
    genReqId: requestIdOf,
    // GitLab's framework answered every route with a `.json` suffix as well.
    rewriteUrl: (request) => stripJsonSuffix(request.url ?? '/'),
    bodyLimit: 100 * 1024 * 1024,
    ...routerErrorOptions,
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false } },
    // Each route's validators and serializers are compiled on first use, not all at start.
    schemaController: { compilersFactory: lazyCompilersFactory } as FastifyServerOptions['schemaController'],
  }).withTypeProvider<TypeBoxTypeProvider>();
  keepRouteOptions(server);
  registerRequestId(server);
  closeConnectionsOnClose(server);
  return server;
}

function stripJsonSuffix(url: string): string {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  // The runner API too: runners call `runners/register.json`, `builds/register.json`, `builds/:id.json`.
  if (!(path.startsWith('/api/v3/') || path.startsWith('/ci/api/v1/')) || !path.endsWith('.json') || path === '/api/v3/openapi.json')
    return url;
  return path.slice(0, -'.json'.length) + (queryAt === -1 ? '' : url.slice(queryAt));
}
