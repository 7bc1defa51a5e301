import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { createRootProject } from '../support/repo';
import { buildRow, pipelineRow, seedPipeline } from '../support/ci';
import { clearQueue, registeredRunner, seedPipeline as seedRunnablePipeline } from '../support/ci-world';
import { dropStuckBuilds } from '../../src/services/ci/builds/stuck-builds';

let app: TestApp;
let project: { id: number; head: string };

before(async () => {
  app = await startApp();
  project = await createRootProject(app, 'stuck');
});
after(() => app.close());

const hour = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

async function setTimeout(projectId: number, seconds: number) {
  await app.ctx.db.updateTable('projects').set({ build_timeout: seconds }).where('id', '=', projectId).execute();
}

describe('the stuck-builds sweep (ci.drop_stuck_builds)', () => {
  test('a running build past its timeout and the margin is failed and its pipeline moves on; a fresh one is untouched', async () => {
    await setTimeout(project.id, 3600);
    const stuck = await seedPipeline(app, project.id, {
      sha: project.head,
      status: 'running',
      builds: [
        // One hour of timeout, one of margin: three hours after its start nobody will finish it.
        { name: 'lost', status: 'running', stage: 'test', stage_idx: 0, started_at: ago(3 * hour) },
        { name: 'deploy', status: 'created', stage: 'deploy', stage_idx: 1 },
      ],
    });
    const fresh = await seedPipeline(app, project.id, {
      sha: project.head,
      status: 'running',
      builds: [{ name: 'fresh', status: 'running', started_at: ago(30 * 60_000) }],
    });

    assert.ok((await dropStuckBuilds(app.ctx)) >= 1);

    const [lost, deploy] = await Promise.all(stuck.builds.map((id) => buildRow(app, id)));
    assert.equal(lost!.status, 'failed');
    assert.ok(lost!.finished_at);
    // The next stage does not run after a failure: the pipeline is finished, failed.
    assert.equal(deploy!.status, 'skipped');
    assert.equal((await pipelineRow(app, stuck.id)).status, 'failed');
    assert.equal((await buildRow(app, fresh.builds[0]!)).status, 'running');
    assert.equal((await pipelineRow(app, fresh.id)).status, 'running');
  });

  test("a build is judged by its own project's timeout", async () => {
    const patient = await createRootProject(app, 'patient');
    await setTimeout(patient.id, 4 * 3600);
    const { builds } = await seedPipeline(app, patient.id, {
      sha: patient.head,
      status: 'running',
      builds: [{ name: 'long', status: 'running', started_at: ago(3 * hour) }],
    });
    await dropStuckBuilds(app.ctx);
    assert.equal((await buildRow(app, builds[0]!)).status, 'running');
    // Five hours and a bit in, past four of timeout and one of margin, it goes.
    await app.ctx.db
      .updateTable('ci_builds')
      .set({ started_at: ago(5 * hour + 60_000) })
      .where('id', '=', builds[0]!)
      .execute();
    await dropStuckBuilds(app.ctx);
    assert.equal((await buildRow(app, builds[0]!)).status, 'failed');
  });

  test('a pending build no runner took for a day is failed; one queued an hour ago waits', async () => {
    const { id, builds } = await seedPipeline(app, project.id, {
      sha: project.head,
      builds: [
        { name: 'forgotten', status: 'pending' },
        { name: 'queued', status: 'pending' },
      ],
    });
    const [forgotten, queued] = builds;
    await app.ctx.db
      .updateTable('ci_builds')
      .set({ updated_at: ago(25 * hour) })
      .where('id', '=', forgotten!)
      .execute();
    await app.ctx.db
      .updateTable('ci_builds')
      .set({ updated_at: ago(hour) })
      .where('id', '=', queued!)
      .execute();

    await dropStuckBuilds(app.ctx);

    assert.equal((await buildRow(app, forgotten!)).status, 'failed');
    assert.equal((await buildRow(app, queued!)).status, 'pending');
    assert.notEqual((await pipelineRow(app, id)).status, 'success');
  });

  test('finished builds and external statuses are left alone', async () => {
    const { builds } = await seedPipeline(app, project.id, {
      sha: project.head,
      builds: [
        { name: 'done', status: 'success', started_at: ago(10 * hour) },
        { name: 'external', status: 'running', type: 'GenericCommitStatus', started_at: ago(10 * hour) },
      ],
    });
    await dropStuckBuilds(app.ctx);
    assert.equal((await buildRow(app, builds[0]!)).status, 'success');
    assert.equal((await buildRow(app, builds[1]!)).status, 'running');
  });

  test('a runner that vanished with a build: the sweep fails it, and the runner, were it to return, is told to stop (404)', async () => {
    await clearQueue(app);
    await setTimeout(project.id, 600);
    const runner = await registeredRunner(app, { projectId: project.id });
    const { builds } = await seedRunnablePipeline(app, project.id, { sha: project.head, builds: [{ name: 'orphan' }] });
    const taken = await runner.requestBuild();
    assert.equal(taken.outcome, 'build');
    assert.equal((await buildRow(app, builds[0]!.id)).status, 'running');
    // Ten minutes of timeout and an hour of margin have passed since it started.
    await app.ctx.db
      .updateTable('ci_builds')
      .set({ started_at: ago(hour + 11 * 60_000) })
      .where('id', '=', builds[0]!.id)
      .execute();

    await dropStuckBuilds(app.ctx);

    assert.equal((await buildRow(app, builds[0]!.id)).status, 'failed');
    assert.equal(taken.outcome === 'build' && (await runner.updateState(taken.build, 'running')).status, 404);
  });
});
