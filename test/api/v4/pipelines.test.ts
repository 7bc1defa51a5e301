import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createProjectWorld, type ProjectWorld, type Role } from '../../support/project-world';
import { seedCommit } from '../../support/repo';
import type { ApiClient } from '../../support/client';

const CI_YML = 'stages: [build, test]\ncompile:\n  stage: build\n  script: make\nunit:\n  stage: test\n  script: make test\n';

let app: TestApp;
let world: ProjectWorld<Role>;
let developer: ApiClient;
let reporter: ApiClient;

before(async () => {
  app = await startApp();
  world = await createProjectWorld(app, {
    name: 'pipes',
    visibility: 0,
    commits: [{ files: { '.gitlab-ci.yml': CI_YML, 'README.md': '# pipes\n' } }],
  });
  await seedCommit(app, world.id, { branch: 'no-ci', startRef: 'refs/heads/master', deletes: ['.gitlab-ci.yml'] });
  await seedCommit(app, world.id, { branch: 'broken', startRef: 'refs/heads/master', files: { '.gitlab-ci.yml': 'unit: [\n' } });
  developer = world.developer.client.v4();
  reporter = world.reporter.client.v4();
});
after(() => app.close());

const path = (suffix = '') => `/projects/${world.id}/pipelines${suffix}`;

describe('POST /projects/:id/pipeline', () => {
  test('runs a pipeline for the ref, made by the caller, with a job per job of .gitlab-ci.yml', async () => {
    const response = await developer.post(`/projects/${world.id}/pipeline`, { ref: 'master' });
    assert.equal(response.status, 201, response.text);
    assert.equal(response.headers.get('content-type'), 'application/json');
    const pipeline = response.body;
    assert.equal(pipeline.ref, 'master');
    assert.equal(pipeline.sha, world.shas[0]);
    assert.equal(pipeline.status, 'pending');
    assert.equal(pipeline.user.username, world.developer.user.username);
    assert.ok(pipeline.web_url.endsWith(`/${world.path}/pipelines/${pipeline.id}`), pipeline.web_url);
    assert.equal(pipeline.yaml_errors, null);
    assert.equal(pipeline.tag, false);
    const jobs = await developer.get(path(`/${pipeline.id}/jobs`));
    assert.equal(jobs.status, 200);
    assert.deepEqual(jobs.body.map((job: any) => [job.name, job.status]).sort(), [
      ['compile', 'pending'],
      ['unit', 'created'],
    ]);
  });

  test('takes the ref in the query string, as python-gitlab and GitLab document it', async () => {
    const response = await developer.post(`/projects/${world.id}/pipeline?ref=master`);
    assert.equal(response.status, 201, response.text);
    assert.equal(response.body.ref, 'master');
  });

  test('answers 400 with the reason, saving nothing, when no pipeline can be made', async () => {
    const before = (await developer.get(path(), { per_page: 100 })).body.length;
    for (const [ref, reason] of [
      ['nowhere', 'Reference not found'],
      ['no-ci', 'Missing .gitlab-ci.yml file'],
    ]) {
      const response = await developer.post(`/projects/${world.id}/pipeline`, { ref });
      assert.equal(response.status, 400, ref);
      assert.deepEqual(response.body, { message: { base: [reason] } });
    }
    const broken = await developer.post(`/projects/${world.id}/pipeline`, { ref: 'broken' });
    assert.equal(broken.status, 400);
    assert.equal(broken.body.message.base.length, 1);
    assert.equal((await developer.get(path(), { per_page: 100 })).body.length, before);
  });

  test('needs a ref (400) and a developer (403 to a reporter, 401 to nobody)', async () => {
    const missing = await developer.post(`/projects/${world.id}/pipeline`, {});
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'ref is missing' });
    assert.equal((await reporter.post(`/projects/${world.id}/pipeline`, { ref: 'master' })).status, 403);
    assert.equal((await app.anonymous.v4().post(`/projects/${world.id}/pipeline`, { ref: 'master' })).status, 401);
  });
});

