import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createRootProject } from '../../support/repo';
import { RUNNER_USER_AGENT } from '../../support/runner-client';
import { storedZip } from '../../support/zip';
import { registeredRunner, seedPipeline } from '../../support/ci-world';

/*
 * An upload the runner API refuses (a wrong build token, a finished build, a file over the limit,
 * a trace part for someone else's build) is answered with its 4xx, and Node's own `fetch` sees
 * that answer: a body up to 1 MiB is read and dropped before answering (closing the connection
 * under a client still sending made `fetch` fail with EPIPE or a reset instead of the 403). Past
 * 1 MiB the server stops reading and closes: nobody reads a refused upload to its end.
 */

const MIB = 1024 * 1024;

let app: TestApp;
let projects = 0;

before(async () => {
  app = await startApp({ MAX_ARTIFACTS_SIZE_MB: '1' });
});
after(() => app.close());

async function running() {
  const p = await createRootProject(app, `refused${++projects}`);
  await seedPipeline(app, p.id, { sha: p.head, builds: [{ name: 'compile' }] });
  const runner = await registeredRunner(app, { projectId: p.id });
  const got: any = await runner.requestBuild();
  assert.equal(got.outcome, 'build');
  return { runner, build: got.build as { id: number; token: string } };
}

/** A multipart body of one `file` part holding `content`. */
function multipart(content: Buffer): { body: Uint8Array<ArrayBuffer>; type: string } {
  const boundary = 'forge-test-boundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="artifacts.zip"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body: new Uint8Array(body), type: `multipart/form-data; boundary=${boundary}` };
}

/** A body of `total` bytes made as it is read, counting what the client was asked for. */
function countedBody(total: number): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= total) return controller.close();
      const part = chunk.subarray(0, Math.min(chunk.length, total - pulled));
      pulled += part.length;
      controller.enqueue(part);
    },
  });
  return { stream, pulled: () => pulled };
}

const artifactsUrl = (id: number) => `${app.url}/ci/api/v1/builds/${id}/artifacts`;
const traceUrl = (id: number) => `${app.url}/ci/api/v1/builds/${id}/trace.txt`;

/** The status `fetch` saw, or the name of the error it failed with. */
async function statusOf(url: string, init: RequestInit): Promise<number | string> {
  try {
    const response = await fetch(url, init);
    await response.arrayBuffer();
    return response.status;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return `fetch failed: ${cause?.code ?? (error as Error).message}`;
  }
}

describe('POST /ci/api/v1/builds/:id/artifacts refused', () => {
  test('a small multipart body with a wrong build token: fetch sees the 403', async () => {
    const { build } = await running();
    const { body, type } = multipart(await storedZip({ 'a.txt': 'x'.repeat(300) }));
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await fetch(artifactsUrl(build.id), {
        method: 'POST',
        body,
        headers: { 'content-type': type, 'build-token': 'wrong', 'user-agent': RUNNER_USER_AGENT },
      });
      assert.equal(response.status, 403, `attempt ${attempt}`);
      assert.deepEqual(await response.json(), { message: '403 Forbidden' });
      // The body was read: the connection is kept for the next request, not closed under the client.
      assert.notEqual(response.headers.get('connection'), 'close');
    }
  });

  test('a small body still on its way when the token is refused (streamed, as runners send archives): fetch sees the 403', async () => {
    const { build } = await running();
    const { body, type } = multipart(Buffer.alloc(700, 0x62));
    // The rest of the body follows the first bytes a little later, as a zip being written would:
    // the refusal is ready before it arrives.
    const slow = () =>
      new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(body.subarray(0, 100));
          await new Promise((resolve) => setTimeout(resolve, 300));
          controller.enqueue(body.subarray(100));
          controller.close();
        },
      });
    for (const headers of [{ 'content-length': String(body.length) }, {}]) {
      const response = await fetch(artifactsUrl(build.id), {
        method: 'POST',
        body: slow(),
        duplex: 'half',
        headers: { 'content-type': type, 'build-token': 'wrong', ...headers },
      } as RequestInit);
      assert.equal(response.status, 403, JSON.stringify(headers));
      assert.notEqual(response.headers.get('connection'), 'close');
      await response.arrayBuffer();
    }
  });

  test('a finished build: fetch sees 403 Build is not running!', async () => {
    const { runner, build } = await running();
    assert.equal((await runner.updateState(build as any, 'success')).status, 200);
    const { body, type } = multipart(Buffer.alloc(500, 0x63));
    const response = await fetch(artifactsUrl(build.id), {
      method: 'POST',
      body,
      headers: { 'content-type': type, 'build-token': build.token },
    });
    assert.equal(response.status, 403);
    assert.deepEqual(await response.json(), { message: '403 Forbidden - Build is not running!' });
    assert.notEqual(response.headers.get('connection'), 'close');
  });

  test('a file over the limit: fetch sees the 413 when the body is within 1 MiB of it', async () => {
    // The limit is 1 MiB: a file of 1 MiB and a few bytes is refused once busboy has read past the limit.
    const { build } = await running();
    const { body, type } = multipart(Buffer.alloc(MIB + 100, 0x64));
    const status = await statusOf(artifactsUrl(build.id), {
      method: 'POST',
      body,
      headers: { 'content-type': type, 'build-token': build.token },
    });
    assert.equal(status, 413);
  });

  test('a large body (> 1 MiB) with a wrong token is refused without being read to its end', async () => {
    const { build } = await running();
    const total = 64 * MIB;
    const { stream, pulled } = countedBody(total);
    const status = await statusOf(artifactsUrl(build.id), {
      method: 'POST',
      body: stream,
      duplex: 'half',
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'build-token': 'wrong' },
    } as RequestInit);
    assert.ok(status === 403 || typeof status === 'string', `status ${status}`);
    assert.ok(pulled() < total, `the client sent all of it (${pulled()} bytes)`);
    // The server is none the worse for it.
    const { body, type } = multipart(Buffer.alloc(10));
    assert.equal(
      await statusOf(artifactsUrl(build.id), { method: 'POST', body, headers: { 'content-type': type, 'build-token': 'wrong' } }),
      403,
    );
  });
});

describe('PATCH /ci/api/v1/builds/:id/trace.txt refused', () => {
  test('a small part with a wrong build token: fetch sees the 403', async () => {
    const { build } = await running();
    const response = await fetch(traceUrl(build.id), {
      method: 'PATCH',
      body: new Uint8Array(400).fill(0x65),
      headers: { 'content-type': 'text/plain', 'content-range': '0-400', 'build-token': 'wrong', 'user-agent': RUNNER_USER_AGENT },
    });
    assert.equal(response.status, 403);
    assert.notEqual(response.headers.get('connection'), 'close');
  });

  test('a large part (> 1 MiB) with a wrong token is refused without being read to its end', async () => {
    const { build } = await running();
    const total = 12 * MIB;
    const { stream, pulled } = countedBody(total);
    const status = await statusOf(traceUrl(build.id), {
      method: 'PATCH',
      body: stream,
      duplex: 'half',
      headers: { 'content-type': 'text/plain', 'content-range': `0-${total}`, 'build-token': 'wrong' },
    } as RequestInit);
    assert.ok(status === 403 || typeof status === 'string', `status ${status}`);
    assert.ok(pulled() < total, `the client sent all of it (${pulled()} bytes)`);
  });
});
