import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startApp, type TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { registrationToken } from '../support/ci-world';
import { RunnerProcess, pushCi } from '../support/runner-process';

/*
 * How the real `forge runner` process handles what is not a plain success: a failing script (and
 * its after_script), a cancel from the API, the project's build timeout, SIGTERM while a build runs,
 * a second start with the registration it kept, and a registration the server forgot.
 */

let app: TestApp;
let runner: RunnerProcess;
let restarted: RunnerProcess | undefined;
let project: { id: number; path_with_namespace: string };

before(async () => {
  // A runner forgotten by the server learns it at its next request: held for GitLab's 50 s by
  // default, that is how long the last test would wait.
  app = await startApp({ RUNNER_POLL_TIMEOUT_MS: '2000' });
  const created = await app.root.post('/projects', { name: 'runner-control' });
  assert.equal(created.status, 201);
  project = created.body;
  runner = RunnerProcess.start(app, { registrationToken: await registrationToken(app) });
  await runner.waitForOutput(/waiting for builds/);
});
after(async () => {
  await runner.close();
  await restarted?.close();
  await app.close();
});

/** The project's only build of `ref`, once there is one. */
async function buildOf(ref: string, projectId = project.id): Promise<any> {
  return eventually(async () => {
    const list = await app.root.get(`/projects/${projectId}/builds`);
    return list.body.find((build: any) => build.ref === ref);
  });
}

async function finished(build: any, projectId = project.id): Promise<any> {
  return eventually(
    async () => {
      const current = await app.root.get(`/projects/${projectId}/builds/${build.id}`);
      return ['success', 'failed', 'canceled'].includes(current.body.status) && current.body;
    },
    { message: `build ${build.id} finishing` },
  );
}

async function trace(build: any, projectId = project.id): Promise<string> {
  const response = await app.root.get(`/projects/${projectId}/builds/${build.id}/trace`);
  return response.status === 200 ? response.text : '';
}

