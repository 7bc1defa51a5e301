import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freshDatabaseUrl, startApp, type TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { registrationToken } from '../support/ci-world';
import { runForge } from '../support/forge-command';

/*
 * `forge admin …` in a process of its own, on the instance of a running test server: the same
 * DATA_DIR and database (SQLite, or PostgreSQL under TEST_DATABASE_URL), as a self-hoster runs it
 * beside their server.
 */

let app: TestApp;
let instance: Record<string, string>;

before(async () => {
  app = await startApp();
  instance = { DATA_DIR: app.dataDir, DATABASE_URL: app.databaseUrl };
});

after(async () => {
  await app.close();
});

const admin = (args: string[], env = instance) => runForge(['admin', ...args], env);

/** A command's failure: exit 1 and one line on stderr after the one naming the instance. */
function assertFailed(result: { code: number | null; stderr: string }, pattern: RegExp): void {
  assert.equal(result.code, 1, result.stderr);
  const lines = result.stderr.trim().split('\n');
  assert.match(lines[0], /instance DATA_DIR=/);
  assert.equal(lines.length, 2, result.stderr);
  assert.match(lines[1], pattern);
}

/** The username, password and private token a command printed. */
function credentials(stdout: string): { username: string; password: string; token: string } {
  const field = (name: string) => stdout.match(new RegExp(`${name}:\\s+(\\S+)`))?.[1] ?? assert.fail(`no ${name} in ${stdout}`);
  return { username: field('username'), password: field('password'), token: field('private token') };
}

