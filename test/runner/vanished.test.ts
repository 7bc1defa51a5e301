import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startApp, type TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { registrationToken } from '../support/ci-world';
import { RunnerProcess, pushCi } from '../support/runner-process';
import { dropStuckBuilds } from '../../src/services/ci/builds/stuck-builds';

/*
 * A real `forge runner` that dies (SIGKILL: no final update) in the middle of a build leaves the
 * build running on the server; the stuck-builds sweep fails it once the project's build timeout
 * (and the margin a live runner has to report its end) has passed, so nothing stays running for
 * ever. The sweep is called with a later clock, as its ten-minute schedule would run it then.
 */

/** How long past its timeout a running build may still be reported by its runner (`REPORT_GRACE_MS`). */
const GRACE = 5 * 60_000;

let app: TestApp;
let runner: RunnerProcess;
let buildGroup: number | undefined;

before(async () => {
  app = await startApp();
  runner = RunnerProcess.start(app, { registrationToken: await registrationToken(app) });
  await runner.waitForOutput(/waiting for builds/);
});
after(async () => {
  // The killed runner could not kill its build's process group: the test does.
  try {
    if (buildGroup) process.kill(-buildGroup, 'SIGKILL');
  } catch {
    // already gone
  }
  await runner.close();
  await app.close();
});

describe('a build whose runner died', () => {
  test('stays running until its timeout and the margin have passed, then the sweep fails it and its pipeline', async () => {
    const created = await app.root.post('/projects', { name: 'vanished' });
    assert.equal(created.status, 201);
    const project = created.body;
    await app.ctx.db.updateTable('projects').set({ build_timeout: 600 }).where('id', '=', project.id).execute();
    await pushCi(
      app,
      project,
      'master',
      `
orphan:
  script:
    - echo $$ > "$GATE_DIR/shell"
    - sleep 600
next:
  stage: deploy
  script: echo never
`,
    );
    const build = await eventually(async () =>
      (await app.root.get(`/projects/${project.id}/builds`)).body.find((b: any) => b.name === 'orphan' && b.status === 'running'),
    );
    const shellFile = path.join(runner.gateDir, 'shell');
    buildGroup = await eventually(
      () => fs.existsSync(shellFile) && Number(fs.readFileSync(shellFile, 'utf8')) > 0 && Number(fs.readFileSync(shellFile, 'utf8')),
    );

    runner.signal('SIGKILL');
    await runner.exited;
    const row = await app.ctx.db.selectFrom('ci_builds').selectAll().where('id', '=', build.id).executeTakeFirstOrThrow();
    const started = Date.parse(row.started_at!);

    // Within its timeout (10 minutes), and within the margin after it, the build may still be its runner's.
    assert.equal(await dropStuckBuilds(app.ctx, started + 9 * 60_000), 0);
    assert.equal(await dropStuckBuilds(app.ctx, started + 10 * 60_000 + GRACE - 60_000), 0);
    assert.equal((await app.root.get(`/projects/${project.id}/builds/${build.id}`)).body.status, 'running');

    // Past both, nobody will ever finish it: it is failed, and the pipeline with it.
    assert.equal(await dropStuckBuilds(app.ctx, started + 10 * 60_000 + GRACE + 60_000), 1);
    const failed = (await app.root.get(`/projects/${project.id}/builds/${build.id}`)).body;
    assert.equal(failed.status, 'failed');
    assert.ok(failed.finished_at);
    const pipeline = (await app.root.get(`/projects/${project.id}/pipelines`)).body[0];
    assert.equal(pipeline.status, 'failed');
    const next = (await app.root.get(`/projects/${project.id}/builds`)).body.find((b: any) => b.name === 'next');
    assert.equal(next.status, 'skipped');
  });
});
