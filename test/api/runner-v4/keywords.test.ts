import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { eventually } from '../../support/eventually';
import { cloneUrl, commit, git, workTree } from '../../support/git';
import type { RunnerV4Client, V4Job } from '../../support/runner-v4-client';
import { projectRunner, pushedProject } from './world';

/*
 * One pipeline per keyword, run to its end by a v4 runner client: what the runner is handed shows
 * what the keyword did. Each keyword is also checked by `POST /api/v4/ci/lint` with GitLab's words.
 */

let app: TestApp;

before(async () => {
  // Short, so that "nothing more to hand out" is answered quickly.
  app = await startApp({ RUNNER_POLL_TIMEOUT_MS: '300' });
});
after(async () => {
  await app.close();
});

/** Takes every job the runner is handed, finishing each with success, until nothing is left; by name. */
async function runAll(runner: RunnerV4Client): Promise<Record<string, V4Job>> {
  const taken: Record<string, V4Job> = {};
  for (;;) {
    const answer = await runner.requestJob();
    if (answer.outcome === 'nothing') return taken;
    if (answer.outcome !== 'job') return assert.fail(`the runner got ${answer.outcome}: ${answer.response.text}`);
    taken[answer.job.payload.job_info.name] = answer.job;
    assert.equal((await runner.finish(answer.job, 'success')).status, 200);
  }
}

/** The project's latest pipeline once the push made it (`after`: newer than that id). */
async function latestPipeline(projectId: number, after = 0): Promise<{ id: number; status: string; source: string }> {
  return eventually(
    async () => {
      const latest = (await app.root.v4().get(`/projects/${projectId}/pipelines`)).body[0];
      return latest && latest.id > after ? latest : undefined;
    },
    { message: 'the pipeline of the push' },
  );
}

/**
 * Pushes to master one commit after another from one working copy (the first push protects
 * master, so no push may rewrite it): each call commits `files` over the last and pushes.
 */
async function pushesOnMaster(path: string): Promise<(files: Record<string, string>) => Promise<void>> {
  const dir = await workTree('master', { 'README.md': 'hi\n' });
  return async (files) => {
    await commit(dir, files, 'change');
    const pushed = await git(['push', '-q', cloneUrl(app.url, path, 'root', 'rootpassword'), 'master'], dir);
    assert.equal(pushed.code, 0, pushed.stderr);
  };
}

async function pipelineStatus(projectId: number, pipelineId: number): Promise<string> {
  return (await app.root.v4().get(`/projects/${projectId}/pipelines/${pipelineId}`)).body.status;
}

const variablesOf = (job: V4Job): Record<string, string> =>
  Object.fromEntries(job.payload.variables.map((v: { key: string; value: string }) => [v.key, v.value]));

async function lint(content: string): Promise<{ status: string; errors: string[] }> {
  const response = await app.root.post('/api/v4/ci/lint', { content });
  assert.equal(response.status, 200);
  return response.body;
}
const invalid = async (content: string, message: string) => assert.deepEqual(await lint(content), { status: 'invalid', errors: [message] });
const valid = async (content: string) => assert.deepEqual(await lint(content), { status: 'valid', errors: [] });

describe('include', () => {
  test("a local file and another project's file are merged under .gitlab-ci.yml, and their jobs run", async () => {
    const library = await pushedProject(app, 'kw-include-lib', { 'templates/ci.yml': 'shared:\n  script: make shared\n' });
    const project = await pushedProject(app, 'kw-include');
    const runner = await projectRunner(app, project.id);
    await project.push({
      'ci/local.yml': 'local:\n  script: make local\n',
      '.gitlab-ci.yml': `include:\n  - local: ci/local.yml\n  - project: ${library.path}\n    file: /templates/ci.yml\nown:\n  script: make own\n`,
    });
    const pipeline = await latestPipeline(project.id);
    const jobs = await runAll(runner);
    assert.deepEqual(Object.keys(jobs).sort(), ['local', 'own', 'shared']);
    assert.deepEqual(jobs.shared!.payload.steps[0].script, ['make shared']);
    assert.deepEqual(jobs.local!.payload.steps[0].script, ['make local']);
    assert.equal(await pipelineStatus(project.id, pipeline.id), 'success');
  });

  test('lint: a local file cannot be read without a project', async () => {
    await invalid('include:\n  - local: ci/local.yml\nj:\n  script: x\n', 'Local file `ci/local.yml` does not have project!');
  });
});

