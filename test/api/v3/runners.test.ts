import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createProjectWorld, type ProjectWorld, type Role } from '../../support/project-world';
import { clearQueue, registeredRunner, runnerRow, seedPipeline } from '../../support/ci-world';
import type { RunnerClient } from '../../support/runner-client';

let app: TestApp;
// Project A: its owner, a master, a developer and a stranger. Project B: another owner, nobody of A's.
let a: ProjectWorld<Role>;
let b: ProjectWorld<Role>;
// A project of A's master, so that they can enable runners of A there.
let masterProjectId: number;

before(async () => {
  app = await startApp();
  a = await createProjectWorld(app, { name: 'runners-a' });
  b = await createProjectWorld(app, { name: 'runners-b', roles: ['developer'] as Role[] });
  const created = await a.master.client.post('/projects', { name: 'masters-own' });
  assert.equal(created.status, 201);
  masterProjectId = created.body.id;
});
after(() => app.close());

const unauthorized = { message: '401 Unauthorized' };
const forbidden = (reason?: string) => ({ message: reason ? `403 Forbidden - ${reason}` : '403 Forbidden' });
const recordNotFound = { message: '404 Not found' };
const invalidScope = { message: 'Scope contains invalid value' };

let runners = 0;

/** A registered runner and its id: shared without a project, specific to the project otherwise. */
async function runner(projectId?: number, opts: { tagList?: string } = {}): Promise<{ id: number; client: RunnerClient }> {
  const client = await registeredRunner(app, { projectId, description: `runner ${++runners}`, ...opts });
  return { id: (await runnerRow(app, client.token!))!.id, client };
}

/** Links a runner to one more project, as an administrator can. */
async function enable(projectId: number, runnerId: number): Promise<void> {
  const response = await app.root.post(`/projects/${projectId}/runners`, { runner_id: runnerId });
  assert.equal(response.status, 201, JSON.stringify(response.body));
}

const ids = (body: Array<{ id: number }>) => body.map((item) => item.id);

function assertResponse(response: { status: number; body: unknown }, status: number, body: unknown) {
  assert.equal(response.status, status, JSON.stringify(response.body));
  assert.deepEqual(response.body, body);
}

describe('GET /runners', () => {
  test('lists the specific runners of the projects the caller masters, never shared ones', async () => {
    const shared = await runner();
    const ofA = await runner(a.id);
    const ofB = await runner(b.id);
    for (const client of [a.owner.client, a.master.client]) {
      const listed = ids((await client.get('/runners', { per_page: 100 })).body);
      assert.ok(listed.includes(ofA.id));
      assert.ok(!listed.includes(shared.id));
      assert.ok(!listed.includes(ofB.id));
    }
    for (const client of [a.developer.client, a.stranger.client]) assert.deepEqual(ids((await client.get('/runners')).body), []);
  });

  test('scope active, paused and online narrow the list; specific, shared and unknown names are 400', async () => {
    const active = await runner(a.id);
    const paused = await runner(a.id);
    await app.root.put(`/runners/${paused.id}`, { active: false });
    const list = async (scope: string) => ids((await a.owner.client.get('/runners', { scope, per_page: 100 })).body);
    assert.ok((await list('active')).includes(active.id));
    assert.ok(!(await list('active')).includes(paused.id));
    assert.ok((await list('paused')).includes(paused.id));
    assert.ok(!(await list('paused')).includes(active.id));
    // A runner is online once it has asked for a build within the last two hours.
    assert.ok(!(await list('online')).includes(active.id));
    await active.client.requestBuild();
    assert.ok((await list('online')).includes(active.id));
    for (const scope of ['specific', 'shared', 'unknown'])
      assertResponse(await a.owner.client.get('/runners', { scope }), 400, invalidScope);
  });

  test('is paginated', async () => {
    await runner(a.id);
    await runner(a.id);
    const response = await a.owner.client.get('/runners', { per_page: 1 });
    assert.equal(response.body.length, 1);
    assert.ok(Number(response.headers.get('x-total')) >= 2);
    assert.equal(response.headers.get('x-per-page'), '1');
  });

  test('an anonymous caller gets 401', async () => {
    assertResponse(await app.anonymous.get('/runners'), 401, unauthorized);
  });
});

