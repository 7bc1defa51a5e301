import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { eventually } from '../../support/eventually';
import { projectRunner, pushedProject } from './world';

const RETRY = `
flaky:
  script: make flaky
  retry:
    max: 2
    when: script_failure
picky:
  script: make picky
  retry:
    max: 2
    when: runner_system_failure
`;

let app: TestApp;

before(async () => {
  app = await startApp({ RUNNER_POLL_TIMEOUT_MS: '300' });
});
after(async () => {
  await app.close();
});

describe('retry', () => {
  test('a job failing for a reason its retry names runs again as a new job, up to max times; another reason is not retried', async () => {
    const project = await pushedProject(app, 'retry');
    const runner = await projectRunner(app, project.id);
    await project.push({ '.gitlab-ci.yml': RETRY });
    const api = app.root.v4();
    const pipelineId = await eventually(async () => (await api.get(`/projects/${project.id}/pipelines`)).body[0]?.id as number | undefined);
    const handedOut: Array<[string, number]> = [];
    for (;;) {
      const answer = await runner.requestJob();
      if (answer.outcome !== 'job') break;
      handedOut.push([answer.job.payload.job_info.name, answer.job.id]);
      assert.equal((await runner.finish(answer.job, 'failed', { failureReason: 'script_failure', exitCode: 1 })).status, 200);
    }
    assert.deepEqual(
      handedOut.map(([name]) => name),
      ['flaky', 'picky', 'flaky', 'flaky'],
    );
    assert.equal(new Set(handedOut.map(([, id]) => id)).size, 4);
    const pipeline = await api.get(`/projects/${project.id}/pipelines/${pipelineId}`);
    assert.equal(pipeline.body.status, 'failed');
  });
});
