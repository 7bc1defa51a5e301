import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { git } from '../../support/git';
import { eventually } from '../../support/eventually';
import { buildRow } from '../../support/ci-world';
import { storedZip } from '../../support/zip';
import { RunnerV4Client } from '../../support/runner-v4-client';
import { projectRunner, pushedProject } from './world';

const TWO_STAGES = `
stages: [build, test]
compile:
  stage: build
  image: ruby:3.3
  services: [postgres:16]
  script:
    - echo compile
    - mkdir out
  after_script: [echo done]
  artifacts:
    paths: [out/]
    expire_in: 1 week
  cache:
    key: deps
    paths: [vendor/]
unit:
  stage: test
  script: echo test
  dependencies: [compile]
`;

const ONE_JOB = `
only-job:
  script: exit 1
`;

let app: TestApp;

before(async () => {
  // Long enough that a held request is only ever answered by a job in these tests.
  app = await startApp({ RUNNER_POLL_TIMEOUT_MS: '60000' });
});
after(async () => {
  await app.close();
});

const variable = (payload: any, key: string) => payload.variables.find((item: any) => item.key === key);

describe('POST /api/v4/jobs/request', () => {
  test('a request with nothing pending is held, and answered with the job as soon as a push makes its pipeline', async () => {
    const project = await pushedProject(app, 'held-request');
    const runner = await projectRunner(app, project.id);
    const asked = runner.requestJob();
    await eventually(() => app.ctx.buildQueue.waiting === 1, { message: 'the request held' });
    const sha = await project.push({ '.gitlab-ci.yml': ONE_JOB });
    const answer = await asked;
    assert.equal(answer.outcome, 'job');
    assert.equal(answer.response.status, 201);
    if (answer.outcome !== 'job') return;
    assert.equal(answer.job.payload.git_info.sha, sha);
    assert.equal(answer.job.payload.job_info.name, 'only-job');
  });

  test('an unknown runner token: 403', async () => {
    const answer = await new RunnerV4Client(app.url, 'no-such-runner').requestJob();
    assert.equal(answer.outcome, 'forbidden');
  });
});

describe('a two-stage pipeline run over the runner API v4', () => {
  test('the job payload, trace parts with a 416 resync, artifacts passed to the next stage, success', async () => {
    const project = await pushedProject(app, 'two-stages');
    const runner = await projectRunner(app, project.id);
    const sha = await project.push({ '.gitlab-ci.yml': TWO_STAGES });

    const first = await runner.requestJob();
    assert.equal(first.outcome, 'job');
    if (first.outcome !== 'job') return;
    const compile = first.job;
    const p = compile.payload;
    assert.equal(first.response.headers.get('content-type'), 'application/json');
    assert.deepEqual(p.job_info, { name: 'compile', stage: 'build', project_id: project.id, project_name: 'two-stages' });
    assert.match(p.git_info.repo_url, new RegExp(`^http://gitlab-ci-token:${compile.token}@`));
    assert.equal(p.git_info.ref, 'master');
    assert.equal(p.git_info.sha, sha);
    assert.equal(p.git_info.ref_type, 'branch');
    assert.deepEqual(p.git_info.refspecs, ['+refs/heads/master:refs/remotes/origin/master']);
    assert.equal(p.runner_info.timeout, 3600);
    assert.deepEqual(p.steps, [
      { name: 'script', script: ['echo compile', 'mkdir out'], timeout: 3600, when: 'on_success', allow_failure: false },
      { name: 'after_script', script: ['echo done'], timeout: 3600, when: 'always', allow_failure: true },
    ]);
    assert.deepEqual(p.image, { name: 'ruby:3.3' });
    assert.deepEqual(p.services, [{ name: 'postgres:16' }]);
    assert.deepEqual(p.artifacts, [
      {
        name: null,
        untracked: false,
        paths: ['out/'],
        when: 'on_success',
        expire_in: '1 week',
        artifact_type: 'archive',
        artifact_format: 'zip',
      },
    ]);
    assert.deepEqual(p.cache, [{ key: 'deps', untracked: false, paths: ['vendor/'], policy: 'pull-push' }]);
    assert.deepEqual(p.credentials, []);
    assert.deepEqual(p.dependencies, []);
    assert.deepEqual(variable(p, 'CI_JOB_ID'), { key: 'CI_JOB_ID', value: String(compile.id), public: true, masked: false, file: false });
    assert.equal(variable(p, 'CI_JOB_TOKEN').value, compile.token);
    assert.equal(variable(p, 'CI_COMMIT_SHA').value, sha);
    // Where the instance, the job and its pipeline are, as today's GitLab names them (the pages keep 8.12's URLs).
    const server = new URL(variable(p, 'CI_SERVER_URL').value);
    assert.equal(variable(p, 'CI_API_V4_URL').value, `${server.origin}/api/v4`);
    assert.equal(variable(p, 'CI_SERVER_HOST').value, server.hostname);
    assert.equal(variable(p, 'CI_SERVER_PORT').value, server.port);
    assert.equal(variable(p, 'CI_SERVER_PROTOCOL').value, 'http');
    assert.equal(variable(p, 'CI_JOB_URL').value, `${server.origin}/${project.path}/builds/${compile.id}`);
    assert.equal(variable(p, 'CI_PIPELINE_URL').value, `${server.origin}/${project.path}/pipelines/${variable(p, 'CI_PIPELINE_ID').value}`);
    assert.equal(variable(p, 'CI_REPOSITORY_URL').value, p.git_info.repo_url);
    assert.equal(variable(p, 'CI_REPOSITORY_URL').public, false);
    assert.equal(variable(p, 'GITLAB_USER_LOGIN').value, 'root');
    // The runner clones with the job's token.
    const listed = await git(['ls-remote', p.git_info.repo_url]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`^${sha}\\s+refs/heads/master`, 'm'));

    const part = await runner.appendTrace(compile, 'compiling\n');
    assert.equal(part.status, 202);
    assert.equal(part.headers.get('range'), '0-10');
    assert.equal(part.headers.get('job-status'), 'running');
    assert.ok(part.headers.get('x-gitlab-trace-update-interval'));
    // A part that does not start where the server's trace ends: 416 with the server's length; the runner resends from there.
    compile.trace += 'more\n';
    const mismatch = await runner.patchFrom(compile, 4);
    assert.equal(mismatch.status, 416);
    assert.equal(mismatch.headers.get('range'), '0-10');
    const resynced = await runner.appendTrace(compile, 'done\n');
    assert.equal(resynced.status, 202);
    assert.equal(resynced.headers.get('range'), `0-${Buffer.byteLength('compiling\nmore\ndone\n')}`);
    const noRange = await runner.send('PATCH', `jobs/${compile.id}/trace`, { body: 'x', headers: { 'job-token': compile.token } });
    assert.equal(noRange.status, 400);
    const wrongToken = await runner.send('PATCH', `jobs/${compile.id}/trace`, {
      body: 'x',
      headers: { 'job-token': 'wrong', 'content-range': '0-0' },
    });
    assert.equal(wrongToken.status, 403);

    const zip = await storedZip({ 'out/app.bin': 'binary' });
    const uploaded = await runner.uploadArtifacts(compile, zip, { expireIn: '1 week' });
    assert.equal(uploaded.status, 201, uploaded.text);
    const refused = await runner.uploadArtifacts(compile, zip, { token: 'wrong' });
    assert.equal(refused.status, 403);
    const finished = await runner.finish(compile, 'success');
    assert.equal(finished.status, 200);
    assert.equal((await buildRow(app, compile.id)).status, 'success');

    const second = await runner.requestJob();
    assert.equal(second.outcome, 'job');
    if (second.outcome !== 'job') return;
    const unit = second.job;
    assert.equal(unit.payload.job_info.name, 'unit');
    assert.deepEqual(unit.payload.dependencies, [
      { id: compile.id, name: 'compile', token: compile.token, artifacts_file: { filename: 'artifacts.zip', size: zip.length } },
    ]);
    const downloaded = await runner.downloadArtifacts(unit.payload.dependencies[0]);
    assert.equal(downloaded.status, 200);
    assert.deepEqual(downloaded.bytes, zip);
    assert.equal((await runner.downloadArtifacts({ id: compile.id, token: 'wrong' })).status, 403);
    assert.equal((await runner.finish(unit, 'success')).status, 200);
    const pipeline = await app.ctx.db.selectFrom('ci_pipelines').select('status').where('sha', '=', sha).executeTakeFirstOrThrow();
    assert.equal(pipeline.status, 'success');
  });
});

