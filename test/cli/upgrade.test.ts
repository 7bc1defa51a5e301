import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config';
import { startServer } from '../../src/app';
import { openDatabase } from '../../src/db/index';
import { knownMigrations, migrateTo, migrationStatus } from '../../src/db/migrate';
import { digestToken, hashPassword, SecretBox } from '../../src/lib/secrets';
import { freshDatabaseUrl } from '../support/app';
import { ApiClient } from '../support/client';
import { ROOT, startForge, type RunningForge } from '../support/forge-command';
import { nodeArgs } from '../support/node-entry';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/*
 * Upgrades: a database made by the first migration Forge shipped, with data in it, is migrated to
 * the latest at the server's start; several servers started together on one new database migrate
 * it once and all come up (SQLite, or PostgreSQL under TEST_DATABASE_URL).
 */

const cleanups: Array<() => Promise<void>> = [];

after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function newInstance(): Promise<{ dataDir: string; databaseUrl: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-upgrade-'));
  const database = await freshDatabaseUrl();
  cleanups.push(async () => {
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return { dataDir, databaseUrl: database.url };
}

describe('upgrading in place', () => {
  test('a database of the first migration, with a user in it, is migrated at start and serves that user', async () => {
    const instance = await newInstance();
    const old = openDatabase(instance);
    await migrateTo(old, '0001_foundation');
    assert.deepEqual((await migrationStatus(old)).executed, ['0001_foundation']);
    const token = 'made-by-the-first-release';
    const time = '2026-11-21T10:00:00.000Z';
    const user = await old.db
      .insertInto('users')
      .values({
        username: 'early',
        email: 'early@example.com',
        name: 'Early Adopter',
        password_hash: await hashPassword('earlypassword'),
        token_digest: digestToken(token),
        token_sealed: SecretBox.open(instance.dataDir).seal(token),
        admin: 1,
        created_at: time,
        updated_at: time,
      } as any)
      .returning('id')
      .executeTakeFirstOrThrow();
    await old.db
      .insertInto('namespaces')
      .values({ name: 'early', path: 'early', kind: 'user', owner_id: user.id, created_at: time, updated_at: time } as any)
      .execute();
    await old.db.destroy();

    const config = loadConfig({
      DATA_DIR: instance.dataDir,
      DATABASE_URL: instance.databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      SSH_PORT: '0',
    });
    const server = await startServer(config, { logger: false });
    try {
      assert.equal(server.root, undefined, 'no root is made over existing users');
      assert.deepEqual((await migrationStatus(server.database)).pending, []);
      const client = new ApiClient(`http://127.0.0.1:${config.port}`, token);
      const me = await client.get('/user');
      assert.equal(me.status, 200);
      assert.equal(me.body.username, 'early');
      assert.equal(me.body.is_admin, true);
      const session = await new ApiClient(client.baseUrl).post('/session', { login: 'early', password: 'earlypassword' });
      assert.equal(session.body.private_token, token);
      const project = await client.post('/projects', { name: 'after the upgrade' });
      assert.equal(project.status, 201, JSON.stringify(project.body));
      assert.equal(project.body.namespace.path, 'early');
    } finally {
      await server.close();
    }
  });
});

describe('processes migrating one new database at the same moment', () => {
  test('run each migration once, and none of them fails', async () => {
    const instance = await newInstance();
    const env = { ...process.env, DATA_DIR: instance.dataDir, DATABASE_URL: instance.databaseUrl, START_AT: String(Date.now() + 8000) };
    const runs = Array.from({ length: 4 }, () =>
      promisify(execFile)(process.execPath, nodeArgs('test/support/migrate-at'), { cwd: ROOT, env }),
    );
    for (const run of await Promise.allSettled(runs)) {
      assert.equal(run.status, 'fulfilled', run.status === 'rejected' ? String(run.reason) : '');
    }
    const database = openDatabase(instance);
    try {
      assert.deepEqual((await migrationStatus(database)).executed, knownMigrations());
    } finally {
      await database.db.destroy();
    }
  });
});

describe('servers starting together on one new database', () => {
  test('migrate it once, make root once, and all come up', async () => {
    const instance = await newInstance();
    const env = {
      DATA_DIR: instance.dataDir,
      DATABASE_URL: instance.databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      SSH_PORT: '0',
      INITIAL_ROOT_PASSWORD: 'rootpassword',
      INITIAL_ROOT_TOKEN: 'root-token-of-both-servers',
    };
    const servers: RunningForge[] = [startForge(['serve'], env), startForge(['serve'], env), startForge(['serve'], env)];
    cleanups.push(async () => {
      for (const server of servers) server.killGroup();
    });
    const urls = await Promise.all(servers.map(async (server) => (await server.waitFor(/listening on (http:\/\/\S+?)[\s,]/))[1]));
    for (const url of urls) {
      const root = new ApiClient(url.replace('localhost', '127.0.0.1'), 'root-token-of-both-servers');
      const me = await root.get('/user');
      assert.equal(me.status, 200, JSON.stringify(me.body));
      assert.equal(me.body.username, 'root');
      assert.equal((await root.get('/users')).body.length, 1);
    }
    // Exactly one of them made root, and said so.
    assert.equal(
      servers.filter((server) => /root/i.test(server.stdout + server.stderr) && /password/i.test(server.stdout + server.stderr)).length,
      1,
    );
    const database = openDatabase(instance);
    try {
      assert.deepEqual((await migrationStatus(database)).executed, knownMigrations());
    } finally {
      await database.db.destroy();
    }
    for (const server of servers) server.child.kill('SIGTERM');
    for (const server of servers) assert.equal((await server.finished).code, 0);
  });
});
