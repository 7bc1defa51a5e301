import Fastify, { type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { RequestLog, requestSummary } from './request-log';
import { routerErrorOptions } from './errors';
import { lazyCompilersFactory } from './lazy-schemas';
import { registerRequestId, requestIdOf } from './request-id';

/** Where log lines go and from which level; false for silence (tests). */
export type HttpLogging = false | { level?: string; stream?: NodeJS.WritableStream };

/**
 * The Fastify instance every door is mounted on: logging (one line per request), request ids, GitLab's `.json`
 * suffixes, body limits, validation settings and the OpenAPI document of the routes added later.
 */
export async function createHttpServer(options: { logLevel: string; logger?: HttpLogging; config: { readonly externalUrl: string } }) {
  const { config } = options;
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
  registerRequestId(server);
  // The URL is read when shown, not copied now: with PORT=0 the external URL is settled after listening.
  await server.register(swagger, {
    openapi: {
      info: { title: 'Forge: GitLab 8.12 API v3', version: '8.12.0' },
      servers: [
        {
          get url() {
            return config.externalUrl;
          },
        },
      ],
    },
  });
  server.get('/api/v3/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () => server.swagger());
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
