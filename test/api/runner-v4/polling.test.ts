import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { seedPipeline } from '../../support/ci-world';
import { eventually } from '../../support/eventually';
import type { RunnerV4Client } from '../../support/runner-v4-client';
import { projectRunner, pushedProject } from './world';

let app: TestApp;

before(async () => {
  app = await startApp({ RUNNER_POLL_TIMEOUT_MS: '400' });
});
after(async () => {
  await app.close();
});

describe('long polling', () => {
  test('nothing pending for the whole poll time: 204 with X-GitLab-Last-Update, which the runner sends back', async () => {
    const project = await pushedProject(app, 'idle');
    const runner = await projectRunner(app, project.id);
    const first = await runner.requestJob();
    assert.equal(first.outcome, 'nothing');
    assert.equal(first.response.status, 204);
    assert.ok(first.response.headers.get('x-gitlab-last-update'));
    assert.equal(runner.lastUpdate, first.response.headers.get('x-gitlab-last-update'));
    const second = await runner.requestJob();
    assert.equal(second.response.status, 204);
    assert.equal(app.ctx.buildQueue.waiting, 0);
  });

  test('a last_update equal to the current X-GitLab-Last-Update skips the queue: a job written meanwhile by another process is not looked for; without it, it is handed out', async () => {
    const project = await pushedProject(app, 'last-update');
    const runner = await projectRunner(app, project.id);
    assert.equal((await runner.requestJob()).outcome, 'nothing');
    const value = runner.lastUpdate;
    // Written straight into the database, as another Forge process would: nothing in this process moves.
    const { builds } = await seedPipeline(app, project.id, { builds: [{ name: 'unseen', options: {} }] });
    const skipped = await runner.requestJob();
    assert.equal(skipped.response.status, 204);
    assert.equal(skipped.response.headers.get('x-gitlab-last-update'), value);
    runner.lastUpdate = '';
    const taken = await runner.requestJob();
    assert.equal(taken.outcome, 'job');
    assert.equal(taken.outcome === 'job' && taken.job.id, builds[0]!.id);
  });

  test('X-GitLab-Last-Update changes when a job is made pending in this process and when the runner changes', async () => {
    const project = await pushedProject(app, 'last-update-moves');
    const runner = await projectRunner(app, project.id);
    await runner.requestJob();
    const first = runner.lastUpdate;
    const other = await pushedProject(app, 'other-pipeline', { '.gitlab-ci.yml': 'job:\n  script: echo hi\n' });
    // The push makes its pipeline in the background: the job is pending once the pipeline is listed.
    await eventually(async () => (await app.root.get(`/projects/${other.id}/pipelines`)).body.length === 1, {
      message: 'the pipeline made',
    });
    await runner.requestJob();
    const second = runner.lastUpdate;
    assert.notEqual(second, first);
    const id = (await app.ctx.db.selectFrom('ci_runners').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id;
    assert.equal((await app.root.v4().put(`/runners/${id}`, { tag_list: ['changed'] })).status, 200);
    await runner.requestJob();
    assert.notEqual(runner.lastUpdate, second);
  });

  test('a runner that hangs up while held stops waiting and is handed nothing', async () => {
    const project = await pushedProject(app, 'hang-up');
    const runner = await projectRunner(app, project.id);
    const slow = await startApp({ RUNNER_POLL_TIMEOUT_MS: '60000' });
    try {
      const held = await projectRunner(slow, (await pushedProject(slow, 'held')).id);
      const gone = new AbortController();
      const asked = held.requestJob(gone.signal).catch(() => 'aborted');
      await eventually(() => slow.ctx.buildQueue.waiting === 1, { message: 'the request held' });
      gone.abort();
      assert.equal(await asked, 'aborted');
      await eventually(() => slow.ctx.buildQueue.waiting === 0, { message: 'the wait ended' });
    } finally {
      await slow.close();
    }
    assert.equal((await runner.requestJob()).outcome, 'nothing');
  });
});

/** As many runners as the issue names: hundreds held open at once. */
const RUNNERS = 200;

describe('many runners at once', () => {
  test('200 runners long-polling while 60 jobs become pending: every job is handed out exactly once', async () => {
    const slow = await startApp({ RUNNER_POLL_TIMEOUT_MS: '60000' });
    try {
      const project = await pushedProject(slow, 'crowd');
      const runners: RunnerV4Client[] = [];
      for (let i = 0; i < RUNNERS; i++) runners.push(await projectRunner(slow, project.id));
      const handed: number[] = [];
      const stop = new AbortController();
      const total = 60;
      const poll = async (runner: RunnerV4Client) => {
        while (!stop.signal.aborted) {
          const answer = await runner.requestJob(stop.signal).catch(() => undefined);
          if (answer?.outcome !== 'job') continue;
          handed.push(answer.job.id);
          assert.equal((await runner.finish(answer.job, 'success')).status, 200);
          if (handed.length >= total) stop.abort();
        }
      };
      const polling = Promise.all(runners.map(poll));
      await eventually(() => slow.ctx.buildQueue.waiting === RUNNERS, { message: `all ${RUNNERS} runners held` });
      // Written straight into the database, as another Forge process would: only the periodic look sees them.
      const { builds } = await seedPipeline(slow, project.id, {
        builds: Array.from({ length: total }, (_, i) => ({ name: `job ${i}`, options: {} })),
      });
      await polling;
      assert.equal(handed.length, total);
      assert.deepEqual(
        [...handed].sort((a, b) => a - b),
        builds.map((build) => build.id).sort((a, b) => a - b),
      );
      const statuses = await slow.ctx.db.selectFrom('ci_builds').select('status').where('project_id', '=', project.id).execute();
      assert.ok(statuses.every((row) => row.status === 'success'));
    } finally {
      await slow.close();
    }
  });
});