describe('rules: changes', () => {
  test('a job runs when the push changed a path it names, and is left out when it did not', async () => {
    const ci = 'docs:\n  script: make docs\n  rules:\n    - changes: ["docs/**/*"]\nbuild:\n  script: make\n';
    const project = await pushedProject(app, 'kw-changes');
    const runner = await projectRunner(app, project.id);
    const push = await pushesOnMaster(project.path);
    // A new branch: nothing to compare with, `changes` holds (GitLab's rule).
    await push({ '.gitlab-ci.yml': ci, 'docs/guide/a.md': 'a', 'src/a.c': 'a' });
    const first = await latestPipeline(project.id);
    assert.deepEqual(Object.keys(await runAll(runner)).sort(), ['build', 'docs']);
    await push({ 'src/a.c': 'b' });
    const second = await latestPipeline(project.id, first.id);
    assert.deepEqual(Object.keys(await runAll(runner)), ['build']);
    assert.equal(await pipelineStatus(project.id, second.id), 'success');
    await push({ 'docs/guide/a.md': 'b' });
    await latestPipeline(project.id, second.id);
    assert.deepEqual(Object.keys(await runAll(runner)).sort(), ['build', 'docs']);
  });

  test('lint: changes must be an array of strings', async () => {
    await invalid('j:\n  script: x\n  rules:\n    - changes: docs\n', 'jobs:j:rules:rule changes should be an array of strings');
  });
});

describe('rules: exists', () => {
  test('a job runs only when the commit holds a file its globs match', async () => {
    const ci = 'docker:\n  script: docker build .\n  rules:\n    - exists: ["**/Dockerfile"]\nbuild:\n  script: make\n';
    const project = await pushedProject(app, 'kw-exists');
    const runner = await projectRunner(app, project.id);
    const push = await pushesOnMaster(project.path);
    await push({ '.gitlab-ci.yml': ci });
    const first = await latestPipeline(project.id);
    assert.deepEqual(Object.keys(await runAll(runner)), ['build']);
    await push({ 'app/Dockerfile': 'FROM scratch\n' });
    const second = await latestPipeline(project.id, first.id);
    assert.deepEqual(Object.keys(await runAll(runner)).sort(), ['build', 'docker']);
    assert.equal(await pipelineStatus(project.id, second.id), 'success');
  });

  test('lint: exists must be an array of strings', async () => {
    await invalid('j:\n  script: x\n  rules:\n    - exists: 1\n', 'jobs:j:rules:rule exists should be an array of strings');
  });
});

describe('variables with value and description', () => {
  test("a global variable's value reaches the job; its description does not", async () => {
    const project = await pushedProject(app, 'kw-variables');
    const runner = await projectRunner(app, project.id);
    await project.push({
      '.gitlab-ci.yml':
        'variables:\n  DEPLOY_ENV:\n    value: staging\n    description: Where to deploy\n  PLAIN: yes-plain\n' +
        'deploy:\n  script: make deploy\n  variables:\n    PLAIN: overridden\n',
    });
    await latestPipeline(project.id);
    const { deploy } = await runAll(runner);
    const variables = variablesOf(deploy!);
    assert.equal(variables.DEPLOY_ENV, 'staging');
    assert.equal(variables.PLAIN, 'overridden');
    assert.ok(!Object.values(variables).includes('Where to deploy'));
  });

  test('lint: a description must be a string; a job variable has no description', async () => {
    await valid('variables:\n  A:\n    value: x\n    description: y\nj:\n  script: x\n');
    const wrong = await lint('variables:\n  A:\n    value: x\n    description: [y]\nj:\n  script: x\n');
    assert.equal(wrong.status, 'invalid');
    const inJob = await lint('j:\n  script: x\n  variables:\n    A:\n      value: x\n      description: y\n');
    assert.equal(inJob.status, 'invalid');
  });
});

