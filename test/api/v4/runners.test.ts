import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createProjectWorld, type ProjectWorld, type Role } from '../../support/project-world';
import { registeredRunner, runnerRow } from '../../support/ci-world';
import type { RunnerClient } from '../../support/runner-client';

let app: TestApp;
let a: ProjectWorld<Role>;
let b: ProjectWorld<Role>;

before(async () => {
  app = await startApp();
  a = await createProjectWorld(app, { name: 'runners-a' });
  b = await createProjectWorld(app, { name: 'runners-b', roles: ['developer'] as Role[] });
});
after(() => app.close());

let count = 0;

/** A registered runner and its id: shared without a project, specific to the project otherwise. */
async function runner(projectId?: number): Promise<{ id: number; client: RunnerClient }> {
  const client = await registeredRunner(app, { projectId, description: `runner ${++count}` });
  return { id: (await runnerRow(app, client.token!))!.id, client };
}

const ids = (body: Array<{ id: number }>) => body.map((item) => item.id);

describe('GET /runners', () => {
  test("lists the specific runners of the caller's projects as v4 runners, with pagination headers", async () => {
    const shared = await runner();
    const ofA = await runner(a.id);
    const ofB = await runner(b.id);
    const response = await a.master.client.v4().get('/runners', { per_page: 100 });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.ok(response.headers.get('x-total'));
    assert.deepEqual(ids(response.body), [ofA.id]);
    assert.ok(!ids(response.body).includes(shared.id) && !ids(response.body).includes(ofB.id));
    const [listed] = response.body;
    assert.deepEqual(Object.keys(listed), ['id', 'description', 'active', 'is_shared', 'name', 'ip_address', 'online', 'status']);
    // Registered, never polled for a build yet.
    assert.equal(listed.status, 'not_connected');
    assert.equal(listed.online, false);
  });

  test('a runner that asked for a build is online; a paused one says so', async () => {
    const polled = await runner(a.id);
    await polled.client.requestBuild();
    const seen = (await a.master.client.v4().get(`/runners/${polled.id}`)).body;
    assert.equal(seen.online, true);
    assert.equal(seen.status, 'online');
    const paused = await a.master.client.v4().put(`/runners/${polled.id}`, { active: false });
    assert.equal(paused.status, 200);
    assert.equal(paused.body.status, 'paused');
    assert.equal(paused.body.active, false);
  });

  test('refuses an unknown scope (400) and anonymous callers (401)', async () => {
    assert.equal((await a.master.client.v4().get('/runners', { scope: 'shared' })).status, 400);
    assert.equal((await app.anonymous.v4().get('/runners')).status, 401);
  });
});

describe('GET /runners/all', () => {
  test('lists every runner to administrators only (403 to others)', async () => {
    const shared = await runner();
    const all = await app.root.v4().get('/runners/all', { per_page: 100 });
    assert.equal(all.status, 200);
    assert.ok(ids(all.body).includes(shared.id));
    const sharedOnly = await app.root.v4().get('/runners/all', { scope: 'shared', per_page: 100 });
    assert.ok(sharedOnly.body.every((item: any) => item.is_shared));
    assert.equal((await a.master.client.v4().get('/runners/all')).status, 403);
  });
});

describe('/runners/:id', () => {
  test('shows details with the basic projects; changes and removes a runner of a project the caller masters', async () => {
    const ofA = await runner(a.id);
    const details = await a.master.client.v4().get(`/runners/${ofA.id}`);
    assert.equal(details.status, 200);
    assert.deepEqual(
      details.body.projects.map((project: any) => project.path_with_namespace),
      [a.path],
    );
    assert.equal(typeof details.body.token, 'string');
    assert.deepEqual(details.body.tag_list, []);
    const changed = await a.master.client.v4().put(`/runners/${ofA.id}`, { description: 'renamed', tag_list: ['docker', 'linux'] });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.description, 'renamed');
    assert.deepEqual(changed.body.tag_list.sort(), ['docker', 'linux']);
    assert.equal((await b.owner.client.v4().get(`/runners/${ofA.id}`)).status, 403);
    assert.equal((await a.developer.client.v4().delete(`/runners/${ofA.id}`)).status, 403);
    const removed = await a.master.client.v4().delete(`/runners/${ofA.id}`);
    assert.equal(removed.status, 200);
    assert.equal(removed.body.id, ofA.id);
    assert.equal((await a.master.client.v4().get(`/runners/${ofA.id}`)).status, 404);
    assert.equal((await a.master.client.v4().get('/runners/abc')).status, 404);
  });

  test('a runner whose stored token cannot be opened (another secret key) is shown without it, not a 500', async () => {
    const ofA = await runner(a.id);
    await app.ctx.db.updateTable('ci_runners').set({ token_sealed: 'not.a.sealed-value' }).where('id', '=', ofA.id).execute();
    for (const [version, client] of [
      ['v3', a.master.client],
      ['v4', a.master.client.v4()],
    ] as const) {
      const details = await client.get(`/runners/${ofA.id}`);
      assert.equal(details.status, 200, version);
      assert.equal(details.body.token ?? null, null, version);
    }
  });
});

describe('/projects/:id/runners', () => {
  test("lists the project's runners and shared ones; enables (201) and disables (200) a runner of another project the caller masters", async () => {
    const ofB = await runner(b.id);
    const own = await b.owner.client.post('/projects', { name: 'second' });
    const second = own.body.id as number;
    const listed = await b.owner.client.v4().get(`/projects/${b.id}/runners`, { per_page: 100 });
    assert.equal(listed.status, 200);
    assert.ok(ids(listed.body).includes(ofB.id));
    const enabled = await b.owner.client.v4().post(`/projects/${second}/runners`, { runner_id: ofB.id });
    assert.equal(enabled.status, 201, enabled.text);
    assert.equal(enabled.body.id, ofB.id);
    assert.ok(ids((await b.owner.client.v4().get(`/projects/${second}/runners`, { per_page: 100 })).body).includes(ofB.id));
    const disabled = await b.owner.client.v4().delete(`/projects/${second}/runners/${ofB.id}`);
    assert.equal(disabled.status, 200);
    assert.deepEqual((await b.owner.client.v4().post(`/projects/${second}/runners`, {})).body, { error: 'runner_id is missing' });
    assert.equal((await b.developer.client.v4().get(`/projects/${b.id}/runners`)).status, 403);
  });
});
