import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApp, type TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { registrationToken } from '../support/ci-world';
import { RunnerProcess, pushCi } from '../support/runner-process';
import { RunnerApi } from '../../src/runner/api';
import { TraceUploader } from '../../src/runner/trace';

/*
 * The runner's trace channel when the server and the runner disagree, as gitlab-runner handles it.
 *
 * A 416 through the real server: while a job of the real `forge runner` streams its trace, the
 * test appends a part of its own with the job's token, so the server holds bytes the runner never
 * sent; the runner's next PATCH gets 416 and must go on from the end of the server's `Range`.
 *
 * What the real server never answers for a running job (a 416 with less than the runner sent, a
 * 202 to the final update) is proven against a small HTTP server on a loopback port.
 */

describe('forge runner against the real server: a 416 on its trace', () => {
  let app: TestApp;
  let runner: RunnerProcess;

  before(async () => {
    app = await startApp();
    runner = RunnerProcess.start(app, { registrationToken: await registrationToken(app) });
    await runner.waitForOutput(/waiting for builds/);
  });
  after(async () => {
    await runner.close();
    await app.close();
  });

  async function trace(projectId: number, buildId: number): Promise<string> {
    const response = await app.root.get(`/projects/${projectId}/builds/${buildId}/trace`);
    return response.status === 200 ? response.text : '';
  }

  /** Appends `text` to the stored trace as a runner would, resyncing on 416 until it lands; the offset it landed at. */
  async function appendAsRunner(buildId: number, buildToken: string, text: string): Promise<number> {
    const part = Buffer.from(text);
    let from = 0;
    return eventually(
      async () => {
        const response = await fetch(`${app.url}/api/v4/jobs/${buildId}/trace`, {
          method: 'PATCH',
          headers: { 'content-type': 'text/plain', 'content-range': `${from}-${from + part.length - 1}`, 'job-token': buildToken },
          body: part,
        });
        await response.text();
        if (response.status === 202) return { at: from };
        assert.equal(response.status, 416, 'a part is either appended or answered with the stored length');
        from = Number(/-(\d+)$/.exec(response.headers.get('range') ?? '')?.[1]);
        return undefined;
      },
      { message: 'the injected part landing' },
    ).then(({ at }) => at);
  }

  test("the runner goes on from the end of the server's Range: the server's part stays, and every line printed after it follows once, in order", async () => {
    const created = await app.root.post('/projects', { name: 'trace-resync' });
    assert.equal(created.status, 201);
    const project = created.body;
    // Four lines, then a wait (still writing, so the runner keeps PATCHing) until the test has seen
    // the resync, then four more.
    await pushCi(
      app,
      project,
      'master',
      `
job:
  script:
    - for i in $(seq 1 4); do echo line-$i; sleep 1; done
    - until [ -f "$GATE_DIR/resynced" ]; do echo waiting; sleep 0.5; done
    - for i in $(seq 5 8); do echo line-$i; sleep 1; done
`,
    );
    const build = await eventually(async () =>
      (await app.root.get(`/projects/${project.id}/builds`)).body.find((b: any) => b.ref === 'master'),
    );
    // The runner has PATCHed at least once: the server's trace is under way.
    await eventually(async () => /^line-1$/m.test(await trace(project.id, build.id)), { message: 'line-1 on the server' });

    const row = await app.ctx.db.selectFrom('ci_builds').select('token_sealed').where('id', '=', build.id).executeTakeFirstOrThrow();
    const injected = 'INJECTED BY THE TEST\n';
    const at = await appendAsRunner(build.id, app.ctx.secrets.unseal(row.token_sealed!), injected);
    assert.ok(at > 0);

    // The runner's next PATCH starts where it left off, below the stored length: 416. Bytes after the
    // injected part can only come from a PATCH sent from the `Range` that 416 answered.
    await eventually(
      async () => {
        const text = await trace(project.id, build.id);
        const end = text.indexOf(injected);
        return end !== -1 && text.length > end + injected.length;
      },
      { message: 'the runner appending after the injected part' },
    );
    runner.open('resynced');

    const done = await eventually(
      async () => {
        const current = (await app.root.get(`/projects/${project.id}/builds/${build.id}`)).body;
        return ['success', 'failed', 'canceled'].includes(current.status) && current;
      },
      { message: 'the build finishing' },
    );
    assert.equal(done.status, 'success');

    const final = await trace(project.id, build.id);
    // gitlab-runner trusts the server's length: the injected part is kept once, and the runner's
    // bytes from that length on follow it (lines 5 to 8 were printed after the test saw the resync).
    assert.equal(final.split(injected).length, 2);
    const after = final.slice(final.indexOf(injected) + injected.length);
    assert.deepEqual(after.match(/^line-\d$/gm), ['line-5', 'line-6', 'line-7', 'line-8']);
    assert.match(final, /^line-1$/m);
    assert.match(final, /Build succeeded\n$/);
  });
});

