import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { startApp } from '../support/app';
import { eventually } from '../support/eventually';
import { projectRunner, pushedProject } from '../api/runner-v4/world';

/** Longer than any close here needs, far shorter than the keep-alive timeout (72 s) a hang would last. */
const HANG_MS = 20_000;

function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still waiting after ${HANG_MS / 1000} s`)), HANG_MS);
  });
  return Promise.race([promise, hang]).finally(() => clearTimeout(timer));
}

test('closing, the server answers a held runner, ends a connection that never sent a request, and does not wait for it', async () => {
  const app = await startApp({ RUNNER_POLL_TIMEOUT_MS: '600000' });
  let closing: Promise<void> | undefined;
  try {
    const runner = await projectRunner(app, (await pushedProject(app, 'held')).id);
    const held = runner.requestJob();
    await eventually(() => app.ctx.buildQueue.waiting === 1, { message: 'the runner held' });
    // What a browser's preconnect leaves open: a connection with no request on it.
    const { port } = new URL(app.url);
    const unused = net.connect(Number(port), '127.0.0.1');
    await once(unused, 'connect');
    const unusedClosed = once(unused, 'close');

    closing = app.close();
    await within(closing, 'the close');
    assert.equal((await held).outcome, 'nothing');
    await within(unusedClosed, 'the unused connection');
  } finally {
    if (!closing) await app.close();
  }
});