describe('PUT /api/v4/jobs/:id', () => {
  test('a failing job is failed with the failure_reason the runner sends; a second update is 403 with its status', async () => {
    const project = await pushedProject(app, 'failing');
    const runner = await projectRunner(app, project.id);
    await project.push({ '.gitlab-ci.yml': ONE_JOB });
    const answer = await runner.requestJob();
    assert.equal(answer.outcome, 'job');
    if (answer.outcome !== 'job') return;
    await runner.appendTrace(answer.job, '$ exit 1\nERROR: Job failed: exit status 1\n');
    const failed = await runner.finish(answer.job, 'failed', { failureReason: 'script_failure', exitCode: 1 });
    assert.equal(failed.status, 200);
    const row = await buildRow(app, answer.job.id);
    assert.equal(row.status, 'failed');
    assert.equal(row.failure_reason, 'script_failure');
    const again = await runner.finish(answer.job, 'success');
    assert.equal(again.status, 403);
    assert.equal(again.headers.get('job-status'), 'failed');
  });

  test('an unknown job: 404; a wrong token: 403', async () => {
    const runner = new RunnerV4Client(app.url);
    const missing = await runner.json('PUT', 'jobs/999999', { token: 'x', state: 'success' });
    assert.equal(missing.status, 404);
    const project = await pushedProject(app, 'wrong-token');
    const own = await projectRunner(app, project.id);
    await project.push({ '.gitlab-ci.yml': ONE_JOB });
    const answer = await own.requestJob();
    if (answer.outcome !== 'job') return assert.fail('no job');
    const wrong = await own.json('PUT', `jobs/${answer.job.id}`, { token: 'wrong', state: 'success' });
    assert.equal(wrong.status, 403);
    assert.equal((await buildRow(app, answer.job.id)).status, 'running');
  });
});

describe('cancel', () => {
  test('a job canceled while it runs: its next trace part and update answer 403 with Job-Status: canceled', async () => {
    const project = await pushedProject(app, 'canceled');
    const runner = await projectRunner(app, project.id);
    await project.push({ '.gitlab-ci.yml': ONE_JOB });
    const answer = await runner.requestJob();
    if (answer.outcome !== 'job') return assert.fail('no job');
    assert.equal((await runner.appendTrace(answer.job, 'sleeping\n')).status, 202);
    const canceled = await app.root.post(`/projects/${project.id}/builds/${answer.job.id}/cancel`);
    assert.equal(canceled.status, 201);
    const part = await runner.appendTrace(answer.job, 'still sleeping\n');
    assert.equal(part.status, 403);
    assert.equal(part.headers.get('job-status'), 'canceled');
    const update = await runner.finish(answer.job, 'failed', { failureReason: 'script_failure' });
    assert.equal(update.status, 403);
    assert.equal(update.headers.get('job-status'), 'canceled');
    assert.equal((await buildRow(app, answer.job.id)).status, 'canceled');
  });
});
