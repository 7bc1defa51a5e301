import { sql } from 'kysely';
import type { AddressInfo } from 'node:net';
import { settleListeningPort, settleSshPort, type Config } from './config';
import { openDatabase, type DbHandle } from './db/index';
import { migrateToLatest } from './db/migrate';
import { GitReader } from './git/reader';
import { RefLocks } from './git/ref-lock';
import { RefsCache } from './git/refs-cache';
import path from 'node:path';
import { SecretBox } from './lib/secrets';
import { ChangeSignal } from './lib/change-signal';
import { DiskFileStore } from './storage/index';
import { JobQueue } from './jobs/queue';
import type { JobHandlers } from './jobs/kinds';
import { startBackgroundWork, type BackgroundWork, type Sweep } from './jobs/background';
import { createServices, type Services } from './services/index';
import type { ServiceContext } from './services/context';
import type { Logger } from './lib/logger';
import { ensureRootUser, type RootCredentials } from './services/users/bootstrap';
import { hookJobs } from './services/hooks/jobs';
import { notificationJobs } from './services/notifications/jobs';
import { repositoryJobs } from './services/repository/jobs';
import { ciJobs } from './services/ci/jobs';
import { mergeRequestJobs } from './services/merge-requests/jobs';
import { mergeRequestTodos } from './services/todos/issuable-todos';
import { unlockStuckMerges } from './services/merge-requests/stuck-merges';
import { removeExpiredArtifacts } from './services/ci/builds/artifacts-expiry';
import { dropStuckBuilds } from './services/ci/builds/stuck-builds';
import { enqueueScheduledBuilds } from './services/ci/builds/scheduled-builds';
import { createHttpServer, type HttpLogging } from './http/server';
import { registerErrorHandling } from './http/errors';
import { registerAuthentication } from './http/auth';
import { registerParamParsing } from './http/params';
import { registerProjectGuard } from './api/shared/project-guard';
import { registerGroupGuard } from './api/shared/group-guard';
import { registerOperability } from './http/operability';
import { registerApiV3 } from './api/v3/index';
import { registerApiV4, API_V4_VERSION } from './api/v4/index';
import { oauthRoutes } from './api/v4/oauth';
import { registerOpenApi } from './http/openapi';
import { presenterFor } from './api/shared/presenter';
import { registerRunnerApi } from './api/ci/index';
import { registerRunnerApiV4 } from './api/runner-v4/index';
import type { Api } from './http/api';
import { registerGitHttp } from './git-http/plugin';
import { forgeGitBackend } from './git-http/forge-backend';
import { registerGitLfs } from './git-http/lfs';
import { removeUnlinkedLfsObjects } from './services/lfs-objects/queries';
import type { RunningSshServer } from './ssh/server';
import { ForgeMetrics } from './metrics';
import { registerMetrics } from './http/metrics';
import { ciActivity } from './services/ci/activity';
import { registerWeb } from './web/index';

/*
 * The composition root: the one place that knows everybody. It builds the stores, the services,
 * the doors and the background work, hands each only what it needs, and starts and stops them
 * in order. `forge serve`, the tests and the benchmarks all start Forge through `startServer`.
 */

const HOUR_MS = 60 * 60 * 1000;
/** How long a job that used up its attempts stays in the table for inspection. */
const GIVEN_UP_KEPT_MS = 7 * 24 * HOUR_MS;

export interface AppOptions {
  config: Config;
  /** A migrated database. */
  database: DbHandle;
  logger?: HttpLogging;
  /** The app's metrics (`/-/metrics`); none when off (`METRICS_ENABLED=false`). */
  metrics?: ForgeMetrics;
}

export interface App {
  server: Api;
  services: Services;
  /** The stores the services share: the composition root's own (background work, the SSH door's LFS credential), never a door's. */
  ctx: ServiceContext;
}