describe('GET /projects/:id/pipelines', () => {
  test('lists the basic fields, newest first, with pagination headers', async () => {
    const response = await reporter.get(path(), { per_page: 1 });
    assert.equal(response.status, 200);
    assert.equal(response.body.length, 1);
    assert.deepEqual(Object.keys(response.body[0]), ['id', 'sha', 'ref', 'status', 'web_url']);
    assert.ok(Number(response.headers.get('x-total')) >= 2);
    assert.equal(response.headers.get('x-per-page'), '1');
    assert.match(response.headers.get('link') ?? '', /rel="next"/);
  });

  test('filters by status, ref, sha, username and yaml_errors, and sorts', async () => {
    const all = (await reporter.get(path(), { per_page: 100 })).body;
    const ids = all.map((pipeline: any) => pipeline.id);
    assert.deepEqual(
      (await reporter.get(path(), { sort: 'asc', per_page: 100 })).body.map((p: any) => p.id),
      [...ids].sort((a, b) => a - b),
    );
    assert.equal((await reporter.get(path(), { ref: 'nowhere' })).body.length, 0);
    assert.equal((await reporter.get(path(), { ref: 'master', per_page: 100 })).body.length, all.length);
    assert.equal((await reporter.get(path(), { sha: world.shas[0], per_page: 100 })).body.length, all.length);
    assert.equal((await reporter.get(path(), { status: 'success' })).body.length, 0);
    assert.equal((await reporter.get(path(), { status: 'pending', per_page: 100 })).body.length, all.length);
    assert.equal((await reporter.get(path(), { username: world.developer.user.username, per_page: 100 })).body.length, all.length);
    assert.equal((await reporter.get(path(), { username: world.reporter.user.username })).body.length, 0);
    assert.equal((await reporter.get(path(), { yaml_errors: true })).body.length, 0);
  });

  test('refuses a scope, status or order it does not know with 400', async () => {
    for (const query of [{ scope: 'bogus' }, { status: 'bogus' }, { order_by: 'name' }, { sort: 'up' }]) {
      assert.equal((await reporter.get(path(), query)).status, 400, JSON.stringify(query));
    }
  });

  test('hides a private project from strangers and anonymous callers (404), shows a public one to anonymous callers', async () => {
    assert.equal((await world.stranger.client.v4().get(path())).status, 404);
    assert.equal((await app.anonymous.v4().get(path())).status, 404);
    const open = await createProjectWorld(app, {
      roles: ['developer'],
      name: 'open-pipes',
      visibility: 20,
      commits: [{ files: { '.gitlab-ci.yml': CI_YML } }],
    });
    assert.equal((await open.developer.client.v4().post(`/projects/${open.id}/pipeline`, { ref: 'master' })).status, 201);
    const anonymous = await app.anonymous.v4().get(`/projects/${open.id}/pipelines`);
    assert.equal(anonymous.status, 200);
    assert.equal(anonymous.body.length, 1);
  });
});

describe('GET /projects/:id/pipelines/:pipeline_id', () => {
  test('shows the whole pipeline', async () => {
    const [latest] = (await reporter.get(path())).body;
    const response = await reporter.get(path(`/${latest.id}`));
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body), [
      'id',
      'sha',
      'ref',
      'status',
      'web_url',
      'before_sha',
      'tag',
      'yaml_errors',
      'user',
      'created_at',
      'updated_at',
      'started_at',
      'finished_at',
      'committed_at',
      'duration',
      'coverage',
      'source',
    ]);
    assert.equal(response.body.id, latest.id);
  });

  test('answers 404 for a pipeline the project does not have', async () => {
    assert.equal((await reporter.get(path('/999999'))).status, 404);
    assert.equal((await reporter.get(path('/abc'))).status, 404);
  });
});

describe('POST /projects/:id/pipelines/:pipeline_id/cancel and /retry', () => {
  test('a developer cancels the active jobs (200) and retries the canceled pipeline (201)', async () => {
    const created = (await developer.post(`/projects/${world.id}/pipeline`, { ref: 'master' })).body;
    assert.equal((await reporter.post(path(`/${created.id}/cancel`))).status, 403);
    const canceled = await developer.post(path(`/${created.id}/cancel`));
    assert.equal(canceled.status, 200);
    assert.equal(canceled.body.status, 'canceled');
    const retried = await developer.post(path(`/${created.id}/retry`));
    assert.equal(retried.status, 201);
    assert.equal(retried.body.id, created.id);
  });
});

describe('the v4 OpenAPI document', () => {
  test("names every CI route of v4, and v3's builds stay out of it", async () => {
    const { paths } = (await app.anonymous.get('/api/v4/openapi.json')).body;
    const expected: Array<[string, string]> = [
      ['get', '/api/v4/projects/{id}/jobs'],
      ['get', '/api/v4/projects/{id}/pipelines/{pipeline_id}/jobs'],
      ['get', '/api/v4/projects/{id}/jobs/{job_id}/trace'],
      ['post', '/api/v4/projects/{id}/jobs/{job_id}/play'],
      ['post', '/api/v4/projects/{id}/pipeline'],
      ['get', '/api/v4/projects/{id}/pipelines'],
      ['post', '/api/v4/projects/{id}/trigger/pipeline'],
      ['put', '/api/v4/projects/{id}/triggers/{trigger_id}'],
      ['post', '/api/v4/projects/{id}/variables'],
      ['post', '/api/v4/projects/{id}/environments/{environment_id}/stop'],
      ['get', '/api/v4/projects/{id}/deployments'],
      ['get', '/api/v4/runners/all'],
      ['post', '/api/v4/projects/{id}/runners'],
      ['post', '/api/v4/ci/lint'],
    ];
    for (const [method, route] of expected) assert.ok(paths[route]?.[method], `${method} ${route}`);
    assert.ok(!Object.keys(paths).some((route) => route.includes('/builds')));
    // `POST /runners` is the runner API v4's registration (src/api/runner-v4), not a consumer route.
  });
});
