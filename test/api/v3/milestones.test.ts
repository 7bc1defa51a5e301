import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createProject } from '../../support/create';
import { createPeople, createProjectWorld, type People, type ProjectWorld, type Role } from '../../support/project-world';
import { assertAccess, expectedStatus, REFUSALS, type Visibility } from '../../support/access-matrix';
import type { ApiClient } from '../../support/client';

let app: TestApp;
let people: People<Role>;
/** A private and a public project, with a member of each role on both. */
let worlds: Record<'private' | 'public', ProjectWorld<Role>>;

before(async () => {
  app = await startApp();
  // The owner makes a fresh project for most tests.
  people = await createPeople(app, undefined, { owner: { projects_limit: 1000 } });
  worlds = {
    private: await createProjectWorld(app, { people, name: 'milestones-private', visibility: 0 }),
    public: await createProjectWorld(app, { people, name: 'milestones-public', visibility: 20 }),
  };
});
after(() => app.close());

const base = (project: { id: number }) => `/projects/${project.id}/milestones`;
let counter = 0;
const uniqueTitle = (prefix = 'milestone') => `${prefix}-${++counter}`;
const notFound = { message: '404 Not found' };

const newProject = (name: string): Promise<{ id: number }> => createProject(people.owner.client, { name: `${name}-${++counter}` });

async function createMilestone(project: { id: number }, fields: Record<string, unknown> = {}) {
  const response = await app.root.post(base(project), { title: uniqueTitle(), ...fields });
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return response.body;
}

/** The 401/404/403 table of a route on both projects, and GitLab's body for each refusal. */
async function assertMilestoneAccess(
  call: (client: ApiClient, project: { id: number }) => Promise<{ status: number; body?: unknown }>,
  minimum: 'non-member' | 'master',
  success = 200,
) {
  for (const visibility of ['private', 'public'] as Visibility[]) {
    const world = worlds[visibility as 'private' | 'public'];
    const refusals: { status: number; body?: unknown }[] = [];
    await assertAccess(
      world.clients,
      async (client) => {
        const response = await call(client, world);
        if (response.status in REFUSALS) refusals.push(response);
        return response;
      },
      (caller) => expectedStatus(visibility, caller, { minimum, success }),
      `${visibility} project`,
    );
    for (const { status, body } of refusals) assert.deepEqual(body, REFUSALS[status]);
  }
}

describe('GET /projects/:id/milestones', () => {
  test('oldest first, paginated, filtered by state and iid', async () => {
    const project = await newProject('listed');
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await createMilestone(project));
    assert.equal((await app.root.put(`${base(project)}/${made[1].id}`, { state_event: 'close' })).status, 200);
    const all = await people.owner.client.get(base(project));
    assert.equal(all.status, 200);
    assert.deepEqual(
      all.body.map((milestone: any) => milestone.iid),
      [1, 2, 3],
    );
    assert.equal(all.headers.get('x-total'), '3');
    const page = await people.owner.client.get(base(project), { per_page: 2, page: 2 });
    assert.deepEqual(
      page.body.map((milestone: any) => milestone.id),
      [made[2].id],
    );
    assert.equal(page.headers.get('x-total-pages'), '2');
    assert.deepEqual(
      (await people.owner.client.get(base(project), { state: 'active' })).body.map((m: any) => m.iid),
      [1, 3],
    );
    assert.deepEqual(
      (await people.owner.client.get(base(project), { state: 'closed' })).body.map((m: any) => m.iid),
      [2],
    );
    // Any other state is every milestone, as in 8.12.
    assert.equal((await people.owner.client.get(base(project), { state: 'all' })).body.length, 3);
    assert.deepEqual(
      (await people.owner.client.get(`${base(project)}?iid=2`)).body.map((m: any) => m.id),
      [made[1].id],
    );
    assert.deepEqual(
      (await people.owner.client.get(base(project), { iid: [1, 3] })).body.map((m: any) => m.iid),
      [1, 3],
    );
    assert.deepEqual((await people.owner.client.get(`${base(project)}?iid=abc`)).body, []);
  });

  test('needs read_milestone: any member, anyone signed in on a public project; anonymous 401', async () => {
    await assertMilestoneAccess((client, project) => client.get(base(project)), 'non-member');
  });
});