/** What the loopback server received. */
interface Received {
  method: string;
  path: string;
  contentRange?: string;
  jobToken?: string;
  body: string;
}

type Reply = { status: number; headers?: Record<string, string> };

/** A loopback HTTP server answering the runner API v4 as `answer` says, recording every request. */
async function loopbackServer(
  answer: (request: Received) => Reply,
): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry: Received = {
        method: request.method!,
        path: request.url!,
        contentRange: request.headers['content-range'],
        jobToken: request.headers['job-token'] as string | undefined,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(entry);
      const { status, headers = {} } = answer(entry);
      response.writeHead(status, headers).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const patches = (received: Received[]) => received.filter((r) => r.method === 'PATCH');
const puts = (received: Received[]) => received.filter((r) => r.method === 'PUT').map((r) => JSON.parse(r.body));

describe("the runner's trace uploader against a loopback server", () => {
  test('a 416 whose Range holds less than was sent: the part goes again from the end of that Range, with the job token', async () => {
    let stored = 0;
    const server = await loopbackServer((request): Reply => {
      if (request.method !== 'PATCH') return { status: 200 };
      const [from, last] = request.contentRange!.split('-').map(Number);
      // The first part is taken; the second is refused as if the server had lost the first's last 3 bytes.
      if (patches(server.received).length === 2) {
        stored -= 3;
        return { status: 416, headers: { range: `0-${stored}` } };
      }
      if (from !== stored) return { status: 416, headers: { range: `0-${stored}` } };
      stored = last + 1;
      return { status: 202, headers: { range: `0-${stored}`, 'job-status': 'running' } };
    });
    const aborts: string[] = [];
    const uploader = new TraceUploader(new RunnerApi(server.url), { id: 7, token: 'job-token' }, (reason) => aborts.push(reason));
    try {
      uploader.line('first');
      assert.equal(await uploader.finish({ state: 'success' }), 'succeeded');
      const more = new TraceUploader(new RunnerApi(server.url), { id: 7, token: 'job-token' }, (reason) => aborts.push(reason));
      more.line('first');
      more.line('second');
      // The second uploader starts from 0: its first PATCH is the server's second, refused with 0-3.
      assert.equal(await more.finish({ state: 'success' }), 'succeeded');
      assert.deepEqual(
        patches(server.received).map((r) => [r.contentRange, r.body]),
        [
          ['0-5', 'first\n'],
          ['0-12', 'first\nsecond\n'],
          ['3-12', 'st\nsecond\n'],
        ],
      );
      assert.ok(server.received.every((r) => r.method !== 'PATCH' || (r.path === '/api/v4/jobs/7/trace' && r.jobToken === 'job-token')));
      assert.deepEqual(aborts, []);
    } finally {
      await uploader.stop();
      await server.close();
    }
  });

  test('the final update carries the state, the failure reason, the exit code and the trace size, and goes again while answered 202', async () => {
    const server = await loopbackServer((request): Reply => {
      if (request.method === 'PATCH') return { status: 202, headers: { range: `0-${request.body.length}` } };
      // "Not yet": the server asks again in a second.
      return puts(server.received).length === 1 ? { status: 202, headers: { 'x-gitlab-trace-update-interval': '1' } } : { status: 200 };
    });
    const uploader = new TraceUploader(new RunnerApi(server.url), { id: 9, token: 'job-token' }, () => undefined);
    try {
      uploader.line('boom');
      assert.equal(await uploader.finish({ state: 'failed', failureReason: 'script_failure', exitCode: 3 }), 'succeeded');
      const [first, second] = puts(server.received);
      assert.deepEqual(second, first);
      assert.equal(first.state, 'failed');
      assert.equal(first.failure_reason, 'script_failure');
      assert.equal(first.exit_code, 3);
      assert.equal(first.token, 'job-token');
      assert.equal(first.output.bytesize, 5);
      assert.match(first.output.checksum, /^crc32:[0-9a-f]{8}$/);
      assert.equal(first.trace, undefined);
      assert.ok(server.received.every((r) => r.method !== 'PUT' || r.path === '/api/v4/jobs/9'));
    } finally {
      await server.close();
    }
  });

  test('Job-Status: canceled on a trace part aborts the job', async () => {
    const server = await loopbackServer(() => ({ status: 202, headers: { range: '0-4', 'job-status': 'canceled' } }));
    const aborts: string[] = [];
    const uploader = new TraceUploader(new RunnerApi(server.url), { id: 7, token: 'job-token' }, (reason) => aborts.push(reason));
    try {
      uploader.line('abc');
      uploader.start();
      await eventually(() => aborts.length > 0, { message: 'the uploader aborting' });
      assert.match(aborts[0]!, /canceled/);
    } finally {
      await uploader.stop();
      await server.close();
    }
  });
});
