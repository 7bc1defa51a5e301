import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/config';
import type { DbHandle } from '../../src/db/index';
import { startServer } from '../../src/app';
// Benchmarks start Forge as the tests do: a loopback port the system picks, a scratch database.
import { freshDatabaseUrl } from '../../test/support/app';
import type { Services } from '../../src/services/index';
import type { ServiceContext } from '../../src/services/context';

/** The real server, as `forge serve` builds it, on a loopback port over a throw-away data directory and database. */
export interface BenchApp {
  url: string;
  config: Config;
  database: DbHandle;
  services: Services;
  /** The stores behind the services, for seeding. */
  ctx: ServiceContext;
  rootToken: string;
  close(): Promise<void>;
}

const ROOT_TOKEN = 'bench-root-private-token';

export const databaseKind = (): string => (process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'SQLite');

/** `env`: settings beside the bench's own (`METRICS_ENABLED=false` for a baseline). */
export async function startBenchApp(env: Record<string, string> = {}): Promise<BenchApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-bench-'));
  const database = await freshDatabaseUrl(process.env.BENCH_DATABASE_URL ?? '', 'forge_bench');
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    // Clone URLs name 127.0.0.1, not localhost (which may resolve to ::1 first); port 0 is settled once listening.
    EXTERNAL_URL: 'http://127.0.0.1:0',
    DATABASE_URL: database.url,
    INITIAL_ROOT_PASSWORD: 'rootpassword',
    INITIAL_ROOT_TOKEN: ROOT_TOKEN,
    // A port the system picks, as for HTTP (bench/ssh.ts clones over it).
    SSH_PORT: 'any',
    ...env,
  });
  const running = await startServer(config, { logger: false });
  return {
    url: config.externalUrl,
    config,
    database: running.database,
    services: running.services,
    ctx: running.ctx,
    rootToken: ROOT_TOKEN,
    async close() {
      await running.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