describe('forge admin create-user', () => {
  test('creates a user who can use the printed token and password; an address taken again exits 1, a missing option 2', async () => {
    const created = await admin(['create-user', '--username', 'carol', '--email', 'carol@example.com', '--name', 'Carol C']);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stderr, new RegExp(`instance DATA_DIR=${app.dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    const { username, password, token } = credentials(created.stdout);
    assert.equal(username, 'carol');
    const me = await app.as(token).get('/user');
    assert.equal(me.status, 200);
    assert.equal(me.body.name, 'Carol C');
    assert.equal(me.body.is_admin, false);
    assert.equal((await app.anonymous.post('/session', { login: 'carol', password })).status, 201);

    assertFailed(await admin(['create-user', '--username', 'carol2', '--email', 'carol@example.com']), /Email has already been taken/);
    assertFailed(
      await admin(['create-user', '--username', 'dave', '--email', 'dave@example.com', '--password', 'short']),
      /password is too short/,
    );
    const missing = await admin(['create-user', '--username', 'erin']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--email is required/);
  });

  test('--admin makes an administrator', async () => {
    const created = await admin([
      'create-user',
      '--username',
      'frank',
      '--email',
      'frank@example.com',
      '--password',
      'frankpassword',
      '--admin',
    ]);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(credentials(created.stdout).password, 'frankpassword');
    assert.equal((await app.as(credentials(created.stdout).token).get('/user')).body.is_admin, true);
  });
});

describe('forge admin reset-password', () => {
  test("gives root a new password and shows root's private token (lost credentials recovered); an unknown user exits 1", async () => {
    const reset = await admin(['reset-password', 'root']);
    assert.equal(reset.code, 0, reset.stderr);
    const { password, token } = credentials(reset.stdout);
    assert.equal(token, app.rootToken);
    const session = await app.anonymous.post('/session', { login: 'root', password });
    assert.equal(session.status, 201);
    assert.equal((await app.anonymous.post('/session', { login: 'root', password: 'rootpassword' })).status, 401);

    const given = await admin(['reset-password', '1', '--password', 'rootpassword']);
    assert.equal(given.code, 0, given.stderr);
    assert.equal((await app.anonymous.post('/session', { login: 'root', password: 'rootpassword' })).status, 201);
    assertFailed(await admin(['reset-password', 'nobody']), /no user "nobody"/);
    assert.equal((await admin(['reset-password'])).code, 2);
  });
});

describe('forge admin make-admin', () => {
  test('makes a user an administrator and --revoke takes it back; an unknown user exits 1', async () => {
    const { user, client } = await app.createUser();
    const made = await admin(['make-admin', user.username]);
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stdout, /is now an administrator/);
    assert.equal(
      await eventually(async () => ((await client.get('/user')).body.is_admin === true ? true : undefined), { timeout: 10_000 }),
      true,
    );
    assert.equal((await admin(['make-admin', String(user.id), '--revoke'])).code, 0);
    assert.equal((await app.root.get(`/users/${user.id}`)).body.is_admin, false);
    assertFailed(await admin(['make-admin', 'nobody']), /no user "nobody"/);
  });
});

describe('forge admin block and unblock', () => {
  test("a blocked user's token stops working, as after PUT /users/:id/block, and works again once unblocked; an unknown user exits 1", async () => {
    const { user, client } = await app.createUser();
    assert.equal((await client.get('/user')).status, 200);
    const blocked = await admin(['block', user.username]);
    assert.equal(blocked.code, 0, blocked.stderr);
    assert.equal((await app.root.get(`/users/${user.id}`)).body.state, 'blocked');
    // The server remembers who owns a token for a second (src/services/users/users.ts).
    await eventually(async () => (await client.get('/user')).status === 401, { timeout: 10_000 });
    const unblocked = await admin(['unblock', String(user.id)]);
    assert.equal(unblocked.code, 0, unblocked.stderr);
    await eventually(async () => (await client.get('/user')).status === 200, { timeout: 10_000 });
    assertFailed(await admin(['block', 'nobody']), /no user "nobody"/);
    assertFailed(await admin(['unblock', 'nobody']), /no user "nobody"/);
  });
});

describe('forge admin runners-token', () => {
  test("prints the shared runners' registration token alone on stdout", async () => {
    const result = await admin(['runners-token']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, `${await registrationToken(app)}\n`);
  });
});

describe('forge admin check', () => {
  test('passes on a running instance, one line a check, SMTP not configured', async () => {
    const result = await admin(['check']);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    for (const name of ['git', 'database', 'DATA_DIR', 'free disk', 'secret key'])
      assert.match(result.stdout, new RegExp(`^ok +${name}: `, 'm'));
    assert.match(result.stdout, /SMTP: not configured/);
    assert.match(result.stdout, /reachable, migrated/);
  });

  test('fails, exit 1, where the secret key is missing', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-check-'));
    try {
      const result = await admin(['check'], { DATA_DIR: dataDir, DATABASE_URL: app.databaseUrl });
      assert.equal(result.code, 1);
      assert.match(result.stdout, /^FAIL +secret key: .*missing/m);
      assert.match(result.stdout, /check\(s\) failed/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('forge admin without the server settings', () => {
  test('refuses to create an instance: no ./data made, exit 1, the DATA_DIR named', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-none-'));
    const dataDir = path.join(parent, 'data');
    try {
      for (const args of [['runners-token'], ['create-user', '--username', 'x', '--email', 'x@example.com'], ['block', 'root']]) {
        const result = await admin(args, { DATA_DIR: dataDir, DATABASE_URL: '' });
        assertFailed(result, /no Forge instance/);
        assert.match(result.stderr, new RegExp(`DATA_DIR=${dataDir}`));
        assert.equal(result.stdout, '');
        assert.equal(fs.existsSync(dataDir), false, `${args[0]} created ${dataDir}`);
      }
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });

  test('refuses an empty PostgreSQL database beside an existing DATA_DIR', { skip: !process.env.TEST_DATABASE_URL }, async () => {
    const empty = await freshDatabaseUrl();
    try {
      const result = await admin(['runners-token'], { DATA_DIR: app.dataDir, DATABASE_URL: empty.url });
      assertFailed(result, /no Forge instance: the database .* is empty/);
      const check = await admin(['check'], { DATA_DIR: app.dataDir, DATABASE_URL: empty.url });
      assert.equal(check.code, 1);
      assert.match(check.stdout, /^FAIL +database: .*empty/m);
    } finally {
      await empty.drop();
    }
  });
});
