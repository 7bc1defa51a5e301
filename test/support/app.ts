import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../src/config';
import { startServer } from '../../src/app';
import type { Services } from '../../src/services/index';
import type { ServiceContext } from '../../src/services/context';
import { ApiClient } from './client';
import { migratedTemplate } from './template-database';

export interface TestApp {
  url: string;
  dataDir: string;
  /** The PostgreSQL database's URL; empty on SQLite (`DATA_DIR/forge.db`). */
  databaseUrl: string;
  services: Services;
  /** The stores behind the services, for tests that seed or inspect rows and files directly. */
  ctx: ServiceContext;
  /** A client acting as the administrator `root`. */
  root: ApiClient;
  rootToken: string;
  /** A client with no credentials. */
  anonymous: ApiClient;
  as(token: string): ApiClient;
  /** Creates a user through the API and returns a client acting as them. */
  createUser(overrides?: Record<string, unknown>): Promise<{ user: any; client: ApiClient; token: string; password: string }>;
  close(): Promise<void>;
}

let counter = 0;

/**
 * A fresh PostgreSQL database per app when `base` (default TEST_DATABASE_URL) is set; SQLite in the
 * data dir otherwise. Empty, unless `migrated`: then a copy of the migrated template (PostgreSQL only).
 */
export async function freshDatabaseUrl(
  base = process.env.TEST_DATABASE_URL,
  prefix = 'forge_test',
  options: { migrated?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!base) return { url: '', drop: async () => {} };
  const name = `${prefix}_${process.pid}_${Date.now()}_${counter++}`;
  const template = options.migrated ? ` TEMPLATE ${await migratedTemplate(base)}` : '';
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template}`);
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

/**
 * Starts the real server on a loopback port the system picks (PORT=0: probing for a free one races
 * with other processes) over its own temporary data directory and database. The external URL the
 * API shows is `http://localhost:<that port>` unless `env` sets EXTERNAL_URL.
 */
export async function startApp(env: Record<string, string> = {}, logStream?: NodeJS.WritableStream): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-test-'));
  const database = await freshDatabaseUrl(undefined, undefined, { migrated: true });
  const rootToken = 'root-private-token-0001';
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    INITIAL_ROOT_PASSWORD: 'rootpassword',
    INITIAL_ROOT_TOKEN: rootToken,
    JOB_RETRY_BASE_MS: '200',
    // Off unless a test asks for it (SSH_PORT=any: a port the system picks).
    SSH_PORT: '0',
    ...env,
  });
  const running = await startServer(config, {
    logger: logStream ? { level: 'info', stream: logStream } : process.env.TEST_LOG ? { level: 'debug' } : false,
  });
  const { services, ctx } = running;
  // Settled by startServer once listening.
  const url = `http://127.0.0.1:${config.port}`;
  const as = (token: string) => new ApiClient(url, token);
  let users = 0;
  return {
    url,
    dataDir,
    databaseUrl: database.url,
    services,
    ctx,
    root: as(rootToken),
    rootToken,
    anonymous: new ApiClient(url),
    as,
    async createUser(overrides = {}) {
      const n = ++users;
      const password = 'password123';
      const created = await as(rootToken).post('/users', {
        email: `user${n}@example.com`,
        password,
        name: `User ${n}`,
        username: `user${n}`,
        confirm: false,
        ...overrides,
      });
      if (created.status !== 201) throw new Error(`createUser failed: ${created.status} ${JSON.stringify(created.body)}`);
      const session = await new ApiClient(url).post('/session', { login: created.body.username, password: overrides.password ?? password });
      const token = session.body.private_token as string;
      return { user: created.body, client: as(token), token, password };
    },
    async close() {
      await running.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
