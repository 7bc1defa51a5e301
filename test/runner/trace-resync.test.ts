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
 * The runner's trace channel when the server and the runner disagree (reference §2.5, §8.6).
 *
 * A 416 through the real server: while a build of the real `forge runner` streams its trace, the
 * test appends a part of its own with the build's token, so the server holds bytes the runner never
 * sent; the runner's next PATCH gets 416 and must go on from the server's `Range`.
 *
 * A 404 cannot be provoked through the real server for a running build: PATCH answers 404 only
 * for a build id that does not exist (`authorizeBuild`), and then the PUTs the runner falls back
 * to answer 404 too (and abort the build). So the fallback to whole-trace PUTs is proven against a
 * small HTTP server on a loopback port that answers as such a server would.
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
        const response = await fetch(`${app.url}/ci/api/v1/builds/${buildId}/trace.txt`, {
          method: 'PATCH',
          headers: { 'content-type': 'text/plain', 'content-range': `${from}-${from + part.length}`, 'build-token': buildToken },
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

  test("the runner resyncs from the server's Range and the final trace holds every line once, in order", async () => {
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
    assert.deepEqual(final.match(/^line-\d$/gm), ['line-1', 'line-2', 'line-3', 'line-4', 'line-5', 'line-6', 'line-7', 'line-8']);
    assert.match(final, /Build succeeded\n$/);
    // A final PUT replaces the stored trace only when longer (src/services/ci/builds/traces.ts). After the
    // resync the stored trace is as long as what the runner has had acknowledged, and the runner
    // writes its last line after its last PATCH: its whole trace is longer and replaces the stored
    // one, so the part it never produced is gone.
    assert.equal(final.includes(injected), false);
  });
});

/** What the loopback server received. */
interface Received {
  method: string;
  path: string;
  contentRange?: string;
  body: string;
}

/** A loopback HTTP server answering the runner API as `answer` says, recording every request. */
async function loopbackServer(
  answer: (request: Received) => { status: number; headers?: Record<string, string> },
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
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(entry);
      const { status, headers = {} } = answer(entry);
      response.writeHead(status, headers).end(status === 200 ? 'true' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const puts = (received: Received[]) => received.filter((r) => r.method === 'PUT').map((r) => JSON.parse(r.body));

describe("the runner's trace uploader against a loopback server", () => {
  test('a 404 on PATCH switches to whole-trace PUTs for good, and the final PUT carries the whole trace', async () => {
    const server = await loopbackServer((request) => ({ status: request.method === 'PATCH' ? 404 : 200 }));
    const aborts: string[] = [];
    const uploader = new TraceUploader(new RunnerApi(server.url), 'runner-token', { id: 7, token: 'build-token' }, (reason) =>
      aborts.push(reason),
    );
    try {
      uploader.start();
      uploader.line('first');
      await eventually(() => puts(server.received).some((body) => body.trace === 'first\n'), {
        message: 'a PUT with the trace after the 404',
      });
      uploader.line('second');
      await eventually(() => puts(server.received).some((body) => body.trace === 'first\nsecond\n'), {
        message: 'a PUT with the grown trace',
      });
      uploader.line('third');
      assert.equal(await uploader.finish('success'), 200);

      assert.deepEqual(aborts, []);
      assert.equal(server.received.filter((r) => r.method === 'PATCH').length, 1, 'no PATCH after the 404');
      const last = puts(server.received).at(-1);
      assert.equal(last.state, 'success');
      assert.equal(last.trace, 'first\nsecond\nthird\n');
      assert.ok(server.received.every((r) => r.method !== 'PUT' || r.path === '/ci/api/v1/builds/7.json'));
    } finally {
      await uploader.stop();
      await server.close();
    }
  });

  test('a 416 with a server holding more: the whole trace goes with a PUT, and a 404 to that PUT aborts the build', async () => {
    const server = await loopbackServer((request) => {
      if (request.method === 'PATCH') return { status: 416, headers: { range: '0-1000' } };
      // The first tick's `{state: running}` carries no trace and is taken; the build is gone by the resync's PUT.
      return { status: JSON.parse(request.body).trace === undefined ? 200 : 404 };
    });
    const aborts: string[] = [];
    const uploader = new TraceUploader(new RunnerApi(server.url), 'runner-token', { id: 7, token: 'build-token' }, (reason) =>
      aborts.push(reason),
    );
    try {
      uploader.start();
      uploader.line('short');
      await eventually(() => aborts.length > 0, { message: 'the uploader aborting' });
      assert.deepEqual(
        puts(server.received).map((body) => body.trace),
        [undefined, 'short\n'],
      );
      assert.equal(server.received.find((r) => r.method === 'PATCH')?.contentRange, '0-6');
    } finally {
      await uploader.stop();
      await server.close();
    }
  });
});
