import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { storedZip } from '../../support/zip';
import { eventually } from '../../support/eventually';
import type { V4Job } from '../../support/runner-v4-client';
import { projectRunner, pushedProject } from './world';

/*
 * The pipeline of today: three stages where `needs` starts jobs before their stage, a
 * job's artifacts handed to the one that needs it, an `allow_failure` job that fails, a manual job
 * played, a `sleep` canceled while it runs. (The `rules`-skipped job is ci-compose's.)
 */
const MODERN = `
stages: [build, test, deploy]
compile:
  stage: build
  script: make
  artifacts:
    paths: [out/]
lint:
  stage: build
  script: make lint
unit:
  stage: test
  needs: [compile]
  script: make test
flaky:
  stage: test
  needs: [compile]
  script: exit 1
  allow_failure: true
package:
  stage: deploy
  needs: [unit]
  script: make package
soak:
  stage: deploy
  script: sleep 3600
publish:
  stage: deploy
  when: manual
  script: make publish
`;

let app: TestApp;

before(async () => {
  // Short, so that "nothing more to hand out" is answered quickly.
  app = await startApp({ RUNNER_POLL_TIMEOUT_MS: '300' });
});
after(async () => {
  await app.close();
});

describe('a pipeline of today run by a v4 runner', () => {
  test('needs across stages, artifacts between jobs, an allowed failure, a manual job, a canceled sleep; every job handed out once', async () => {
    const project = await pushedProject(app, 'modern-pipeline');
    const runner = await projectRunner(app, project.id);
    await project.push({ '.gitlab-ci.yml': MODERN });
    const api = app.root.v4();
    const handedOut: string[] = [];
    const take = async (name: string): Promise<V4Job> => {
      const answer = await runner.requestJob();
      if (answer.outcome !== 'job') return assert.fail(`expected ${name}, the runner got ${answer.outcome}`);
      handedOut.push(answer.job.payload.job_info.name);
      assert.equal(answer.job.payload.job_info.name, name);
      return answer.job;
    };
    // The push's pipeline is made once the push has been received.
    const pipelineId = await eventually(
      async () => (await api.get(`/projects/${project.id}/pipelines`)).body[0]?.id as number | undefined,
      {
        message: 'the pipeline of the push',
      },
    );
    const jobsByName = async (): Promise<Record<string, any>> => {
      const jobs = await api.get(`/projects/${project.id}/pipelines/${pipelineId}/jobs?per_page=100`);
      assert.equal(jobs.status, 200);
      return Object.fromEntries([...jobs.body].reverse().map((job: any) => [job.name, job]));
    };
    const statuses = async () => Object.fromEntries(Object.entries(await jobsByName()).map(([name, job]) => [name, job.status as string]));
    const pipelineStatus = async () => (await api.get(`/projects/${project.id}/pipelines/${pipelineId}`)).body.status;

    assert.deepEqual(await statuses(), {
      compile: 'pending',
      lint: 'pending',
      unit: 'created',
      flaky: 'created',
      package: 'created',
      soak: 'created',
      publish: 'created',
    });

    const compile = await take('compile');
    const zip = await storedZip({ 'out/app.bin': 'binary' });
    assert.equal((await runner.uploadArtifacts(compile, zip)).status, 201);
    assert.equal((await runner.finish(compile, 'success')).status, 200);
    // What needs compile starts while lint, of compile's own stage, has not even started.
    const afterCompile = await statuses();
    assert.equal(afterCompile.lint, 'pending');
    assert.equal(afterCompile.unit, 'pending');
    assert.equal(afterCompile.flaky, 'pending');
    assert.equal(afterCompile.package, 'created');

    const lint = await take('lint');
    const unit = await take('unit');
    assert.deepEqual(
      unit.payload.dependencies.map((d: any) => [d.name, d.artifacts_file?.filename]),
      [['compile', 'artifacts.zip']],
    );
    const downloaded = await runner.downloadArtifacts(unit.payload.dependencies[0]);
    assert.deepEqual(downloaded.bytes, zip);
    assert.equal((await runner.finish(unit, 'success')).status, 200);

    const flaky = await take('flaky');
    assert.equal((await runner.finish(flaky, 'failed', { failureReason: 'script_failure', exitCode: 1 })).status, 200);

    // package needs unit alone: it runs, and gets unit (not lint nor flaky) as its dependency, while lint still runs.
    const pkg = await take('package');
    assert.deepEqual(
      pkg.payload.dependencies.map((d: any) => d.name),
      ['unit'],
    );
    assert.equal((await runner.finish(pkg, 'success')).status, 200);
    const beforeLint = await statuses();
    assert.equal(beforeLint.lint, 'running');
    assert.equal(beforeLint.soak, 'created');
    assert.equal(beforeLint.publish, 'created');
    assert.equal(await pipelineStatus(), 'running');

    // The build stage ends: the deploy stage's own jobs open, the manual one waiting to be played.
    assert.equal((await runner.finish(lint, 'success')).status, 200);
    assert.equal((await statuses()).publish, 'manual');
    const soak = await take('soak');
    assert.equal((await runner.appendTrace(soak, '$ sleep 3600\n')).status, 202);
    const canceled = await api.post(`/projects/${project.id}/jobs/${soak.id}/cancel`);
    assert.equal(canceled.status, 201);
    const part = await runner.appendTrace(soak, 'still sleeping\n');
    assert.equal(part.status, 403);
    assert.equal(part.headers.get('job-status'), 'canceled');

    const publishId = (await jobsByName()).publish.id;
    assert.equal((await api.post(`/projects/${project.id}/jobs/${publishId}/play`)).status, 200);
    const publish = await take('publish');
    assert.equal((await runner.finish(publish, 'success')).status, 200);

    assert.equal((await runner.requestJob()).outcome, 'nothing');
    assert.deepEqual(handedOut, ['compile', 'lint', 'unit', 'flaky', 'package', 'soak', 'publish']);
    assert.deepEqual(await statuses(), {
      compile: 'success',
      lint: 'success',
      unit: 'success',
      flaky: 'failed',
      package: 'success',
      soak: 'canceled',
      publish: 'success',
    });
    assert.equal(await pipelineStatus(), 'canceled');
  });
});