describe('GET /projects/:id/milestones/:milestone_id', () => {
  test("shows one milestone in 8.12's field order; unknown or another project's is 404 Not found", async () => {
    const project = await newProject('one');
    const milestone = await createMilestone(project, { title: 'v1', description: 'first', due_date: '2013-03-02' });
    const response = await people.owner.client.get(`${base(project)}/${milestone.id}`);
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body), [
      'id',
      'iid',
      'project_id',
      'title',
      'description',
      'state',
      'created_at',
      'updated_at',
      'due_date',
    ]);
    assert.deepEqual(response.body, {
      ...milestone,
      title: 'v1',
      description: 'first',
      state: 'active',
      due_date: '2013-03-02',
      project_id: project.id,
      iid: 1,
    });
    assert.match(response.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    for (const path of [`${base(project)}/999999`, `${base(worlds.private)}/${milestone.id}`, `${base(project)}/abc`]) {
      const missing = await app.root.get(path);
      assert.equal(missing.status, 404, path);
    }
    assert.deepEqual((await app.root.get(`${base(project)}/999999`)).body, notFound);
  });

  test('needs read_milestone', async () => {
    const ids: Record<number, number> = {};
    for (const world of Object.values(worlds)) ids[world.id] = (await createMilestone(world)).id;
    await assertMilestoneAccess((client, project) => client.get(`${base(project)}/${ids[project.id]}`), 'non-member');
  });
});

describe('POST /projects/:id/milestones', () => {
  test("creates with the project's next iid and records an opened event", async () => {
    const project = await newProject('create');
    const response = await people.owner.client.post(base(project), { title: 'new milestone' });
    assert.equal(response.status, 201);
    assert.deepEqual(
      [response.body.title, response.body.description, response.body.due_date, response.body.state, response.body.iid],
      ['new milestone', null, null, 'active', 1],
    );
    const second = await people.owner.client.form('POST', base(project), { title: 'second', description: 'text', due_date: '2013-03-02' });
    assert.deepEqual(
      [second.status, JSON.parse(second.text).iid, JSON.parse(second.text).due_date, JSON.parse(second.text).description],
      [201, 2, '2013-03-02', 'text'],
    );
    // Another project counts from 1.
    assert.equal((await createMilestone(await newProject('create-other'))).iid, 1);
    const events = await people.owner.client.get(`/projects/${project.id}/events`);
    const milestoneEvents = events.body.filter((event: any) => event.target_type === 'Milestone');
    assert.deepEqual(
      milestoneEvents.map((event: any) => [event.action_name, event.target_id, event.target_title, event.author_id]),
      [
        ['opened', JSON.parse(second.text).id, 'second', people.owner.user.id],
        ['opened', response.body.id, 'new milestone', people.owner.user.id],
      ],
    );
  });

  test('refusals: no title, a taken title, a bad date, a long title', async () => {
    const project = await newProject('create-errors');
    assert.deepEqual((await app.root.post(base(project), {})).body, { message: '400 (Bad request) "title" not given' });
    assert.deepEqual((await app.root.post(base(project), { title: '  ' })).body, { message: '400 (Bad request) "title" not given' });
    await createMilestone(project, { title: 'taken' });
    const taken = await app.root.post(base(project), { title: 'taken' });
    assert.deepEqual([taken.status, taken.body], [400, { message: 'Failed to create milestone {:title=>["has already been taken"]}' }]);
    for (const due_date of ['2013-02-30', '03/02/2013', 'tomorrow', '2013-3-2']) {
      const bad = await app.root.post(base(project), { title: uniqueTitle(), due_date });
      assert.deepEqual([bad.status, bad.body], [400, { message: '400 (Bad request) "due_date" is invalid' }], due_date);
    }
    const long = await app.root.post(base(project), { title: 'x'.repeat(256) });
    assert.deepEqual(
      [long.status, long.body],
      [400, { message: 'Failed to create milestone {:title=>["is too long (maximum is 255 characters)"]}' }],
    );
    // Nothing was half made: one milestone, and the next gets iid 2... or more, never a duplicate.
    const list = await app.root.get(base(project));
    assert.deepEqual(
      list.body.map((milestone: any) => milestone.title),
      ['taken'],
    );
  });

  test('two requests for the same title at once: one 201, one 400, one milestone', async () => {
    const project = await newProject('race');
    for (let round = 0; round < 3; round++) {
      const title = uniqueTitle('race');
      const responses = await Promise.all([1, 2].map(() => app.root.post(base(project), { title })));
      assert.deepEqual(responses.map((response) => response.status).sort(), [201, 400]);
      assert.deepEqual(responses.find((response) => response.status === 400)!.body, {
        message: 'Failed to create milestone {:title=>["has already been taken"]}',
      });
    }
    const list = await app.root.get(base(project));
    assert.equal(list.body.length, 3);
    assert.equal(new Set(list.body.map((milestone: any) => milestone.iid)).size, 3);
  });

  test('needs admin_milestone: masters and up', async () => {
    await assertMilestoneAccess((client, project) => client.post(base(project), { title: uniqueTitle() }), 'master', 201);
  });
});