/** Builds the services and every door over a migrated database; listening and background work are `startServer`'s. */
export async function buildApp({ config, database, logger, metrics }: AppOptions): Promise<App> {
  const server = await createHttpServer({ logLevel: config.logLevel, logger });
  const ctx = serviceContext(config, database, server.log);
  const services = createServices(ctx);

  // Runners held by long polling answer at once when the server closes, rather than hold it up.
  server.addHook('preClose', async () => ctx.buildQueue.close());
  // HTTP concerns every door shares, in the order they act on a request.
  registerErrorHandling(server);
  if (metrics) {
    registerMetrics(server, metrics, { token: config.metricsToken, allow: config.metricsAllow });
    Object.assign(metrics.sources, {
      jobs: () => ctx.jobs.counts(),
      ci: () => ciActivity(ctx),
      gitPools: () => [
        { pool: 'cat-file', ...ctx.git.objects.stats() },
        { pool: 'diff-tree', ...ctx.git.patches.stats() },
      ],
      databasePool: database.poolStats,
    });
  }
  registerAuthentication(server, {
    findByToken: (token) => services.users.findByToken(token),
    findByIdOrUsername: (value) => services.users.findByIdOrUsername(value),
    findByScopedToken: (token) => services.accessTokens.resolve(token),
    findByJobToken: async (token) => {
      const build = await services.buildTokens.runningBuild(token);
      const user = build?.userId == null ? undefined : await services.users.findById(build.userId);
      return user?.state === 'active' ? user : undefined;
    },
  });
  await registerParamParsing(server);
  registerProjectGuard(server, services.projects);
  registerGroupGuard(server, services.groups);

  // The doors. Each API version is a scope of its own with its own OpenAPI document; v3's also
  // describes the runner API v1, git over HTTP, Git LFS and the health checks, as it always has.
  await server.register(async (scope) => {
    await registerOpenApi(scope, { title: 'Forge: GitLab 8.12 API v3', version: '8.12.0', path: '/api/v3/openapi.json' }, config);
    registerOperability(scope, async () => {
      await sql`select 1`.execute(database.db);
    });
    await scope.register(async (api) => registerApiV3(api as Api, { services, presenter: presenterFor(config, '/u/') }), {
      prefix: '/api/v3',
    });
    await scope.register(async (api) => registerRunnerApi(api as Api, { services }), { prefix: '/ci/api/v1' });
    await registerGitHttp(scope, { backend: forgeGitBackend(services.gitAccess, (projectId) => services.repositories.path(projectId)) });
    await registerGitLfs(scope, services.lfs, config);
  });
  await server.register(async (scope) => {
    await registerOpenApi(scope, { title: 'Forge: GitLab API v4', version: API_V4_VERSION, path: '/api/v4/openapi.json' }, config);
    await scope.register(async (api) => registerApiV4(api as Api, { services, presenter: presenterFor(config, '/') }), {
      prefix: '/api/v4',
    });
    // The runners' own API v4 beside the consumer's, under the same prefix: no method and path of one is the other's.
    await scope.register(async (api) => registerRunnerApiV4(api as Api, { services, pollTimeoutMs: config.runnerPollTimeoutMs }), {
      prefix: '/api/v4',
    });
    // GitLab's OAuth2 provider lives at the root, beside the API it gives tokens for.
    await scope.register(async (api) => oauthRoutes(api as Api, { services, presenter: presenterFor(config, '/') }), { prefix: '/oauth' });
  });
  // Pages for people, last: their `/:namespace/:project` gives way to every path above.
  await registerWeb(server, { services, config, secrets: ctx.secrets });
  return { server, services, ctx };
}

/** What every service is given; `forge admin` builds the same over the instance it acts on. */
export function serviceContext(config: Config, database: DbHandle, log: Logger): ServiceContext {
  const git = new GitReader();
  return {
    config,
    db: database.db,
    dialect: database.dialect,
    secrets: SecretBox.open(config.dataDir),
    jobs: new JobQueue(database.db, database.dialect, config.jobMaxAttempts),
    files: new DiskFileStore(path.join(config.dataDir, 'files')),
    git,
    refs: new RefsCache(git),
    refLocks: new RefLocks(),
    log,
    buildQueue: new ChangeSignal(),
  };
}

/** A handler for every job kind, each from the domain that owns the work. */
function jobHandlers(ctx: ServiceContext, services: Services): JobHandlers {
  const { repositories, projects, users, events } = services;
  return {
    ...hookJobs(ctx),
    ...notificationJobs(ctx),
    ...repositoryJobs({ ctx, repositories, projects, users, events }),
    ...ciJobs(ctx),
    ...mergeRequestJobs({
      ctx,
      projects,
      users,
      merging: services.mergeRequestMerging,
      contents: services.mergeRequestContents,
      todos: mergeRequestTodos,
    }),
  };
}

function sweeps(ctx: ServiceContext, services: Services): Sweep[] {
  return [
    { name: 'members.remove_expired', intervalMs: HOUR_MS, run: () => services.members.removeExpired() },
    { name: 'jobs.purge_given_up', intervalMs: HOUR_MS, run: () => ctx.jobs.purgeGivenUp(GIVEN_UP_KEPT_MS) },
    { name: 'ci.expire_artifacts', intervalMs: HOUR_MS, run: () => removeExpiredArtifacts(ctx) },
    // Every 10 minutes: a build whose runner vanished holds its pipeline until it is failed, and a look costs one indexed query.
    { name: 'ci.drop_stuck_builds', intervalMs: HOUR_MS / 6, run: () => dropStuckBuilds(ctx) },
    // Every 5 seconds: a delayed build (`when: delayed`) is queued at most this late; a look is one indexed query.
    { name: 'ci.enqueue_scheduled_builds', intervalMs: 5000, run: () => enqueueScheduledBuilds(ctx) },
    // Objects a project's removal left unlinked are removed by its job; this catches those of a job that gave up.
    { name: 'lfs.remove_unlinked', intervalMs: HOUR_MS, run: () => removeUnlinkedLfsObjects(ctx.db, ctx.files) },
    { name: 'merge_requests.unlock_stuck', intervalMs: HOUR_MS / 6, run: () => unlockStuckMerges(ctx) },
    // Hook deliveries are kept two days, and the last 100 per hook at most (`hooks/hook-logs.ts`).
    { name: 'hooks.prune_logs', intervalMs: HOUR_MS, run: () => services.hookLogs.prune() },
  ];
}

