import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freshDatabaseUrl } from '../support/app';
import { ApiClient } from '../support/client';
import { runForge, startForge } from '../support/forge-command';

/*
 * Starting and stopping Forge as a newcomer meets it: the real command in a process of its own,
 * over a fresh DATA_DIR (and a fresh PostgreSQL database under TEST_DATABASE_URL).
 */

/** Processes a failed test may have left: killed once the file ends. */
const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((cleanup) => cleanup()));

async function freshInstance(): Promise<{ env: Record<string, string>; dataDir: string; drop(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-start-'));
  const database = await freshDatabaseUrl();
  return {
    dataDir,
    env: { DATA_DIR: dataDir, DATABASE_URL: database.url, HOST: '127.0.0.1', SSH_PORT: '0', EXTERNAL_URL: '' },
    async drop() {
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A port something else holds. */
async function takenPort(): Promise<net.Server> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const portOf = (server: net.Server) => (server.address() as net.AddressInfo).port;

/** A failure as a newcomer should see it: exit 1, one line on stderr, no stack trace. */
function assertOneLine(result: { code: number | null; stderr: string }, pattern: RegExp): void {
  assert.equal(result.code, 1, result.stderr);
  assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
  assert.match(result.stderr, pattern);
  assert.doesNotMatch(result.stderr, /\n\s+at /);
}

test('a port taken is one line naming PORT; the next start, by `forge` alone, creates root and prints working credentials', async () => {
  const instance = await freshInstance();
  const blocker = await takenPort();
  try {
    const failed = await runForge(['serve'], { ...instance.env, PORT: String(portOf(blocker)) });
    assertOneLine(failed, new RegExp(`port ${portOf(blocker)} is already in use.*set PORT`));

    // `forge` with no command serves.
    const server = startForge([], { ...instance.env, PORT: '0' });
    cleanups.push(() => server.killGroup());
    try {
      const [, url] = await server.waitFor(/listening on (http:\/\/\S+?)[\s,]/);
      await server.waitFor(/Run CI on this machine/);
      const password = server.stderr.match(/password:\s+(\S+)/)![1];
      const token = server.stderr.match(/private token:\s+(\S+)/)![1];
      const base = url.replace('localhost', '127.0.0.1');
      const me = await new ApiClient(base, token).get('/user');
      assert.equal(me.status, 200);
      assert.equal(me.body.username, 'root');
      assert.equal((await new ApiClient(base).post('/session', { login: 'root', password })).status, 201);
      // The human lines are on stderr; stdout holds the JSON log alone.
      for (const line of server.stdout.trim().split('\n')) assert.doesNotThrow(() => JSON.parse(line), line);
    } finally {
      server.child.kill('SIGTERM');
      const finished = await server.finished;
      assert.equal(finished.code, 0, `${finished.signal}\n${finished.stderr}\n${finished.stdout.slice(-2000)}`);
    }
    // Later starts print no credentials.
    const again = startForge(['serve'], { ...instance.env, PORT: '0' });
    cleanups.push(() => again.killGroup());
    await again.waitFor(/listening on/);
    again.child.kill('SIGTERM');
    const { code, signal, stderr } = await again.finished;
    assert.equal(code, 0, `${signal}\n${stderr}`);
    assert.doesNotMatch(stderr, /password:/);
  } finally {
    blocker.close();
    await instance.drop();
  }
});

test('a missing PostgreSQL database is one line naming DATABASE_URL, for the server and for forge admin', {
  skip: !process.env.TEST_DATABASE_URL,
}, async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-start-'));
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/forge_missing_${process.pid}`;
  try {
    const env = { DATA_DIR: dataDir, DATABASE_URL: url.toString(), HOST: '127.0.0.1', PORT: '0', SSH_PORT: '0' };
    assertOneLine(await runForge(['serve'], env), new RegExp(`database "forge_missing_${process.pid}" does not exist.*DATABASE_URL`));
    fs.writeFileSync(path.join(dataDir, 'secret.key'), Buffer.alloc(32).toString('base64'));
    const admin = await runForge(['admin', 'runners-token'], env);
    assert.equal(admin.code, 1);
    assert.match(admin.stderr.trim().split('\n')[1], /does not exist.*DATABASE_URL/);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('npm start runs one server that a SIGTERM to npm stops: npm and the server exit 0 and the port is free', async () => {
  const instance = await freshInstance();
  try {
    const npm = startForge(
      [],
      { ...instance.env, PORT: '0', INITIAL_ROOT_PASSWORD: 'rootpassword' },
      { file: 'npm', args: ['start', '--silent'] },
    );
    cleanups.push(() => npm.killGroup());
    const [, url] = await npm.waitFor(/listening on (http:\/\/\S+?)[\s,]/);
    const base = url.replace('localhost', '127.0.0.1');
    assert.equal((await fetch(`${base}/api/v3/user`)).status, 401);
    npm.child.kill('SIGTERM');
    const { code, stdout } = await npm.finished;
    assert.equal(code, 0);
    assert.match(stdout, /"signal":"SIGTERM","msg":"shutting down"/);
    await assert.rejects(fetch(`${base}/api/v3/user`), 'the server still answers after npm exited');
  } finally {
    await instance.drop();
  }
});
