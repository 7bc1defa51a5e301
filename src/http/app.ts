import Fastify from 'fastify';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../config';
import type { DbHandle } from '../db/index';
import { SecretBox } from '../lib/secrets';
import { JobQueue } from '../jobs/queue';
import { createServices, type Services } from '../services/index';
import { registerParamParsing } from './params';
import { registerErrorHandling, routerErrorOptions } from './errors';
import { registerAuthentication } from './auth';
import { registerProjectGuard } from './project-guard';
import { registerOperability } from './operability';
import { registerApiV3 } from '../api/v3/index';
import type { Api } from '../api/v3/types';
import { sql } from 'kysely';
import { registerGitHttp } from '../git-http/plugin';
import { forgeGitBackend } from '../git-http/forge-backend';
import { catFile } from '../git/cat-file';
import { patchProcesses } from '../git/diff';

export interface AppOptions {
  config: Config;
  database: DbHandle;
  /** Where log lines go and from which level; false for silence (tests). */
  logger?: false | { level?: string; stream?: NodeJS.WritableStream };
}

export interface App {
  server: Api;
  services: Services;
}

/** Builds the whole server over a migrated database; listening and background work are the caller's. */
export async function buildApp({ config, database, logger }: AppOptions): Promise<App> {
  const server = Fastify({
    logger: logger === false ? false : { level: config.logLevel, ...logger, serializers: { req: requestSummary } },
    // GitLab's framework answered every route with a `.json` suffix as well.
    rewriteUrl: (request) => stripJsonSuffix(request.url ?? '/'),
    bodyLimit: 100 * 1024 * 1024,
    ...routerErrorOptions,
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const services = createServices({
    config,
    db: database.db,
    dialect: database.dialect,
    secrets: SecretBox.open(config.dataDir),
    jobs: new JobQueue(database.db, database.dialect, config.jobMaxAttempts),
    log: server.log,
  });

  await server.register(swagger, {
    openapi: { info: { title: 'Forge: GitLab 8.12 API v3', version: '8.12.0' }, servers: [{ url: config.externalUrl }] },
  });
  registerErrorHandling(server);
  registerAuthentication(server, services.users);
  await registerParamParsing(server);
  registerProjectGuard(server, services.projects);
  registerOperability(server, async () => {
    await sql`select 1`.execute(database.db);
  });
  await server.register(async (api) => registerApiV3(api as Api, { services, presenter: { externalUrl: config.externalUrl } }), { prefix: '/api/v3' });
  await registerGitHttp(server, { backend: forgeGitBackend(services) });
  server.addHook('onClose', async () => { await Promise.all([catFile.closeAll(), patchProcesses.closeAll()]); });
  server.get('/api/v3/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () => server.swagger());
  return { server, services };
}

function stripJsonSuffix(url: string): string {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  if (!path.startsWith('/api/v3/') || !path.endsWith('.json') || path === '/api/v3/openapi.json') return url;
  return path.slice(0, -'.json'.length) + (queryAt === -1 ? '' : url.slice(queryAt));
}

/** Request log lines never carry a token. */
function requestSummary(request: { method: string; url: string; ip?: string }) {
  return { method: request.method, url: request.url.replace(/([?&]private_token=)[^&]*/gi, '$1[redacted]'), remoteAddress: request.ip };
}
