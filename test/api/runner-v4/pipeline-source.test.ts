import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { eventually } from '../../support/eventually';
import { cloneUrl, git, workTree } from '../../support/git';
import type { RunnerV4Client, V4Job } from '../../support/runner-v4-client';
import { projectRunner, pushedProject } from './world';

/*
 * GitLab 10's pipeline `source`, stored and shown, and given to jobs as `CI_PIPELINE_SOURCE`;
 * `CI_COMMIT_REF_PROTECTED`, and protected (and masked) project variables.
 */

const CI = 'job:\n  script: make\n';

let app: TestApp;

before(async () => {
  app = await startApp({ RUNNER_POLL_TIMEOUT_MS: '300' });
});
after(async () => {
  await app.close();
});

async function take(runner: RunnerV4Client): Promise<V4Job> {
  const answer = await eventually(
    async () => {
      const got = await runner.requestJob();
      return got.outcome === 'job' ? got : undefined;
    },
    { message: 'a job for the runner' },
  );
  assert.equal((await runner.finish(answer.job, 'success')).status, 200);
  return answer.job;
}

const variablesOf = (job: V4Job): Record<string, string> =>
  Object.fromEntries(job.payload.variables.map((v: { key: string; value: string }) => [v.key, v.value]));

/** Pushes a branch other than master (not protected), from a new working copy. */
async function pushBranch(path: string, branch: string, files: Record<string, string>): Promise<void> {
  const dir = await workTree(branch, files);
  const pushed = await git(['push', '-q', cloneUrl(app.url, path, 'root', 'rootpassword'), branch], dir);
  assert.equal(pushed.code, 0, pushed.stderr);
}

describe('pipeline source', () => {
  test('a push, an API call and a trigger each store their source, shown by the API and given to the job', async () => {
    const project = await pushedProject(app, 'sources');
    const runner = await projectRunner(app, project.id);
    const api = app.root.v4();
    await project.push({ '.gitlab-ci.yml': CI });
    const pushed = await take(runner);
    assert.equal(variablesOf(pushed).CI_PIPELINE_SOURCE, 'push');
    const pushPipeline = (await api.get(`/projects/${project.id}/pipelines`)).body[0];
    assert.equal((await api.get(`/projects/${project.id}/pipelines/${pushPipeline.id}`)).body.source, 'push');

    const created = await api.post(`/projects/${project.id}/pipeline`, { ref: 'master' });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.source, 'api');
    assert.equal(variablesOf(await take(runner)).CI_PIPELINE_SOURCE, 'api');

    const trigger = await api.post(`/projects/${project.id}/triggers`, { description: 'nightly' });
    assert.equal(trigger.status, 201, trigger.text);
    const triggered = await api.post(`/projects/${project.id}/trigger/pipeline`, { token: trigger.body.token, ref: 'master' });
    assert.equal(triggered.status, 201, triggered.text);
    assert.equal(triggered.body.source, 'trigger');
    assert.equal(variablesOf(await take(runner)).CI_PIPELINE_SOURCE, 'trigger');
  });
});

describe('protected refs and protected variables', () => {
  test('a protected variable reaches jobs of protected branches only; CI_COMMIT_REF_PROTECTED says which', async () => {
    const project = await pushedProject(app, 'protected-vars');
    const runner = await projectRunner(app, project.id);
    const api = app.root.v4();
    const secret = await api.post(`/projects/${project.id}/variables`, { key: 'DEPLOY_KEY', value: 'only-on-master', protected: true });
    assert.equal(secret.status, 201, secret.text);
    assert.deepEqual(secret.body, { key: 'DEPLOY_KEY', value: 'only-on-master', protected: true, masked: false });
    assert.equal((await api.post(`/projects/${project.id}/variables`, { key: 'PLAIN', value: 'everywhere' })).status, 201);

    // The first push makes master the default branch, protected.
    await project.push({ '.gitlab-ci.yml': CI });
    const onMaster = variablesOf(await take(runner));
    assert.equal(onMaster.CI_COMMIT_REF_PROTECTED, 'true');
    assert.equal(onMaster.DEPLOY_KEY, 'only-on-master');
    assert.equal(onMaster.PLAIN, 'everywhere');

    await pushBranch(project.path, 'feature', { '.gitlab-ci.yml': CI });
    const onFeature = variablesOf(await take(runner));
    assert.equal(onFeature.CI_COMMIT_REF_PROTECTED, 'false');
    assert.equal(onFeature.DEPLOY_KEY, undefined);
    assert.equal(onFeature.PLAIN, 'everywhere');

    // Unprotected, the variable reaches every branch.
    const changed = await api.put(`/projects/${project.id}/variables/DEPLOY_KEY`, { value: 'now-everywhere', protected: false });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.body.protected, false);
    await pushBranch(project.path, 'feature-2', { '.gitlab-ci.yml': CI });
    assert.equal(variablesOf(await take(runner)).DEPLOY_KEY, 'now-everywhere');
  });

  test('masked is kept and answered when the value can be masked; otherwise 400; v3 shows neither flag', async () => {
    const project = await pushedProject(app, 'masked-vars');
    const api = app.root.v4();
    const masked = await api.post(`/projects/${project.id}/variables`, { key: 'TOKEN', value: 'abcdefgh12345678', masked: true });
    assert.equal(masked.status, 201, masked.text);
    assert.equal(masked.body.masked, true);
    assert.equal((await api.get(`/projects/${project.id}/variables/TOKEN`)).body.masked, true);
    const short = await api.post(`/projects/${project.id}/variables`, { key: 'SHORT', value: 'abc', masked: true });
    assert.equal(short.status, 400);
    assert.deepEqual(short.body, { message: { value: ['is invalid'] } });
    const spaced = await api.put(`/projects/${project.id}/variables/TOKEN`, { value: 'has spaces in it' });
    assert.equal(spaced.status, 400);
    const v3 = await app.root.get(`/projects/${project.id}/variables/TOKEN`);
    assert.deepEqual(v3.body, { key: 'TOKEN', value: 'abcdefgh12345678' });
  });
});
