import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createProjectWorld, type ProjectWorld, type Role } from '../../support/project-world';
import { registeredRunner } from '../../support/ci-world';
import { runNextBuild } from '../../support/ci-run';
import type { RunnerClient } from '../../support/runner-client';
import type { ApiClient } from '../../support/client';

const DEPLOYING_YAML = 'production:\n  script: ./deploy\n  environment: production\n';

let app: TestApp;
let world: ProjectWorld<Role>;
let master: ApiClient;
let developer: ApiClient;
let reporter: ApiClient;
let runner: RunnerClient;

before(async () => {
  app = await startApp();
  world = await createProjectWorld(app, { name: 'envs', visibility: 0, commits: [{ files: { '.gitlab-ci.yml': DEPLOYING_YAML } }] });
  master = world.master.client.v4();
  developer = world.developer.client.v4();
  reporter = world.reporter.client.v4();
  runner = await registeredRunner(app);
});
after(() => app.close());

const environments = (suffix = '') => `/projects/${world.id}/environments${suffix}`;

/** Runs the project's deploy job to success; answers the job's id. */
async function deploy(): Promise<number> {
  assert.equal((await developer.post(`/projects/${world.id}/pipeline`, { ref: 'master' })).status, 201);
  return runNextBuild(runner, { state: 'success', trace: 'deployed\n' });
}

describe('/projects/:id/environments', () => {
  test('a developer creates an environment (201): its slug, state and basic project', async () => {
    const response = await developer.post(environments(), { name: 'review/Feature 1', external_url: 'https://review.example.com' });
    assert.equal(response.status, 201, response.text);
    const environment = response.body;
    assert.deepEqual(Object.keys(environment), ['id', 'name', 'slug', 'external_url', 'project', 'state']);
    assert.equal(environment.name, 'review/Feature 1');
    assert.match(environment.slug, /^review-feature-1-[a-z0-9]{6}$/);
    assert.equal(environment.external_url, 'https://review.example.com');
    assert.equal(environment.state, 'available');
    assert.equal(environment.project.id, world.id);
    assert.equal(environment.project.path_with_namespace, world.path);
    assert.ok(!('visibility_level' in environment.project));
    const plain = await developer.post(environments(), { name: 'staging' });
    assert.equal(plain.body.slug, 'staging');
  });

  test('refuses a missing name (400), a taken one (400) and a reporter (403)', async () => {
    assert.deepEqual((await developer.post(environments(), {})).body, { error: 'name is missing' });
    await developer.post(environments(), { name: 'twice' });
    const taken = await developer.post(environments(), { name: 'twice' });
    assert.equal(taken.status, 400);
    assert.ok(taken.body.message.name);
    assert.equal((await reporter.post(environments(), { name: 'mine' })).status, 403);
    assert.equal((await app.anonymous.v4().get(environments())).status, 401);
  });

  test('lists (with pagination headers) and reads one; 404 for one the project does not have', async () => {
    const list = await reporter.get(environments());
    assert.equal(list.status, 200);
    assert.ok(Number(list.headers.get('x-total')) >= 2);
    const one = await reporter.get(environments(`/${list.body[0].id}`));
    assert.equal(one.status, 200);
    assert.equal(one.body.name, list.body[0].name);
    assert.equal((await reporter.get(environments('/999999'))).status, 404);
  });

  test('a master changes and removes an environment; a developer may not', async () => {
    const created = (await developer.post(environments(), { name: 'short-lived' })).body;
    assert.equal((await developer.put(environments(`/${created.id}`), { name: 'other' })).status, 403);
    const changed = await master.put(environments(`/${created.id}`), { external_url: 'https://x.example.com' });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.external_url, 'https://x.example.com');
    assert.equal((await master.delete(environments(`/${created.id}`))).status, 200);
    assert.equal((await master.get(environments(`/${created.id}`))).status, 404);
  });
});

describe('POST /projects/:id/environments/:environment_id/stop', () => {
  test('a developer stops an environment; the next deployment makes it available again', async () => {
    await deploy();
    const production = (await reporter.get(environments())).body.find((environment: any) => environment.name === 'production');
    assert.equal(production.state, 'available');
    assert.equal((await reporter.post(environments(`/${production.id}/stop`))).status, 403);
    const stopped = await developer.post(environments(`/${production.id}/stop`));
    assert.equal(stopped.status, 200);
    assert.equal(stopped.body.state, 'stopped');
    assert.equal((await reporter.get(environments(`/${production.id}`))).body.state, 'stopped');
    await deploy();
    assert.equal((await reporter.get(environments(`/${production.id}`))).body.state, 'available');
    assert.equal((await developer.post(environments('/999999/stop'))).status, 404);
  });
});

describe('/projects/:id/deployments', () => {
  test('lists deployments with their environment and the job that deployed (a v4 job)', async () => {
    const jobId = await deploy();
    const list = await reporter.get(`/projects/${world.id}/deployments`, { per_page: 100 });
    assert.equal(list.status, 200);
    assert.ok(list.headers.get('x-total'));
    const deployment = list.body.find((item: any) => item.deployable?.id === jobId);
    assert.ok(deployment, 'the deployment of the job');
    assert.equal(deployment.environment.name, 'production');
    assert.equal(deployment.environment.slug, 'production');
    assert.equal(deployment.deployable.status, 'success');
    assert.ok(deployment.deployable.pipeline.id);
    assert.equal(deployment.user.username, world.developer.user.username);
    const one = await reporter.get(`/projects/${world.id}/deployments/${deployment.id}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.iid, deployment.iid);
    assert.equal((await reporter.get(`/projects/${world.id}/deployments/999999`)).status, 404);
    assert.equal((await world.guest.client.v4().get(`/projects/${world.id}/deployments`)).status, 403);
  });
});