async function runnerCount(): Promise<number> {
  const row = await app.ctx.db
    .selectFrom('ci_runners')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Whether the process has ended: no such process, or a zombie (killed, not yet reaped by whoever adopted it). */
const processGone = (pid: number) => {
  try {
    process.kill(pid, 0);
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
};

describe('forge runner', () => {
  test('registers once and keeps its token in a file only its owner reads', async () => {
    assert.equal(await runnerCount(), 1);
    const kept = JSON.parse(fs.readFileSync(runner.configFile, 'utf8'));
    assert.equal(kept.url, app.url);
    assert.match(kept.token, /^[0-9a-f]{30}$/);
    assert.equal(fs.statSync(runner.configFile).mode & 0o777, 0o600);
    assert.match(runner.output, new RegExp(`registered runner #${kept.id}`));
  });

  test('a failing command fails the build; after_script still runs, its own failure ignored', async () => {
    await pushCi(
      app,
      project,
      'failing',
      `
job:
  script:
    - echo before
    - "false"
    - echo never
  after_script:
    - echo "after ran for $CI_BUILD_NAME"
    - exit 4
`,
    );
    const build = await finished(await buildOf('failing'));
    assert.equal(build.status, 'failed');
    const text = await trace(build);
    assert.match(
      text,
      /\$ echo before\nbefore\n\$ false\nRunning after script\.\.\.\n\$ echo "after ran for \$CI_BUILD_NAME"\nafter ran for job\n\$ exit 4\nWARNING: after_script failed: exit code 4\n/,
    );
    assert.doesNotMatch(text, /never/);
    assert.match(text, /ERROR: Build failed: exit code 1\n$/);
  });

  test('a build canceled through the API while it prints nothing is seen within seconds and killed, process group and all; the runner goes on', async () => {
    await pushCi(
      app,
      project,
      'cancel',
      `
sleeper:
  script:
    - echo $$ > "$GATE_DIR/shell-$CI_BUILD_ID"
    - sleep 600 & echo $! > "$GATE_DIR/sleep-$CI_BUILD_ID"; wait
`,
    );
    const build = await buildOf('cancel');
    const pidFile = (name: string) => path.join(runner.gateDir, `${name}-${build.id}`);
    const pids = await eventually(
      () => {
        const read = (name: string) => (fs.existsSync(pidFile(name)) ? Number(fs.readFileSync(pidFile(name), 'utf8')) : 0);
        const [shell, sleeper] = [read('shell'), read('sleep')];
        return shell > 0 && sleeper > 0 && [shell, sleeper];
      },
      { message: 'the build writing its pids' },
    );
    assert.equal(pids.some(processGone), false);
    // The runner has sent all the build printed: from now on it prints nothing, so the runner's
    // trace uploader has nothing to send.
    await eventually(async () => (await trace(build)).includes('$ sleep 600 &'), { message: 'the trace reaching the server' });
    const canceled = await app.root.post(`/projects/${project.id}/builds/${build.id}/cancel`);
    assert.equal(canceled.status, 201);
    // Seen within seconds although the build prints nothing (runner 1.x's keep-alive PATCH would
    // take up to 30 s): the bound only turns "not within 10 s" into a failure, well under the sleep.
    await eventually(() => new RegExp(`build ${build.id} canceled in [\\d.]+ s`).test(runner.output), {
      timeout: 10_000,
      message: 'the runner seeing the cancel',
    });
    // The shell and its background sleep, killed with their group (the sleep may take a moment to be reaped).
    await eventually(() => pids.every(processGone), { message: "the build's processes ending" });
    assert.equal((await app.root.get(`/projects/${project.id}/builds/${build.id}`)).body.status, 'canceled');

    await pushCi(app, project, 'after-cancel', 'job:\n  script: echo next\n');
    const next = await finished(await buildOf('after-cancel'));
    assert.equal(next.status, 'success');
  });

  test('the project build timeout kills the build and fails it with a line saying so', async () => {
    const created = await app.root.post('/projects', { name: 'runner-timeout' });
    await app.ctx.db.updateTable('projects').set({ build_timeout: 1 }).where('id', '=', created.body.id).execute();
    await pushCi(app, created.body, 'master', 'slow:\n  script: sleep 600\n');
    const build = await finished(await buildOf('master', created.body.id), created.body.id);
    assert.equal(build.status, 'failed');
    assert.match(await trace(build, created.body.id), /\$ sleep 600\nERROR: Build failed: execution took longer than 1 seconds\n$/);
    await runner.waitForOutput(new RegExp(`build ${build.id} timed out in`));
  });

  test('SIGTERM while a build runs: the build finishes, then the runner exits 0', async () => {
    await pushCi(
      app,
      project,
      'sigterm',
      `
job:
  script:
    - until [ -f "$GATE_DIR/sigterm" ]; do sleep 0.05; done
    - echo finished
`,
    );
    const build = await buildOf('sigterm');
    await runner.waitForOutput(new RegExp(`build ${build.id} started`));
    runner.signal('SIGTERM');
    await runner.waitForOutput(/stopping: waiting for 1 build\(s\) to finish/);
    assert.equal(runner.running, true);
    runner.open('sigterm');
    assert.equal(await runner.exited, 0);
    const done = await finished(build);
    assert.equal(done.status, 'success');
    assert.match(await trace(done), /\$ echo finished\nfinished\n/);
  });

  test('started again, the runner reuses its registration; forgotten by the server, it says so and exits 1', async () => {
    restarted = RunnerProcess.start(app, { dir: runner.dir, gateDir: runner.gateDir });
    await restarted.waitForOutput(/using runner #\d+ registered earlier/);
    assert.equal(await runnerCount(), 1);
    await pushCi(app, project, 'second-start', 'job:\n  script: echo again\n');
    assert.equal((await finished(await buildOf('second-start'))).status, 'success');
    assert.equal(await runnerCount(), 1);

    const { token } = JSON.parse(fs.readFileSync(restarted.configFile, 'utf8'));
    const removed = await fetch(`${app.url}/ci/api/v1/runners/delete`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    assert.equal(removed.status, 200);
    assert.equal(await restarted.exited, 1);
    assert.match(restarted.output, /ERROR: the server no longer knows runner #\d+ \(403\)/);
  });
});
