import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createProjectWorld, type ProjectWorld, type Role } from '../../support/project-world';
import { putArtifacts, putTrace, seedPipeline, seedRunner } from '../../support/ci';
import type { ApiClient } from '../../support/client';

let app: TestApp;
let world: ProjectWorld<Role>;
let developer: ApiClient;
let reporter: ApiClient;
let pipeline: { id: number; builds: number[] };
let runnerId: number;

before(async () => {
  app = await startApp();
  world = await createProjectWorld(app, { name: 'jobs', visibility: 0, commits: [{ files: { 'README.md': '# jobs\n' } }] });
  developer = world.developer.client.v4();
  reporter = world.reporter.client.v4();
  runnerId = await seedRunner(app, { description: 'the runner' });
  pipeline = await seedPipeline(app, world.id, {
    sha: world.shas[0],
    status: 'running',
    user_id: world.owner.user.id,
    builds: [
      { name: 'compile', status: 'success', stage: 'build', user_id: world.owner.user.id, runner_id: runnerId },
      { name: 'unit', status: 'running', stage: 'test', runner_id: runnerId },
      { name: 'deploy', status: 'skipped', stage: 'deploy', when: 'manual' },
    ],
  });
});
after(() => app.close());

const jobPath = (id: number | string, suffix = '') => `/projects/${world.id}/jobs/${id}${suffix}`;

const JOB_KEYS = [
  'id',
  'status',
  'stage',
  'name',
  'ref',
  'tag',
  'coverage',
  'created_at',
  'started_at',
  'finished_at',
  'duration',
  'user',
  'commit',
  'pipeline',
  'web_url',
  'artifacts_file',
  'runner',
  'artifacts_expire_at',
];

describe('GET /projects/:id/jobs', () => {
  test('lists the jobs newest first as v4 jobs, with pagination headers', async () => {
    const response = await reporter.get(`/projects/${world.id}/jobs`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.deepEqual(
      response.body.map((job: any) => job.name),
      ['deploy', 'unit', 'compile'],
    );
    assert.deepEqual(Object.keys(response.body[0]), JOB_KEYS);
    assert.equal(response.headers.get('x-total'), '3');
    const compile = response.body[2];
    assert.deepEqual(compile.pipeline, { id: pipeline.id, ref: 'master', sha: world.shas[0], status: 'running' });
    assert.equal(compile.commit.id, world.shas[0]);
    assert.equal(compile.commit.committer_name, 'Ada Tester');
    assert.deepEqual(compile.commit.parent_ids, []);
    assert.equal(compile.user.username, world.owner.user.username);
    assert.equal(compile.runner.id, runnerId);
    assert.equal(compile.runner.description, 'the runner');
    assert.equal(typeof compile.duration, 'number');
    assert.ok(compile.web_url.endsWith(`/${world.path}/-/jobs/${compile.id}`), compile.web_url);
  });

  test('narrows by scope, one or several (`scope[]`), and refuses an unknown one (400)', async () => {
    const one = await reporter.get(`/projects/${world.id}/jobs`, { scope: 'running' });
    assert.deepEqual(
      one.body.map((job: any) => job.name),
      ['unit'],
    );
    const several = await reporter.raw('GET', `/projects/${world.id}/jobs?scope[]=running&scope[]=success`);
    assert.deepEqual(
      several.body.map((job: any) => job.name),
      ['unit', 'compile'],
    );
    assert.equal((await reporter.get(`/projects/${world.id}/jobs`, { scope: 'bogus' })).status, 400);
  });

  test('is hidden from strangers of a private project (404), refused to guests (403) and anonymous callers (401)', async () => {
    assert.equal((await world.stranger.client.v4().get(`/projects/${world.id}/jobs`)).status, 404);
    assert.equal((await app.anonymous.v4().get(`/projects/${world.id}/jobs`)).status, 401);
    assert.equal((await world.guest.client.v4().get(`/projects/${world.id}/jobs`)).status, 403);
  });
});

describe('GET /projects/:id/pipelines/:pipeline_id/jobs', () => {
  test("lists that pipeline's jobs only; 404 for a pipeline of no project of the caller's", async () => {
    const other = await seedPipeline(app, world.id, { sha: world.shas[0], builds: [{ name: 'lonely', status: 'pending' }] });
    const response = await reporter.get(`/projects/${world.id}/pipelines/${other.id}/jobs`);
    assert.equal(response.status, 200);
    assert.deepEqual(
      response.body.map((job: any) => job.name),
      ['lonely'],
    );
    assert.equal((await reporter.get(`/projects/${world.id}/pipelines/999999/jobs`)).status, 404);
  });
});

describe('GET /projects/:id/jobs/:job_id', () => {
  test('shows one job; 404 for a job the project does not have', async () => {
    const response = await reporter.get(jobPath(pipeline.builds[0]));
    assert.equal(response.status, 200);
    assert.equal(response.body.name, 'compile');
    assert.equal((await reporter.get(jobPath(999999))).status, 404);
    assert.equal((await reporter.get(jobPath('abc'))).status, 404);
  });
});

describe('GET /projects/:id/jobs/:job_id/trace', () => {
  test('answers the trace as plain text', async () => {
    await putTrace(app, world.id, pipeline.builds[0], 'making\nmade\n');
    const response = await reporter.raw('GET', jobPath(pipeline.builds[0], '/trace'));
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
    assert.equal(response.text, 'making\nmade\n');
  });
});

describe('artifacts', () => {
  test('GET …/jobs/:job_id/artifacts downloads the archive; 404 without one', async () => {
    const content = await putArtifacts(app, world.id, pipeline.builds[0], { fileName: 'out.zip' });
    const response = await fetch(`${app.url}/api/v4${jobPath(pipeline.builds[0], '/artifacts')}`, {
      headers: { 'private-token': world.reporter.token },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/octet-stream');
    assert.match(response.headers.get('content-disposition') ?? '', /filename=out\.zip/);
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), content);
    const job = (await reporter.get(jobPath(pipeline.builds[0]))).body;
    assert.deepEqual(job.artifacts_file, { filename: 'out.zip', size: content.length });
    assert.equal((await reporter.get(jobPath(pipeline.builds[1], '/artifacts'))).status, 404);
  });

  test('GET …/jobs/artifacts/:ref_name/download?job= downloads the latest successful pipeline’s', async () => {
    const done = await seedPipeline(app, world.id, {
      sha: world.shas[0],
      ref: 'feature/x',
      status: 'success',
      builds: [{ name: 'pack', status: 'success' }],
    });
    const content = await putArtifacts(app, world.id, done.builds[0], { content: Buffer.from('PK-pack') });
    const response = await fetch(`${app.url}/api/v4/projects/${world.id}/jobs/artifacts/feature/x/download?job=pack`, {
      headers: { 'private-token': world.reporter.token },
    });
    assert.equal(response.status, 200);
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), content);
    const missing = await reporter.get(`/projects/${world.id}/jobs/artifacts/feature/x/download`, { job: 'nothing' });
    assert.equal(missing.status, 404);
  });

  test('POST …/artifacts/keep keeps them (200), developers only', async () => {
    const id = pipeline.builds[0];
    await putArtifacts(app, world.id, id, { expireAt: new Date(Date.now() + 3600_000).toISOString() });
    assert.equal((await reporter.post(jobPath(id, '/artifacts/keep'))).status, 403);
    const kept = await developer.post(jobPath(id, '/artifacts/keep'));
    assert.equal(kept.status, 200);
    assert.equal(kept.body.artifacts_expire_at, null);
  });
});