describe('inherit', () => {
  const CI = `
default:
  image: ruby:3
  before_script: [echo default]
variables:
  A: a
  B: b
nothing:
  script: make nothing
  inherit:
    default: false
    variables: false
some:
  script: make some
  inherit:
    default: [image]
    variables: [B]
everything:
  script: make everything
`;

  test('default: false or a list, variables: false or a list: each job takes only what it inherits', async () => {
    const project = await pushedProject(app, 'kw-inherit');
    const runner = await projectRunner(app, project.id);
    await project.push({ '.gitlab-ci.yml': CI });
    const pipeline = await latestPipeline(project.id);
    const jobs = await runAll(runner);

    assert.equal(jobs.nothing!.payload.image, null);
    assert.deepEqual(jobs.nothing!.payload.steps[0].script, ['make nothing']);
    assert.equal(variablesOf(jobs.nothing!).A, undefined);
    assert.equal(variablesOf(jobs.nothing!).B, undefined);

    assert.deepEqual(jobs.some!.payload.image, { name: 'ruby:3' });
    assert.deepEqual(jobs.some!.payload.steps[0].script, ['make some']);
    assert.equal(variablesOf(jobs.some!).A, undefined);
    assert.equal(variablesOf(jobs.some!).B, 'b');

    assert.deepEqual(jobs.everything!.payload.image, { name: 'ruby:3' });
    assert.deepEqual(jobs.everything!.payload.steps[0].script, ['echo default', 'make everything']);
    assert.equal(variablesOf(jobs.everything!).A, 'a');
    assert.equal(await pipelineStatus(project.id, pipeline.id), 'success');
  });

  test('top-level image and before_script are defaults too', async () => {
    const project = await pushedProject(app, 'kw-inherit-top');
    const runner = await projectRunner(app, project.id);
    await project.push({
      '.gitlab-ci.yml': 'image: alpine\nbefore_script: [echo top]\nalone:\n  script: make\n  inherit:\n    default: false\n',
    });
    await latestPipeline(project.id);
    const { alone } = await runAll(runner);
    assert.equal(alone!.payload.image, null);
    assert.deepEqual(alone!.payload.steps[0].script, ['make']);
  });

  test("lint: GitLab's messages", async () => {
    const job = (inherit: string) => `j:\n  script: x\n  inherit:\n${inherit}`;
    await valid(job('    default: [image, before_script]\n    variables: [A]\n'));
    await invalid('j:\n  script: x\n  inherit: true\n', 'jobs:j:inherit config should be a hash');
    await invalid(job('    stages: false\n'), 'jobs:j:inherit config contains unknown keys: stages');
    await invalid(job('    default: yes please\n'), 'jobs:j:inherit:default should be a bool or array of strings');
    await invalid(job('    default: [image, stages]\n'), 'jobs:j:inherit:default config contains unknown values: stages');
    await invalid(job('    variables: [1]\n'), 'jobs:j:inherit:variables config should be an array of strings');
  });
});

describe('when: delayed', () => {
  test('the job waits in scheduled for start_in once its turn comes, then is queued and runs', async () => {
    const project = await pushedProject(app, 'kw-delayed');
    const runner = await projectRunner(app, project.id);
    await project.push({
      '.gitlab-ci.yml':
        'stages: [build, deploy]\nbuild:\n  stage: build\n  script: make\nlater:\n  stage: deploy\n  script: make deploy\n  when: delayed\n  start_in: 1 second\n',
    });
    const pipeline = await latestPipeline(project.id);
    assert.deepEqual(Object.keys(await runAll(runner)), ['build']);
    const later = async () =>
      ((await app.root.v4().get(`/projects/${project.id}/pipelines/${pipeline.id}/jobs`)).body as any[]).find((j) => j.name === 'later');
    const waiting = await later();
    // Either still waiting, or already queued by the sweep (every 5 s) if the second has passed.
    if (waiting.status === 'scheduled') assert.equal(await pipelineStatus(project.id, pipeline.id), 'scheduled');
    else assert.equal(waiting.status, 'pending');
    const job = await eventually(
      async () => {
        const answer = await runner.requestJob();
        return answer.outcome === 'job' ? answer.job : undefined;
      },
      { timeout: 30_000, message: 'the delayed job handed out' },
    );
    assert.equal(job.payload.job_info.name, 'later');
    assert.equal((await runner.finish(job, 'success')).status, 200);
    assert.equal(await pipelineStatus(project.id, pipeline.id), 'success');
  });

  test('a scheduled job canceled never runs', async () => {
    const project = await pushedProject(app, 'kw-delayed-cancel');
    const runner = await projectRunner(app, project.id);
    await project.push({ '.gitlab-ci.yml': 'later:\n  script: make\n  when: delayed\n  start_in: 1 hour\n' });
    const pipeline = await latestPipeline(project.id);
    const jobs = (await app.root.v4().get(`/projects/${project.id}/pipelines/${pipeline.id}/jobs`)).body;
    assert.equal(jobs[0].status, 'scheduled');
    assert.equal(await pipelineStatus(project.id, pipeline.id), 'scheduled');
    assert.equal((await runner.requestJob()).outcome, 'nothing');
    assert.equal((await app.root.v4().post(`/projects/${project.id}/jobs/${jobs[0].id}/cancel`)).status, 201);
    assert.equal(await pipelineStatus(project.id, pipeline.id), 'canceled');
  });

  test("lint: GitLab's messages for start_in", async () => {
    await valid('j:\n  script: x\n  when: delayed\n  start_in: 10 minutes\n');
    await invalid('j:\n  script: x\n  when: delayed\n', "jobs:j start in can't be blank");
    await invalid('j:\n  script: x\n  when: delayed\n  start_in: soon\n', 'jobs:j start in should be a duration');
    await invalid('j:\n  script: x\n  when: delayed\n  start_in: 8 days\n', 'jobs:j start in should not exceed the limit');
    await invalid('j:\n  script: x\n  start_in: 1 minute\n', 'jobs:j start in should be blank');
    await invalid('j:\n  script: x\n  when: later\n', 'jobs:j when should be on_success, on_failure, always, manual or delayed');
  });
});
