import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { eventually } from '../../support/eventually';
import type { RunnerV4Client, V4Job } from '../../support/runner-v4-client';
import { projectRunner, pushedProject } from './world';

const NEEDS = `
stages: [build, test]
broken:
  stage: build
  script: exit 1
slow:
  stage: build
  script: sleep 60
dependent:
  stage: test
  needs: [broken]
  script: make test
cleanup:
  stage: test
  needs: [broken]
  when: always
  script: make clean
rescue:
  stage: test
  needs: [broken]
  when: on_failure
  script: make rescue
early:
  stage: test
  needs: []
  script: make early
`;

let app: TestApp;

before(async () => {
  app = await startApp({ RUNNER_POLL_TIMEOUT_MS: '300' });
});
after(async () => {
  await app.close();
});

async function take(runner: RunnerV4Client, name: string): Promise<V4Job> {
  const answer = await runner.requestJob();
  if (answer.outcome !== 'job') return assert.fail(`expected ${name}, the runner got ${answer.outcome}`);
  assert.equal(answer.job.payload.job_info.name, name);
  return answer.job;
}

describe('needs', () => {
  test('needs: [] starts with the first stage; a failed need skips its dependents but those run when: always or on_failure', async () => {
    const project = await pushedProject(app, 'needs');
    const runner = await projectRunner(app, project.id);
    await project.push({ '.gitlab-ci.yml': NEEDS });
    const api = app.root.v4();
    const pipelineId = await eventually(async () => (await api.get(`/projects/${project.id}/pipelines`)).body[0]?.id as number | undefined);
    const statuses = async () => {
      const jobs = await api.get(`/projects/${project.id}/pipelines/${pipelineId}/jobs?per_page=100`);
      return Object.fromEntries(jobs.body.map((job: any) => [job.name, job.status as string]));
    };
    assert.deepEqual(await statuses(), {
      broken: 'pending',
      slow: 'pending',
      dependent: 'created',
      cleanup: 'created',
      rescue: 'created',
      early: 'pending',
    });

    const broken = await take(runner, 'broken');
    assert.equal((await runner.finish(broken, 'failed', { failureReason: 'script_failure', exitCode: 1 })).status, 200);
    // Decided by broken alone, while slow, of broken's stage, has not started.
    assert.deepEqual(await statuses(), {
      broken: 'failed',
      slow: 'pending',
      dependent: 'skipped',
      cleanup: 'pending',
      rescue: 'pending',
      early: 'pending',
    });
    for (const name of ['slow', 'cleanup', 'rescue', 'early']) {
      const job = await take(runner, name);
      assert.equal((await runner.finish(job, 'success')).status, 200);
    }
    assert.equal((await runner.requestJob()).outcome, 'nothing');
    assert.equal((await api.get(`/projects/${project.id}/pipelines/${pipelineId}`)).body.status, 'failed');
  });
});
