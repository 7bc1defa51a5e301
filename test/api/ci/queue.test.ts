import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createRootProject } from '../../support/repo';
import { clearQueue, registeredRunner, runnerRow, seedPipeline } from '../../support/ci-world';
import type { RunnerClient } from '../../support/runner-client';

let app: TestApp;

before(async () => {
  app = await startApp();
});
after(async () => {
  await app.close();
});

describe('the build queue under concurrent runners', () => {
  test('50 runners asking at once over HTTP for 20 pending builds: each build is handed out exactly once, and all are', async () => {
    await clearQueue(app);
    const projects = await Promise.all([1, 2, 3, 4].map((n) => createRootProject(app, `queue${n}`)));
    const seeded: number[] = [];
    for (const [index, p] of projects.entries()) {
      const { builds } = await seedPipeline(app, p.id, {
        sha: p.head,
        builds: Array.from({ length: 5 }, (_, i) => ({ name: `job${index}-${i}` })),
      });
      seeded.push(...builds.map((build) => build.id));
    }
    const runners: RunnerClient[] = [];
    for (let i = 0; i < 50; i++) runners.push(await registeredRunner(app, { description: `runner ${i}` }));
    const answers = await Promise.all(runners.map((runner) => runner.requestBuild()));
    const handedOut = answers.flatMap((answer, index) =>
      answer.outcome === 'build' ? [{ id: answer.build.id as number, runner: runners[index] }] : [],
    );
    assert.equal(answers.filter((answer) => answer.outcome === 'failed' || answer.outcome === 'forbidden').length, 0);
    assert.deepEqual(
      handedOut.map((h) => h.id).sort((a, b) => a - b),
      [...seeded].sort((a, b) => a - b),
    );
    for (const { id, runner } of handedOut) {
      const row = await app.ctx.db.selectFrom('ci_builds').select(['status', 'runner_id']).where('id', '=', id).executeTakeFirstOrThrow();
      assert.equal(row.status, 'running');
      assert.equal(row.runner_id, (await runnerRow(app, runner.token!))!.id);
    }
    const again = await Promise.all(runners.map((runner) => runner.requestBuild()));
    assert.ok(again.every((answer) => answer.outcome === 'nothing'));
  });
});