/** Git over SSH (SSH_PORT), beside HTTP, over the same git access service. */
async function startSsh(ctx: ServiceContext, services: Services): Promise<RunningSshServer> {
  const { config } = ctx;
  // Loaded only when SSH is on: ssh2 is some 50 files every start would otherwise read.
  const { startSshServer } = await import('./ssh/server');
  const ssh = await startSshServer({
    dataDir: config.dataDir,
    host: config.host,
    port: config.sshPort!,
    git: services.gitAccess,
    repoPath: (projectId) => services.repositories.path(projectId),
    // Builds never reach SSH (they fetch over HTTP with their token): only users and deploy keys ask.
    lfs: (caller, project, operation) =>
      services.lfs.sshCredential(
        caller.kind === 'user' ? { userId: caller.user.id } : { deployKeyId: caller.kind === 'deploy_key' ? caller.keyId : 0 },
        project,
        operation,
      ),
    externalUrl: () => config.externalUrl,
    log: ctx.log,
  });
  settleSshPort(config, ssh.port);
  return ssh;
}

export interface RunningServer extends App {
  database: DbHandle;
  /** The administrator's credentials when this start created them (an empty database). */
  root: RootCredentials | undefined;
  /** Stops accepting, lets requests in flight finish, stops background work, closes the git processes, the database and the metrics. */
  close(): Promise<void>;
}

/**
 * Everything `forge serve` does to run: migrate, build the app, listen (HTTP, then SSH), make
 * sure `root` exists, then start background work. `root` is made only once both ports are held: a
 * start that fails (a port taken) leaves no account whose generated password nobody saw.
 */
export async function startServer(config: Config, options: { logger?: HttpLogging } = {}): Promise<RunningServer> {
  // One registry per app: two apps in one process (tests, benchmarks) count apart.
  const metrics = config.metricsEnabled ? new ForgeMetrics() : undefined;
  const database = openDatabase({
    ...config,
    onIdleError: (error) => console.error(`database connection lost: ${error.message}`),
    onStatement: metrics?.observeStatement,
  });
  try {
    await migrateToLatest(database);
  } catch (error) {
    await database.db.destroy();
    throw error;
  }
  const { server, services, ctx } = await buildApp({ config, database, logger: options.logger, metrics });
  let ssh: RunningSshServer | undefined;
  try {
    await server.listen({ port: config.port, host: config.host });
    settleListeningPort(config, (server.server.address() as AddressInfo).port);
    if (config.sshPort !== null) ssh = await startSsh(ctx, services);
    if (ssh && metrics) metrics.sources.ssh = ssh.stats;
  } catch (error) {
    // A port taken, say: nothing of this start stays behind.
    await server.close();
    await ctx.git.close();
    await database.db.destroy();
    metrics?.close();
    throw error;
  }
  // Only once both ports are held: a start that fails leaves no root whose password nobody saw.
  const root = await ensureRootUser(database.db, services.users, { password: config.initialRootPassword, token: config.initialRootToken });
  // After the port is settled: jobs left from an earlier run may put the external URL in hook payloads.
  ctx.log.info(
    config.smtpUrl
      ? `e-mail: notifications are sent through ${smtpHost(config.smtpUrl)} from ${config.emailFrom}`
      : 'e-mail is off: set SMTP_URL to send notifications',
  );
  const background: BackgroundWork = startBackgroundWork({
    queue: ctx.jobs,
    handlers: jobHandlers(ctx, services),
    sweeps: sweeps(ctx, services),
    log: ctx.log,
    retryBaseMs: config.jobRetryBaseMs,
    onJobRun: metrics?.observeJobRun,
  });
  return {
    server,
    services,
    ctx,
    database,
    root,
    async close() {
      await ssh?.close();
      await server.close();
      await background.stop();
      await ctx.git.close();
      await database.db.destroy();
      metrics?.close();
    },
  };
}

/** The SMTP server's address without its credentials, for the log. */
function smtpHost(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  return `${url.protocol}//${url.host}`;
}
