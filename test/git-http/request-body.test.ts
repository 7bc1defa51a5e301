/**
 * git POST bodies that git does not read to their end (garbage, bodies that are not gzip, clients
 * that leave mid-upload), over real HTTP: each is answered, the kept-alive connection then serves
 * the next request or is closed cleanly, and no git process is left behind.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { startApp, type TestApp } from '../support/app';
import { eventually } from '../support/eventually';

/** An answer slower than this is a hang: the test fails rather than waiting for the suite's time-out. */
const TIMEOUT_MS = 10_000;
const ZERO = '0'.repeat(40);

let app: TestApp;
let publicPath: string;
let master: string;
const rootBasic = `Basic ${Buffer.from('root:rootpassword').toString('base64')}`;

before(async () => {
  app = await startApp();
  const created = await app.root.post('/projects', { name: 'bodies', visibility_level: 20 });
  assert.equal(created.status, 201);
  publicPath = created.body.path_with_namespace;
  const file = await app.root.post(`/projects/${created.body.id}/repository/files`, {
    file_path: 'README.md',
    branch_name: 'master',
    content: 'hi\n',
    commit_message: 'first',
  });
  assert.equal(file.status, 201, JSON.stringify(file.body));
  master = (await app.root.get(`/projects/${created.body.id}/repository/branches/master`)).body.commit.id;
});
after(() => app.close());

const pkt = (line: string) => (line.length + 4).toString(16).padStart(4, '0') + line;

interface Answer {
  status: number;
  text: string;
  connection: string | undefined;
  /** Whether the request went over a connection an earlier request had used. */
  reused: boolean;
}

