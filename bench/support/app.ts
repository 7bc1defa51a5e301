import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig, type Config } from '../../src/config';
import { openDatabase, type DbHandle } from '../../src/db/index';
import { migrateToLatest } from '../../src/db/migrate';
import { buildApp } from '../../src/http/app';
import { ensureRootUser } from '../../src/services/users/bootstrap';
import { startBackgroundWork } from '../../src/jobs/index';
import type { Services } from '../../src/services/index';

/** The real server, as `forge serve` builds it, on a loopback port over a throw-away data directory and database. */
export interface BenchApp {
  url: string;
  config: Config;
  database: DbHandle;
  services: Services;
  rootToken: string;
  close(): Promise<void>;
}

const ROOT_TOKEN = 'bench-root-private-token';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A fresh PostgreSQL database when BENCH_DATABASE_URL is set; empty (SQLite in the data dir) otherwise. */
async function freshDatabaseUrl(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.BENCH_DATABASE_URL;
  if (!base) return { url: '', drop: async () => {} };
  const name = `forge_bench_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export const databaseKind = (): string => (process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'SQLite');

export async function startBenchApp(): Promise<BenchApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-bench-'));
  const port = await freePort();
  const database = await freshDatabaseUrl();
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    EXTERNAL_URL: url,
    DATABASE_URL: database.url,
    INITIAL_ROOT_PASSWORD: 'rootpassword',
    INITIAL_ROOT_TOKEN: ROOT_TOKEN,
  });
  const handle = openDatabase(config);
  await migrateToLatest(handle);
  const { server, services } = await buildApp({ config, database: handle, logger: false });
  await ensureRootUser(handle.db, services.users, { password: config.initialRootPassword, token: config.initialRootToken });
  const worker = startBackgroundWork(services);
  await server.listen({ port, host: '127.0.0.1' });
  return {
    url,
    config,
    database: handle,
    services,
    rootToken: ROOT_TOKEN,
    async close() {
      await server.close();
      await worker.stop();
      await handle.db.destroy();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