describe('GET /runners/all', () => {
  test('shows administrators every runner; scope specific and shared split them', async () => {
    const shared = await runner();
    const specific = await runner(b.id);
    const all = ids((await app.root.get('/runners/all', { per_page: 100 })).body);
    assert.ok(all.includes(shared.id) && all.includes(specific.id));
    const specifics = ids((await app.root.get('/runners/all', { scope: 'specific', per_page: 100 })).body);
    assert.ok(specifics.includes(specific.id) && !specifics.includes(shared.id));
    const shareds = ids((await app.root.get('/runners/all', { scope: 'shared', per_page: 100 })).body);
    assert.ok(shareds.includes(shared.id) && !shareds.includes(specific.id));
    assertResponse(await app.root.get('/runners/all', { scope: 'bogus' }), 400, invalidScope);
  });

  test('answers 403 to anyone but an administrator, 401 to anonymous callers', async () => {
    assertResponse(await a.owner.client.get('/runners/all'), 403, forbidden());
    assertResponse(await app.anonymous.get('/runners/all'), 401, unauthorized);
  });
});

describe('GET /runners/:id', () => {
  test('shows a specific runner in full to its masters: token, tags, info and its projects', async () => {
    const specific = await runner(a.id, { tagList: 'docker, linux' });
    const response = await a.master.client.get(`/runners/${specific.id}`);
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body), [
      'id',
      'description',
      'active',
      'is_shared',
      'name',
      'tag_list',
      'run_untagged',
      'locked',
      'version',
      'revision',
      'platform',
      'architecture',
      'contacted_at',
      'token',
      'projects',
    ]);
    assert.equal(response.body.token, specific.client.token);
    assert.deepEqual(response.body.tag_list, ['docker', 'linux']);
    assert.equal(response.body.is_shared, false);
    assert.equal(response.body.version, '1.6.0');
    assert.equal(response.body.name, 'gitlab-ci-multi-runner');
    assert.deepEqual(
      response.body.projects.map((project: any) => project.id),
      [a.id],
    );
    assert.equal(response.body.projects[0].path_with_namespace, a.path);
    assert.equal(response.body.projects[0].name_with_namespace, `${a.owner.user.name} / ${a.project.name}`);
  });

  test('lists only the projects a non-administrator is a member of; administrators see them all', async () => {
    const both = await runner(a.id);
    await enable(b.id, both.id);
    assert.deepEqual(
      (await a.master.client.get(`/runners/${both.id}`)).body.projects.map((p: any) => p.id),
      [a.id],
    );
    assert.deepEqual(
      (await app.root.get(`/runners/${both.id}`)).body.projects.map((p: any) => p.id),
      [a.id, b.id],
    );
  });

  test('shows a shared runner to anyone signed in, its token only to administrators', async () => {
    const shared = await runner();
    const asStranger = await a.stranger.client.get(`/runners/${shared.id}`);
    assert.equal(asStranger.status, 200);
    assert.equal(asStranger.body.is_shared, true);
    assert.ok(!('token' in asStranger.body));
    assert.equal((await app.root.get(`/runners/${shared.id}`)).body.token, shared.client.token);
  });

  test('refuses a specific runner to those who do not master one of its projects', async () => {
    const specific = await runner(a.id);
    for (const client of [a.developer.client, a.stranger.client, b.owner.client]) {
      assertResponse(await client.get(`/runners/${specific.id}`), 403, forbidden('No access granted'));
    }
    assert.equal((await app.root.get(`/runners/${specific.id}`)).status, 200);
    assertResponse(await app.anonymous.get(`/runners/${specific.id}`), 401, unauthorized);
  });

  test('an unknown id is 404 Not found', async () => {
    for (const id of ['999999', 'abc', '99999999999']) assertResponse(await app.root.get(`/runners/${id}`), 404, recordNotFound);
  });
});