function send(agent: http.Agent, method: string, path: string, headers: Record<string, string>, body?: Buffer | string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${app.url}${path}`, { method, headers, agent, timeout: TIMEOUT_MS }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          text: Buffer.concat(chunks).toString('utf8'),
          connection: response.headers.connection,
          reused: request.reusedSocket,
        }),
      );
    });
    request.on('timeout', () => {
      request.destroy();
      reject(new Error(`${method} ${path}: no answer in ${TIMEOUT_MS / 1000} s`));
    });
    // After a complete answer, a reset of the rest of an upload is no failure of the request.
    request.on('error', reject);
    request.end(body);
  });
}

/** A git POST, then `GET /api/v3/user` on the same kept-alive connection (one socket at most). */
async function postThenNext(
  service: string,
  body: Buffer | string,
  options: { headers?: Record<string, string>; anonymous?: boolean } = {},
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const headers = {
      'content-type': `application/x-git-${service}-request`,
      ...(options.anonymous ? {} : { authorization: rootBasic }),
      ...options.headers,
    };
    const first = await send(agent, 'POST', `/${publicPath}.git/git-${service}`, headers, body);
    const next = await send(agent, 'GET', '/api/v3/user', { 'private-token': app.rootToken });
    assert.equal(next.status, 200, 'the next request is answered');
    return { first, next };
  } finally {
    agent.destroy();
  }
}

const MEGABYTE_OF_NULS = Buffer.alloc(1024 * 1024);

describe('a git POST whose body git leaves unread, then a request on the same kept-alive connection', () => {
  for (const service of ['upload-pack', 'receive-pack']) {
    test(`${service}: 1 MB of NUL bytes (no pkt-line) is refused with 400 and the connection serves the next request`, async () => {
      const { first, next } = await postThenNext(service, MEGABYTE_OF_NULS);
      assert.equal(first.status, 400);
      assert.equal(first.text, 'The request body is not in git pkt-line format\n');
      assert.notEqual(first.connection, 'close');
      assert.equal(next.reused, true, 'the same connection carried the next request');
    });

    test(`${service}: over 1 MiB of a body git will not read closes the connection after the answer (Connection: close); the next request gets a new one`, async () => {
      const { first, next } = await postThenNext(service, Buffer.concat([MEGABYTE_OF_NULS, MEGABYTE_OF_NULS]));
      assert.equal(first.status, 400);
      assert.equal(first.connection, 'close');
      assert.equal(next.reused, false);
    });
  }

  test('upload-pack anonymously on a public project: 1 MB of NUL bytes, then the next request', async () => {
    const { first, next } = await postThenNext('upload-pack', MEGABYTE_OF_NULS, { anonymous: true });
    assert.equal(first.status, 400);
    assert.equal(next.reused, true);
  });

  test('upload-pack: pkt-lines git gives up on after the first line (the rest is read away), then the next request', async () => {
    const body = Buffer.concat([Buffer.from(`${pkt(`want ${'z'.repeat(40)}\n`)}0000`), Buffer.alloc(512 * 1024, 'x')]);
    const { first, next } = await postThenNext('upload-pack', body);
    assert.ok(first.status < 500, `answered ${first.status}`);
    assert.equal(next.reused, true);
  });

  test('upload-pack: over 1 MiB of pkt-lines git gives up on early: an answer with Connection: close, then the next request', async () => {
    const body = Buffer.concat([Buffer.from(`${pkt(`want ${'z'.repeat(40)}\n`)}0000`), Buffer.alloc(2 * 1024 * 1024, 'x')]);
    const { first, next } = await postThenNext('upload-pack', body);
    assert.ok(first.status < 500, `answered ${first.status}`);
    assert.equal(first.connection, 'close');
    assert.equal(next.reused, false);
  });

  test('receive-pack: a ref update followed by a pack that is not one, then the next request', async () => {
    const body = Buffer.concat([
      Buffer.from(`${pkt(`${ZERO} ${master} refs/heads/not-a-pack\0 report-status\n`)}0000`),
      Buffer.alloc(256 * 1024, 'x'),
    ]);
    const { first, next } = await postThenNext('receive-pack', body);
    assert.ok(first.status < 500, `answered ${first.status}`);
    assert.equal(next.reused, true);
  });
});

describe('content-encoding: gzip with a body that is not gzip', () => {
  for (const service of ['upload-pack', 'receive-pack']) {
    test(`${service}: a body that is not gzip at all is 400 with a plain-text reason, and the connection holds`, async () => {
      const { first, next } = await postThenNext(service, 'not gzip at all', { headers: { 'content-encoding': 'gzip' } });
      assert.equal(first.status, 400);
      assert.equal(first.text, 'The request body is not valid gzip\n');
      assert.equal(next.reused, true);
    });

    test(`${service}: a truncated gzip stream is 400, and the connection holds`, async () => {
      const request =
        service === 'upload-pack'
          ? `${pkt(`want ${master}\n`)}0000${pkt('done\n')}`
          : `${pkt(`${ZERO} ${master} refs/heads/x\0 report-status\n`)}0000`;
      const whole = gzipSync(Buffer.from(request));
      const { first, next } = await postThenNext(service, whole.subarray(0, whole.length - 12), {
        headers: { 'content-encoding': 'gzip' },
      });
      assert.equal(first.status, 400);
      assert.equal(first.text, 'The request body is not valid gzip\n');
      assert.equal(next.reused, true);
    });
  }

  test('x-gzip that is valid still fetches', async () => {
    const body = gzipSync(Buffer.from(`${pkt(`want ${master}\n`)}0000${pkt('done\n')}`));
    const { first } = await postThenNext('upload-pack', body, { headers: { 'content-encoding': 'x-gzip' } });
    assert.equal(first.status, 200);
    assert.match(first.text, /^0008NAK\nPACK/);
  });
});

/** The git transport processes under this test process (the server runs in it), with their arguments. */
function gitServiceProcesses(): string[] {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null);
  const mine = new Set([process.pid]);
  // Descendants, so that receive-pack's own children (unpack-objects, index-pack) count too.
  for (let grew = true; grew; ) {
    grew = false;
    for (const [, pid, ppid] of table) if (mine.has(Number(ppid)) && !mine.has(Number(pid))) grew = mine.add(Number(pid)) !== undefined;
  }
  return table
    .filter(([, pid, , args]) => mine.has(Number(pid)) && /upload-pack|receive-pack|unpack-objects|index-pack/.test(args))
    .map(([, , , args]) => args);
}

describe('a client that leaves mid-upload', () => {
  const partial = (service: string) =>
    service === 'upload-pack'
      ? // A want (of a commit git has: it checks each at once) without the flush that ends them: upload-pack waits for more.
        pkt(`want ${master}\n`)
      : // A ref update and the start of a pack that promises three objects: receive-pack waits for them.
        `${pkt(`${ZERO} ${master} refs/heads/left\0 report-status\n`)}0000PACK\0\0\0\x02\0\0\0\x03`;
  for (const service of ['upload-pack', 'receive-pack']) {
    test(`${service}: leaves no git process running`, async () => {
      assert.deepEqual(gitServiceProcesses(), []);
      const request = http.request(`${app.url}/${publicPath}.git/git-${service}`, {
        method: 'POST',
        headers: { 'content-type': `application/x-git-${service}-request`, authorization: rootBasic, 'transfer-encoding': 'chunked' },
      });
      request.on('error', () => {});
      request.write(Buffer.from(partial(service), 'latin1'));
      await eventually(() => gitServiceProcesses().length > 0, { timeout: TIMEOUT_MS, message: `git ${service} starting` });
      request.destroy();
      await eventually(() => gitServiceProcesses().length === 0, {
        timeout: TIMEOUT_MS,
        message: `git ${service} ending once its client left`,
      });
    });
  }
});
