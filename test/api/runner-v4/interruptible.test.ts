import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { eventually } from '../../support/eventually';
import { cloneUrl, commit, git, workTree } from '../../support/git';
import { projectRunner, pushedProject } from './world';

const INTERRUPTIBLE = `
stages: [test, deploy]
unit:
  stage: test
  script: sleep 60
  interruptible: true
lint:
  stage: test
  script: make lint
  interruptible: true
deploy:
  stage: deploy
  script: make deploy
`;

const DEPLOY_FIRST = `
release:
  script: make release
unit:
  script: make test
  interruptible: true
`;

let app: TestApp;

before(async () => {
  app = await startApp({ RUNNER_POLL_TIMEOUT_MS: '300' });
});
after(async () => {
  await app.close();
});

/** Commits on `topic` pushed one after the other (master is protected against a rewrite). */
async function topicPusher(app: TestApp, path: string) {
  const dir = await workTree('master', { 'README.md': 'hi\n' });
  return async (files: Record<string, string>) => {
    await commit(dir, files, 'ci');
    const pushed = await git(['push', '-q', cloneUrl(app.url, path, 'root', 'rootpassword'), 'master:refs/heads/topic'], dir);
    assert.equal(pushed.code, 0, pushed.stderr);
  };
}

/** The project's pipelines, oldest first, once there are `count` of them; each with its jobs' statuses by name. */
async function pipelines(app: TestApp, projectId: number, count: number) {
  const api = app.root.v4();
  const list = await eventually(async () => {
    const found = (await api.get(`/projects/${projectId}/pipelines`)).body;
    return found.length === count ? [...found].reverse() : undefined;
  });
  return Promise.all(
    list.map(async (pipeline: any) => {
      const jobs = await api.get(`/projects/${projectId}/pipelines/${pipeline.id}/jobs?per_page=100`);
      return { status: pipeline.status, jobs: Object.fromEntries(jobs.body.map((job: any) => [job.name, job.status])) };
    }),
  );
}

describe('interruptible', () => {
  test('a new pipeline on the branch cancels an older one whose started jobs are all interruptible', async () => {
    const project = await pushedProject(app, 'interruptible');
    const runner = await projectRunner(app, project.id);
    const push = await topicPusher(app, project.path);
    await push({ '.gitlab-ci.yml': INTERRUPTIBLE, VERSION: '1\n' });
    const unit = await runner.requestJob();
    if (unit.outcome !== 'job') return assert.fail('no job');
    assert.equal(unit.job.payload.job_info.name, 'unit');
    assert.equal((await runner.appendTrace(unit.job, 'sleeping\n')).status, 202);

    await push({ '.gitlab-ci.yml': INTERRUPTIBLE, VERSION: '2\n' });
    const [older, newer] = await pipelines(app, project.id, 2);
    assert.deepEqual(older, { status: 'canceled', jobs: { unit: 'canceled', lint: 'canceled', deploy: 'canceled' } });
    assert.deepEqual(newer, { status: 'pending', jobs: { unit: 'pending', lint: 'pending', deploy: 'created' } });
    const part = await runner.appendTrace(unit.job, 'still sleeping\n');
    assert.equal(part.status, 403);
    assert.equal(part.headers.get('job-status'), 'canceled');
  });

  test('an older pipeline where a job that is not interruptible has started runs on', async () => {
    const project = await pushedProject(app, 'not-interrupted');
    const runner = await projectRunner(app, project.id);
    const push = await topicPusher(app, project.path);
    await push({ '.gitlab-ci.yml': DEPLOY_FIRST, VERSION: '1\n' });
    const release = await runner.requestJob();
    if (release.outcome !== 'job') return assert.fail('no job');
    assert.equal(release.job.payload.job_info.name, 'release');

    await push({ '.gitlab-ci.yml': DEPLOY_FIRST, VERSION: '2\n' });
    const [older, newer] = await pipelines(app, project.id, 2);
    assert.deepEqual(older, { status: 'running', jobs: { release: 'running', unit: 'pending' } });
    assert.deepEqual(newer, { status: 'pending', jobs: { release: 'pending', unit: 'pending' } });
  });
});