describe('PUT /runners/:id', () => {
  test('an administrator changes a shared runner: description, active, tags, run_untagged and locked', async () => {
    const shared = await runner();
    const response = await app.root.put(`/runners/${shared.id}`, {
      description: 'renamed',
      active: false,
      tag_list: ['ruby', 'mysql'],
      run_untagged: false,
      locked: true,
    });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.equal(response.body.description, 'renamed');
    assert.equal(response.body.active, false);
    assert.deepEqual(response.body.tag_list, ['ruby', 'mysql']);
    assert.equal(response.body.run_untagged, false);
    assert.equal(response.body.locked, true);
    const row = (await runnerRow(app, shared.client.token!))!;
    assert.deepEqual(
      [row.description, row.active, row.run_untagged, row.locked, JSON.parse(row.tag_list)],
      ['renamed', 0, 0, 1, ['ruby', 'mysql']],
    );
  });

  test('a master changes a specific runner of their project; tags may be a comma-separated list; blanks change nothing', async () => {
    const specific = await runner(a.id);
    const response = await a.master.client.form('PUT', `/runners/${specific.id}`, { tag_list: 'docker, linux,docker', description: '' });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.deepEqual(response.body.tag_list, ['docker', 'linux']);
    assert.equal(response.body.description, `runner ${runners}`);
    assert.equal(response.body.token, specific.client.token);
    assert.equal((await app.root.put(`/runners/${specific.id}`, { active: false })).body.active, false);
  });

  test('a runner that runs no untagged builds needs tags (400, as 8.12 validated it)', async () => {
    const specific = await runner(a.id);
    assertResponse(await a.master.client.put(`/runners/${specific.id}`, { run_untagged: false }), 400, {
      message: { tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'] },
    });
    assert.equal((await runnerRow(app, specific.client.token!))!.run_untagged, 1);
    assert.equal((await a.master.client.put(`/runners/${specific.id}`, { run_untagged: false, tag_list: 'docker' })).status, 200);
  });

  test('refusals: a shared runner to non-administrators, a runner of projects the caller does not master, an unknown id, a bad value', async () => {
    const shared = await runner();
    const specific = await runner(a.id);
    assertResponse(await a.owner.client.put(`/runners/${shared.id}`, { description: 'x' }), 403, forbidden('Runner is shared'));
    for (const client of [a.developer.client, b.owner.client]) {
      assertResponse(await client.put(`/runners/${specific.id}`, { description: 'x' }), 403, forbidden('No access granted'));
    }
    assertResponse(await app.root.put('/runners/999999', { description: 'x' }), 404, recordNotFound);
    assert.equal((await app.root.put(`/runners/${specific.id}`, { active: 'maybe' })).status, 400);
    assertResponse(await app.anonymous.put(`/runners/${specific.id}`, { description: 'x' }), 401, unauthorized);
    assert.equal((await runnerRow(app, specific.client.token!))!.description, `runner ${runners}`);
  });
});

describe('changes reach the runner at its next poll', () => {
  test('new tags let a runner take a tagged build; a paused runner gets none', async () => {
    await clearQueue(app);
    const specific = await runner(a.id);
    const { builds } = await seedPipeline(app, a.id, { builds: [{ name: 'tagged', tag_list: ['docker'] }, { name: 'untagged' }] });
    await app.root.put(`/runners/${specific.id}`, { active: false });
    assert.equal((await specific.client.requestBuild()).outcome, 'nothing');
    await app.root.put(`/runners/${specific.id}`, { active: true, tag_list: 'docker', run_untagged: false });
    const first = await specific.client.requestBuild();
    assert.equal(first.outcome, 'build');
    assert.equal(first.outcome === 'build' && first.build.id, builds[0]!.id);
    // The untagged build waits: this runner now runs tagged builds only.
    assert.equal((await specific.client.requestBuild()).outcome, 'nothing');
  });
});

describe('DELETE /runners/:id', () => {
  test('a master removes a specific runner of their one project: 200 with the runner, and its token stops working', async () => {
    const specific = await runner(a.id);
    const response = await a.master.client.delete(`/runners/${specific.id}`);
    assertResponse(response, 200, {
      id: specific.id,
      description: `runner ${runners}`,
      active: true,
      is_shared: false,
      name: 'gitlab-ci-multi-runner',
    });
    assert.equal(await runnerRow(app, specific.client.token!), undefined);
    assert.equal((await specific.client.requestBuild()).outcome, 'forbidden');
    const links = await app.ctx.db.selectFrom('ci_runner_projects').select('id').where('runner_id', '=', specific.id).execute();
    assert.deepEqual(links, []);
  });

  test('refusals in 8.12 order: shared, more than one project, no access; unknown is 404; anonymous 401', async () => {
    const shared = await runner();
    const both = await runner(a.id);
    await enable(b.id, both.id);
    const specific = await runner(a.id);
    assertResponse(await a.owner.client.delete(`/runners/${shared.id}`), 403, forbidden('Runner is shared'));
    assertResponse(await a.owner.client.delete(`/runners/${both.id}`), 403, forbidden('Runner associated with more than one project'));
    for (const client of [a.developer.client, b.owner.client]) {
      assertResponse(await client.delete(`/runners/${specific.id}`), 403, forbidden('No access granted'));
    }
    assertResponse(await app.root.delete('/runners/999999'), 404, recordNotFound);
    assertResponse(await app.anonymous.delete(`/runners/${specific.id}`), 401, unauthorized);
    assert.ok(await runnerRow(app, specific.client.token!));
  });

  test('an administrator removes any runner: shared, unused, used by several projects', async () => {
    const shared = await runner();
    const both = await runner(a.id);
    await enable(b.id, both.id);
    for (const { id } of [shared, both]) assert.equal((await app.root.delete(`/runners/${id}`)).status, 200);
    assert.equal((await app.root.get(`/runners/${both.id}`)).status, 404);
  });
});

describe('GET /projects/:id/runners', () => {
  test("lists the project's specific runners and every shared runner to its masters", async () => {
    const shared = await runner();
    const ofA = await runner(a.id);
    const ofB = await runner(b.id);
    const listed = ids((await a.master.client.get(`/projects/${a.id}/runners`, { per_page: 100 })).body);
    assert.ok(listed.includes(shared.id) && listed.includes(ofA.id) && !listed.includes(ofB.id));
    const sharedOnly = ids((await a.master.client.get(`/projects/${a.id}/runners`, { scope: 'shared', per_page: 100 })).body);
    assert.ok(sharedOnly.includes(shared.id) && !sharedOnly.includes(ofA.id));
    const specificOnly = ids((await a.master.client.get(`/projects/${a.id}/runners`, { scope: 'specific', per_page: 100 })).body);
    assert.ok(specificOnly.includes(ofA.id) && !specificOnly.includes(shared.id));
    assertResponse(await a.master.client.get(`/projects/${a.id}/runners`, { scope: 'nope' }), 400, invalidScope);
  });

  test('developers get 403, strangers 404, anonymous callers 401', async () => {
    assertResponse(await a.developer.client.get(`/projects/${a.id}/runners`), 403, forbidden());
    assertResponse(await a.stranger.client.get(`/projects/${a.id}/runners`), 404, { message: '404 Project Not Found' });
    assertResponse(await app.anonymous.get(`/projects/${a.id}/runners`), 401, unauthorized);
  });
});

describe('POST /projects/:id/runners', () => {
  test('a master enables a specific runner of another project they master: 201 with the runner, then 409', async () => {
    const ofA = await runner(a.id);
    const response = await a.master.client.post(`/projects/${masterProjectId}/runners`, { runner_id: ofA.id });
    assertResponse(response, 201, {
      id: ofA.id,
      description: `runner ${runners}`,
      active: true,
      is_shared: false,
      name: 'gitlab-ci-multi-runner',
    });
    const listed = ids((await a.master.client.get(`/projects/${masterProjectId}/runners`, { per_page: 100 })).body);
    assert.ok(listed.includes(ofA.id));
    assertResponse(await a.master.client.post(`/projects/${masterProjectId}/runners`, { runner_id: ofA.id }), 409, {
      message: 'Runner was already enabled for this project',
    });
  });

  test('refusals: shared, locked, a runner the caller does not manage; an administrator may enable any specific runner', async () => {
    const shared = await runner();
    const locked = await runner(a.id);
    await app.root.put(`/runners/${locked.id}`, { locked: true });
    const ofB = await runner(b.id);
    assertResponse(
      await a.master.client.post(`/projects/${masterProjectId}/runners`, { runner_id: shared.id }),
      403,
      forbidden('Runner is shared'),
    );
    assertResponse(
      await a.master.client.post(`/projects/${masterProjectId}/runners`, { runner_id: locked.id }),
      403,
      forbidden('Runner is locked'),
    );
    assertResponse(
      await a.master.client.post(`/projects/${masterProjectId}/runners`, { runner_id: ofB.id }),
      403,
      forbidden('No access granted'),
    );
    assert.equal((await app.root.post(`/projects/${masterProjectId}/runners`, { runner_id: ofB.id })).status, 201);
  });

  test('bad requests: no runner_id is 400, an unknown one 404; developers 403, anonymous callers 401', async () => {
    const ofA = await runner(a.id);
    assertResponse(await a.master.client.post(`/projects/${a.id}/runners`, {}), 400, {
      message: '400 (Bad request) "runner_id" not given',
    });
    assertResponse(await a.master.client.post(`/projects/${a.id}/runners`, { runner_id: 999999 }), 404, recordNotFound);
    assertResponse(await a.master.client.post(`/projects/${a.id}/runners`, { runner_id: 'abc' }), 404, recordNotFound);
    assertResponse(await a.developer.client.post(`/projects/${a.id}/runners`, { runner_id: ofA.id }), 403, forbidden());
    assertResponse(await app.anonymous.post(`/projects/${a.id}/runners`, { runner_id: ofA.id }), 401, unauthorized);
  });
});

describe('DELETE /projects/:id/runners/:runner_id', () => {
  test('disables a runner that keeps another project: 200 with the runner, and the project no longer lists it', async () => {
    const both = await runner(a.id);
    await enable(b.id, both.id);
    const response = await b.owner.client.delete(`/projects/${b.id}/runners/${both.id}`);
    assert.equal(response.status, 200);
    assert.equal(response.body.id, both.id);
    assert.ok(!ids((await b.owner.client.get(`/projects/${b.id}/runners`, { per_page: 100 })).body).includes(both.id));
    assert.equal((await b.owner.client.delete(`/projects/${b.id}/runners/${both.id}`)).status, 404);
  });

  test("refuses to take a runner's only project; unknown runners are 404; developers 403, anonymous callers 401", async () => {
    const ofA = await runner(a.id);
    const ofB = await runner(b.id);
    assertResponse(
      await a.master.client.delete(`/projects/${a.id}/runners/${ofA.id}`),
      403,
      forbidden('Only one project associated with the runner. Please remove the runner instead'),
    );
    for (const id of [ofB.id, 999999, 'abc'])
      assertResponse(await a.master.client.delete(`/projects/${a.id}/runners/${id}`), 404, { message: '404 Runner Not Found' });
    assertResponse(await a.developer.client.delete(`/projects/${a.id}/runners/${ofA.id}`), 403, forbidden());
    assertResponse(await app.anonymous.delete(`/projects/${a.id}/runners/${ofA.id}`), 401, unauthorized);
  });
});