describe('job actions', () => {
  test('cancel (201) a running job; a reporter may not (403)', async () => {
    const { builds } = await seedPipeline(app, world.id, { sha: world.shas[0], builds: [{ name: 'long', status: 'running' }] });
    assert.equal((await reporter.post(jobPath(builds[0], '/cancel'))).status, 403);
    const response = await developer.post(jobPath(builds[0], '/cancel'));
    assert.equal(response.status, 201);
    assert.equal(response.body.status, 'canceled');
  });

  test('retry (201) makes a new job of the same name', async () => {
    const { builds } = await seedPipeline(app, world.id, {
      sha: world.shas[0],
      status: 'failed',
      builds: [{ name: 'flaky', status: 'failed' }],
    });
    const response = await developer.post(jobPath(builds[0], '/retry'));
    assert.equal(response.status, 201);
    assert.notEqual(response.body.id, builds[0]);
    assert.equal(response.body.name, 'flaky');
    assert.equal(response.body.status, 'pending');
  });

  test('play (200) starts a manual job; a reporter may not (403)', async () => {
    const id = pipeline.builds[2];
    assert.equal((await reporter.get(jobPath(id))).body.status, 'manual');
    assert.equal((await reporter.post(jobPath(id, '/play'))).status, 403);
    const response = await developer.post(jobPath(id, '/play'));
    assert.equal(response.status, 200);
    assert.equal(response.body.status, 'pending');
  });

  test('erase (201) takes the trace and artifacts away', async () => {
    const { builds } = await seedPipeline(app, world.id, { sha: world.shas[0], builds: [{ name: 'erased', status: 'success' }] });
    await putTrace(app, world.id, builds[0], 'secret output\n');
    await putArtifacts(app, world.id, builds[0]);
    const response = await developer.post(jobPath(builds[0], '/erase'));
    assert.equal(response.status, 201);
    assert.equal(response.body.artifacts_file, null);
    assert.equal((await reporter.raw('GET', jobPath(builds[0], '/trace'))).text, '');
  });
});

describe('public projects', () => {
  test('any signed-in user reads the jobs of a public project; anonymous callers are asked to sign in (401), as GitLab did', async () => {
    const open = await createProjectWorld(app, {
      roles: ['stranger'],
      name: 'open-jobs',
      visibility: 20,
      commits: [{ files: { a: 'a' } }],
    });
    await seedPipeline(app, open.id, { sha: open.shas[0], builds: [{ name: 'visible', status: 'success' }] });
    const response = await open.stranger.client.v4().get(`/projects/${open.id}/jobs`);
    assert.equal(response.status, 200);
    assert.equal(response.body[0].name, 'visible');
    assert.equal((await open.stranger.client.v4().post(`/projects/${open.id}/jobs/${response.body[0].id}/retry`)).status, 403);
    assert.equal((await app.anonymous.v4().get(`/projects/${open.id}/jobs`)).status, 401);
  });
});
