import type { AddressInfo } from 'node:net';
import { settleListeningPort, type Config } from './config';
import { openDatabase, type DbHandle } from './db/index';
import { migrateToLatest } from './db/migrate';
import { buildApp, type App, type AppOptions } from './http/app';
import { ensureRootUser, type RootCredentials } from './services/users/bootstrap';
import { startBackgroundWork } from './jobs/index';

export interface RunningServer extends App {
  database: DbHandle;
  /** The administrator's credentials when this start created them (an empty database). */
  root: RootCredentials | undefined;
  /** Stops accepting, lets requests in flight finish, stops background work, closes the database. */
  close(): Promise<void>;
}

/**
 * Everything `forge serve` does to run: migrate, build the app, make sure `root` exists, start
 * background work and listen. Tests and benchmarks start Forge through this same function.
 */
export async function startServer(config: Config, options: { logger?: AppOptions['logger'] } = {}): Promise<RunningServer> {
  const database = openDatabase({ ...config, onIdleError: (error) => console.error(`database connection lost: ${error.message}`) });
  await migrateToLatest(database);
  const { server, services } = await buildApp({ config, database, logger: options.logger });
  const root = await ensureRootUser(database.db, services.users, { password: config.initialRootPassword, token: config.initialRootToken });
  await server.listen({ port: config.port, host: config.host });
  settleListeningPort(config, (server.server.address() as AddressInfo).port);
  // After the port is settled: jobs left from an earlier run may put the external URL in hook payloads.
  const worker = startBackgroundWork(services);
  return {
    server,
    services,
    database,
    root,
    async close() {
      await server.close();
      await worker.stop();
      await database.db.destroy();
    },
  };
}