describe('PUT /projects/:id/milestones/:milestone_id', () => {
  test('changes the fields given; blank ones are not given', async () => {
    const project = await newProject('update');
    const milestone = await createMilestone(project, { title: 'before', description: 'd', due_date: '2016-01-01' });
    const response = await app.root.put(`${base(project)}/${milestone.id}`, { title: 'after', due_date: '2016-12-31', description: '' });
    assert.equal(response.status, 200);
    assert.deepEqual(
      [response.body.title, response.body.description, response.body.due_date, response.body.iid],
      ['after', 'd', '2016-12-31', milestone.iid],
    );
  });

  test('close and activate move the state and record closed and opened events; an unknown event is ignored', async () => {
    const project = await newProject('state');
    const milestone = await createMilestone(project, { title: 'stateful' });
    const path = `${base(project)}/${milestone.id}`;
    assert.equal((await app.root.put(path, { state_event: 'close' })).body.state, 'closed');
    // Closing a closed milestone changes nothing and records nothing.
    assert.equal((await app.root.put(path, { state_event: 'close' })).body.state, 'closed');
    assert.equal((await app.root.put(path, { state_event: 'activate' })).body.state, 'active');
    const unknown = await app.root.put(path, { state_event: 'explode' });
    assert.deepEqual([unknown.status, unknown.body.state], [200, 'active']);
    const events = await app.root.get(`/projects/${project.id}/events`);
    assert.deepEqual(
      events.body.filter((event: any) => event.target_type === 'Milestone').map((event: any) => event.action_name),
      ['opened', 'closed', 'opened'],
    );
  });

  test('refusals: unknown 404, a taken title, a bad date; nothing changes', async () => {
    const project = await newProject('update-errors');
    const one = await createMilestone(project, { title: 'one' });
    await createMilestone(project, { title: 'two' });
    const path = `${base(project)}/${one.id}`;
    assert.deepEqual((await app.root.put(`${base(project)}/999999`, { title: 'x' })).body, notFound);
    const taken = await app.root.put(path, { title: 'two', state_event: 'close' });
    assert.deepEqual([taken.status, taken.body], [400, { message: 'Failed to update milestone {:title=>["has already been taken"]}' }]);
    assert.deepEqual((await app.root.put(path, { due_date: '2016-13-01' })).body, { message: '400 (Bad request) "due_date" is invalid' });
    const unchanged = await app.root.get(path);
    assert.deepEqual([unchanged.body.title, unchanged.body.state, unchanged.body.due_date], ['one', 'active', null]);
    // Its own title again is no conflict.
    assert.equal((await app.root.put(path, { title: 'one' })).status, 200);
  });

  test('two closes at once: both answer closed, one closed event', async () => {
    const project = await newProject('close-race');
    const milestone = await createMilestone(project);
    const responses = await Promise.all([1, 2].map(() => app.root.put(`${base(project)}/${milestone.id}`, { state_event: 'close' })));
    assert.deepEqual(
      responses.map((response) => [response.status, response.body.state]),
      [
        [200, 'closed'],
        [200, 'closed'],
      ],
    );
    const events = await app.root.get(`/projects/${project.id}/events`);
    assert.equal(events.body.filter((event: any) => event.target_type === 'Milestone' && event.action_name === 'closed').length, 1);
  });

  test('needs admin_milestone: masters and up', async () => {
    const ids: Record<number, number> = {};
    for (const world of Object.values(worlds)) ids[world.id] = (await createMilestone(world)).id;
    await assertMilestoneAccess(
      (client, project) => client.put(`${base(project)}/${ids[project.id]}`, { description: uniqueTitle() }),
      'master',
    );
  });
});

describe('milestones and the project', () => {
  test('need issues or merge requests on: with both off even the owner gets 403', async () => {
    const project = await newProject('features');
    await createMilestone(project);
    assert.equal(
      (await people.owner.client.put(`/projects/${project.id}`, { issues_enabled: false, merge_requests_enabled: false })).status,
      200,
    );
    assert.deepEqual((await people.owner.client.get(base(project))).body, { message: '403 Forbidden' });
    assert.equal((await people.owner.client.post(base(project), { title: 'x' })).status, 403);
    assert.equal((await people.owner.client.put(`/projects/${project.id}`, { issues_enabled: 'true' })).status, 200);
    assert.equal((await people.owner.client.get(base(project))).status, 200);
  });

  test("a project's deletion removes its milestones", async () => {
    const project = await newProject('deleted');
    const milestone = await createMilestone(project);
    assert.equal((await people.owner.client.delete(`/projects/${project.id}`)).status, 200);
    const row = await app.ctx.db.selectFrom('milestones').select('id').where('id', '=', milestone.id).executeTakeFirst();
    assert.equal(row, undefined);
  });
});
