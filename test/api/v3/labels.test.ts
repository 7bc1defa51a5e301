import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createProject } from '../../support/create';
import { createPeople, createProjectWorld, type People, type ProjectWorld, type Role } from '../../support/project-world';
import { assertAccess, expectedStatus, REFUSALS, type Visibility } from '../../support/access-matrix';
import type { ApiClient } from '../../support/client';
import { grantProjectRole } from '../../support/roles';
import { findOrCreateLabels } from '../../../src/services/labels/find-or-create';
import { inTransaction } from '../../../src/db/transaction';

let app: TestApp;
let people: People<Role>;
/** A private and a public project, with a member of each role on both. */
let worlds: Record<'private' | 'public', ProjectWorld<Role>>;

before(async () => {
  app = await startApp();
  // The owner makes a fresh project for most tests.
  people = await createPeople(app, undefined, { owner: { projects_limit: 1000 } });
  worlds = {
    private: await createProjectWorld(app, { people, name: 'labels-private', visibility: 0 }),
    public: await createProjectWorld(app, { people, name: 'labels-public', visibility: 20 }),
  };
});
after(() => app.close());

const base = (project: { id: number }) => `/projects/${project.id}/labels`;
let counter = 0;
const uniqueName = (prefix = 'label') => `${prefix}-${++counter}`;

const newProject = (name: string): Promise<{ id: number }> => createProject(people.owner.client, { name: `${name}-${++counter}` });

async function createLabel(project: { id: number }, fields: Record<string, unknown> = {}) {
  const response = await app.root.post(base(project), { name: uniqueName(), color: '#FFAABB', ...fields });
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return response.body;
}

const labelRow = (projectId: number, title: string) =>
  app.ctx.db.selectFrom('labels').selectAll().where('project_id', '=', projectId).where('title', '=', title).executeTakeFirst();

/** The 401/404/403 table of a route on both projects, and GitLab's body for each refusal. */
async function assertLabelAccess(
  call: (client: ApiClient, project: { id: number }) => Promise<{ status: number; body?: unknown }>,
  minimum: 'non-member' | 'reporter',
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

// Issues and their label links are written straight into the database: the issues API is built
// elsewhere at the same time, and these tests are about the labels' counts.
let issueIid = 0;
async function insertIssue(projectId: number, state: string, labelTitles: string[], confidential: 0 | 1 = 0) {
  const db = app.ctx.db;
  const time = new Date().toISOString();
  const issue = await db
    .insertInto('issues')
    .values({ iid: ++issueIid, project_id: projectId, title: `issue ${issueIid}`, state, confidential, created_at: time, updated_at: time })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const title of labelTitles) {
    const label = await labelRow(projectId, title);
    await db
      .insertInto('label_links')
      .values({ label_id: label!.id, target_type: 'Issue', target_id: issue.id, created_at: time, updated_at: time })
      .execute();
  }
  return issue.id;
}

describe('GET /projects/:id/labels', () => {
  test("every label by title, not paginated, with issue counts and the caller's subscription", async () => {
    const project = await newProject('listed');
    for (const name of ['zeta', 'Alpha', 'beta']) await createLabel(project, { name });
    await createLabel(project, { name: 'delta', color: '#ABC', description: 'four' });
    await insertIssue(project.id, 'opened', ['beta', 'delta']);
    await insertIssue(project.id, 'reopened', ['beta']);
    await insertIssue(project.id, 'closed', ['beta', 'zeta']);
    // A confidential issue counts for those who may read it only (8.12's API counted with no user, which left it out for everyone).
    await insertIssue(project.id, 'opened', ['beta'], 1);
    const beta = await labelRow(project.id, 'beta');
    const time = new Date().toISOString();
    await app.ctx.db
      .insertInto('subscriptions')
      .values({
        user_id: people.owner.user.id,
        subscribable_type: 'Label',
        subscribable_id: beta!.id,
        subscribed: 1,
        created_at: time,
        updated_at: time,
      })
      .execute();

    const response = await people.owner.client.get(base(project), { per_page: 1 });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-total'), null);
    // Title order as the database compares (upper case first on both).
    assert.deepEqual(
      response.body.map((label: any) => label.name),
      ['Alpha', 'beta', 'delta', 'zeta'],
    );
    assert.deepEqual(Object.keys(response.body[0]), [
      'name',
      'color',
      'description',
      'open_issues_count',
      'closed_issues_count',
      'open_merge_requests_count',
      'subscribed',
    ]);
    const byName = Object.fromEntries(response.body.map((label: any) => [label.name, label]));
    assert.deepEqual(byName.beta, {
      name: 'beta',
      color: '#FFAABB',
      description: null,
      open_issues_count: 3,
      closed_issues_count: 1,
      open_merge_requests_count: 0,
      subscribed: true,
    });
    assert.deepEqual(byName.delta, {
      name: 'delta',
      color: '#ABC',
      description: 'four',
      open_issues_count: 1,
      closed_issues_count: 0,
      open_merge_requests_count: 0,
      subscribed: false,
    });
    assert.deepEqual([byName.zeta.open_issues_count, byName.zeta.closed_issues_count], [0, 1]);
    assert.deepEqual([byName.Alpha.open_issues_count, byName.Alpha.closed_issues_count], [0, 0]);
    // The subscription is the owner's only.
    const other = await app.root.get(base(project));
    assert.equal(other.body.find((label: any) => label.name === 'beta').subscribed, false);
    // A guest may not read the confidential issue: it is not in their count.
    await grantProjectRole(app, project.id, people.guest.user.id, 10);
    const guests = await people.guest.client.get(base(project));
    assert.equal(guests.body.find((label: any) => label.name === 'beta').open_issues_count, 2);
  });

  test('an empty project lists no labels', async () => {
    const project = await newProject('empty');
    assert.deepEqual((await people.owner.client.get(base(project))).body, []);
  });

  test('needs read_label: any member, and anyone signed in on a public project; anonymous 401', async () => {
    await assertLabelAccess((client, project) => client.get(base(project)), 'non-member');
  });
});

describe('POST /projects/:id/labels', () => {
  test('creates a label with name, colour and description', async () => {
    const project = await newProject('create');
    const response = await people.owner.client.post(base(project), { name: 'Foo', color: '#FFAABB', description: 'test' });
    assert.equal(response.status, 201);
    assert.deepEqual(response.body, {
      name: 'Foo',
      color: '#FFAABB',
      description: 'test',
      open_issues_count: 0,
      closed_issues_count: 0,
      open_merge_requests_count: 0,
      subscribed: false,
    });
    const form = await people.owner.client.form('POST', base(project), { name: 'Foo & Bar', color: '#FFAABB' });
    assert.equal(form.status, 201);
    assert.equal(JSON.parse(form.text).description, null);
  });

  test('name and colour are required, in that order; blank is missing', async () => {
    const project = await newProject('required');
    assert.deepEqual((await app.root.post(base(project), { color: '#FFAABB' })).body, { message: '400 (Bad request) "name" not given' });
    assert.deepEqual((await app.root.post(base(project), {})).body, { message: '400 (Bad request) "name" not given' });
    const noColor = await app.root.post(base(project), { name: 'Foo', color: ' ' });
    assert.equal(noColor.status, 400);
    assert.deepEqual(noColor.body, { message: '400 (Bad request) "color" not given' });
  });

  test('a colour must be #RGB or #RRGGBB; a name may not hold a comma', async () => {
    const project = await newProject('invalid');
    for (const color of ['#FFAA', '#FFAAFFFF', 'red', 'FFAABB', '#GGGGGG']) {
      const response = await app.root.post(base(project), { name: 'Foo', color });
      assert.equal(response.status, 400, color);
      assert.deepEqual(response.body, { message: { color: ['must be a valid color code'] } }, color);
    }
    const comma = await app.root.post(base(project), { name: ',', color: '#FFAABB' });
    assert.deepEqual([comma.status, comma.body], [400, { message: { title: ['is invalid'] } }]);
    const both = await app.root.post(base(project), { name: 'a,b', color: '#FF' });
    assert.deepEqual(both.body, { message: { color: ['must be a valid color code'], title: ['is invalid'] } });
    const long = await app.root.post(base(project), { name: 'x'.repeat(256), color: '#FFF' });
    assert.deepEqual([long.status, long.body], [400, { message: { title: ['is too long (maximum is 255 characters)'] } }]);
    assert.equal((await app.root.post(base(project), { name: 'x'.repeat(255), color: '#FFF' })).status, 201);
    assert.deepEqual(
      (await app.root.get(base(project))).body.map((label: any) => label.name),
      ['x'.repeat(255)],
    );
  });

  test('an existing title is 409 Label already exists', async () => {
    const project = await newProject('exists');
    await createLabel(project, { name: 'dup' });
    const response = await app.root.post(base(project), { name: 'dup', color: '#FFF' });
    assert.deepEqual([response.status, response.body], [409, { message: 'Label already exists' }]);
    // Another project may have the same title.
    assert.equal((await app.root.post(base(await newProject('exists-other')), { name: 'dup', color: '#FFF' })).status, 201);
  });

  test('two requests for the same new title at once: one 201, one 409, one label', async () => {
    const project = await newProject('race');
    for (let round = 0; round < 3; round++) {
      const name = uniqueName('race');
      const responses = await Promise.all([1, 2].map(() => app.root.post(base(project), { name, color: '#123' })));
      assert.deepEqual(responses.map((response) => response.status).sort(), [201, 409]);
      assert.deepEqual(responses.find((response) => response.status === 409)!.body, { message: 'Label already exists' });
    }
    assert.equal((await app.root.get(base(project))).body.length, 3);
  });

  test('needs admin_label: reporters and up', async () => {
    await assertLabelAccess((client, project) => client.post(base(project), { name: uniqueName(), color: '#FFF' }), 'reporter', 201);
  });
});

describe('PUT /projects/:id/labels', () => {
  test('renames, recolours and redescribes; what is not given is kept', async () => {
    const project = await newProject('update');
    await createLabel(project, { name: 'old', color: '#FFAABB', description: 'first' });
    const all = await app.root.put(base(project), { name: 'old', new_name: 'new', color: '#FFFFFF', description: 'second' });
    assert.equal(all.status, 200);
    assert.deepEqual(all.body, {
      name: 'new',
      color: '#FFFFFF',
      description: 'second',
      open_issues_count: 0,
      closed_issues_count: 0,
      open_merge_requests_count: 0,
      subscribed: false,
    });
    assert.equal(await labelRow(project.id, 'old'), undefined);
    const nameOnly = await app.root.put(base(project), { name: 'new', new_name: 'newer' });
    assert.deepEqual([nameOnly.body.name, nameOnly.body.color, nameOnly.body.description], ['newer', '#FFFFFF', 'second']);
    const colorOnly = await app.root.put(base(project), { name: 'newer', color: '#000' });
    assert.deepEqual([colorOnly.body.name, colorOnly.body.color], ['newer', '#000']);
    const descriptionOnly = await app.root.put(base(project), { name: 'newer', description: 'third' });
    assert.deepEqual([descriptionOnly.status, descriptionOnly.body.description, descriptionOnly.body.color], [200, 'third', '#000']);
  });

  test("keeps the label's issue links and counts through a rename", async () => {
    const project = await newProject('rename-links');
    await createLabel(project, { name: 'linked' });
    await insertIssue(project.id, 'opened', ['linked']);
    const response = await app.root.put(base(project), { name: 'linked', new_name: 'relinked' });
    assert.equal(response.body.open_issues_count, 1);
  });

  test("8.12's refusals: no name, unknown label, nothing to change, invalid values, a taken title", async () => {
    const project = await newProject('update-errors');
    await createLabel(project, { name: 'one' });
    await createLabel(project, { name: 'two' });
    assert.deepEqual((await app.root.put(base(project), { new_name: 'x' })).body, { message: '400 (Bad request) "name" not given' });
    const unknown = await app.root.put(base(project), { name: 'nope', new_name: 'x' });
    assert.deepEqual([unknown.status, unknown.body], [404, { message: '404 Label not found Not Found' }]);
    const nothing = await app.root.put(base(project), { name: 'one' });
    assert.deepEqual([nothing.status, nothing.body], [400, { message: 'Required parameters "new_name" or "color" missing' }]);
    // A blank value is not given (`attributes_for_keys`).
    assert.equal((await app.root.put(base(project), { name: 'one', new_name: '', color: '' })).status, 400);
    assert.deepEqual((await app.root.put(base(project), { name: 'one', new_name: ',' })).body, { message: { title: ['is invalid'] } });
    assert.deepEqual((await app.root.put(base(project), { name: 'one', color: '#FF' })).body, {
      message: { color: ['must be a valid color code'] },
    });
    const taken = await app.root.put(base(project), { name: 'one', new_name: 'two' });
    assert.deepEqual([taken.status, taken.body], [400, { message: { title: ['has already been taken'] } }]);
    assert.equal((await labelRow(project.id, 'one'))!.color, '#FFAABB');
  });

  test('two renames to the same title at once: one 200, one 400, never 500', async () => {
    const project = await newProject('rename-race');
    await createLabel(project, { name: 'r1' });
    await createLabel(project, { name: 'r2' });
    const responses = await Promise.all(['r1', 'r2'].map((name) => app.root.put(base(project), { name, new_name: 'same' })));
    assert.deepEqual(responses.map((response) => response.status).sort(), [200, 400]);
    assert.deepEqual(responses.find((response) => response.status === 400)!.body, { message: { title: ['has already been taken'] } });
  });

  test('needs admin_label: reporters and up', async () => {
    for (const world of Object.values(worlds)) await createLabel(world, { name: 'access' });
    await assertLabelAccess((client, project) => client.put(base(project), { name: 'access', color: '#FFF' }), 'reporter');
  });
});

describe('DELETE /projects/:id/labels', () => {
  test('removes the label by name and answers its record; its issue links and subscriptions go with it', async () => {
    const project = await newProject('delete');
    await createLabel(project, { name: 'gone', color: '#ABCDEF', description: 'bye' });
    await createLabel(project, { name: 'stays' });
    const row = await labelRow(project.id, 'gone');
    const issueId = await insertIssue(project.id, 'opened', ['gone', 'stays']);
    const db = app.ctx.db;
    const time = new Date().toISOString();
    await db
      .insertInto('subscriptions')
      .values({
        user_id: people.owner.user.id,
        subscribable_type: 'Label',
        subscribable_id: row!.id,
        subscribed: 1,
        created_at: time,
        updated_at: time,
      })
      .execute();

    const response = await people.reporter.client.delete(base(worlds.private).replace(String(worlds.private.id), String(project.id)), {
      name: 'gone',
    });
    // The reporter is no member of this project: it is hidden from them.
    assert.equal(response.status, 404);
    const removed = await app.root.delete(base(project), { name: 'gone' });
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.body, {
      id: row!.id,
      title: 'gone',
      color: '#ABCDEF',
      project_id: project.id,
      created_at: row!.created_at,
      updated_at: row!.updated_at,
      template: false,
      description: 'bye',
      priority: null,
    });
    assert.equal(await labelRow(project.id, 'gone'), undefined);
    const links = await db
      .selectFrom('label_links')
      .select('label_id')
      .where('target_type', '=', 'Issue')
      .where('target_id', '=', issueId)
      .execute();
    assert.deepEqual(
      links.map((link) => link.label_id),
      [(await labelRow(project.id, 'stays'))!.id],
    );
    assert.equal(
      (
        await db
          .selectFrom('subscriptions')
          .select('id')
          .where('subscribable_type', '=', 'Label')
          .where('subscribable_id', '=', row!.id)
          .execute()
      ).length,
      0,
    );
  });

  test('unknown is 404 Label Not Found; no name is 400', async () => {
    const project = await newProject('delete-errors');
    const unknown = await app.root.delete(base(project), { name: 'nope' });
    assert.deepEqual([unknown.status, unknown.body], [404, { message: '404 Label Not Found' }]);
    assert.deepEqual((await app.root.delete(base(project))).body, { message: '400 (Bad request) "name" not given' });
    // A form body names it too, as GitLab read every parameter alike.
    await createLabel(project, { name: 'in-body' });
    assert.equal((await app.root.form('DELETE', base(project), { name: 'in-body' })).status, 200);
  });

  test('needs admin_label: reporters and up', async () => {
    const names: Record<string, string[]> = {};
    for (const [visibility, world] of Object.entries(worlds)) {
      names[visibility] = [];
      for (let i = 0; i < 5; i++) names[visibility].push((await createLabel(world)).name);
    }
    await assertLabelAccess((client, project) => {
      const visibility = project.id === worlds.private.id ? 'private' : 'public';
      const name = names[visibility][0];
      return client.delete(base(project), { name }).then((response) => {
        if (response.status === 200) names[visibility].shift();
        return response;
      });
    }, 'reporter');
  });
});

describe('labels and the project', () => {
  test('need issues or merge requests on: with both off even the owner gets 403', async () => {
    const project = await newProject('features');
    await createLabel(project, { name: 'feature' });
    assert.equal((await people.owner.client.put(`/projects/${project.id}`, { issues_enabled: false })).status, 200);
    assert.equal((await people.owner.client.get(base(project))).status, 200);
    assert.equal((await people.owner.client.put(`/projects/${project.id}`, { merge_requests_enabled: false })).status, 200);
    const refused = await people.owner.client.get(base(project));
    assert.deepEqual([refused.status, refused.body], [403, { message: '403 Forbidden' }]);
    assert.equal((await people.owner.client.post(base(project), { name: 'x', color: '#FFF' })).status, 403);
    assert.equal((await people.owner.client.put(`/projects/${project.id}`, { merge_requests_enabled: 'true' })).status, 200);
    assert.equal((await people.owner.client.get(base(project))).status, 200);
  });

  test("a project's deletion removes its labels, their links and their subscriptions", async () => {
    const project = await newProject('deleted');
    await createLabel(project, { name: 'doomed' });
    const label = await labelRow(project.id, 'doomed');
    await insertIssue(project.id, 'opened', ['doomed']);
    const db = app.ctx.db;
    const time = new Date().toISOString();
    await db
      .insertInto('subscriptions')
      .values({
        user_id: people.owner.user.id,
        subscribable_type: 'Label',
        subscribable_id: label!.id,
        subscribed: 1,
        created_at: time,
        updated_at: time,
      })
      .execute();
    assert.equal((await people.owner.client.delete(`/projects/${project.id}`)).status, 200);
    assert.equal(await labelRow(project.id, 'doomed'), undefined);
    assert.equal((await db.selectFrom('label_links').select('id').where('label_id', '=', label!.id).execute()).length, 0);
    assert.equal(
      (
        await db
          .selectFrom('subscriptions')
          .select('id')
          .where('subscribable_type', '=', 'Label')
          .where('subscribable_id', '=', label!.id)
          .execute()
      ).length,
      0,
    );
  });
});

describe('findOrCreateLabels', () => {
  test('finds the existing labels and makes the others with #428BCA, in the order given', async () => {
    const project = await newProject('find-or-create');
    await createLabel(project, { name: 'known', color: '#000' });
    const db = app.ctx.db;
    const labels = await inTransaction(db, (trx) => findOrCreateLabels(trx, project.id, [' fresh ', 'known', 'fresh', '', 'label?bar']));
    assert.deepEqual(
      labels.map((label) => [label.title, label.color]),
      [
        ['fresh', '#428BCA'],
        ['known', '#000'],
        ['label?bar', '#428BCA'],
      ],
    );
    assert.deepEqual(
      (await app.root.get(base(project))).body.map((label: any) => label.name),
      ['fresh', 'known', 'label?bar'],
    );
  });

  test("an invalid title makes nothing and answers 8.12's body per title", async () => {
    const project = await newProject('find-or-create-invalid');
    const db = app.ctx.db;
    await assert.rejects(
      inTransaction(db, (trx) => findOrCreateLabels(trx, project.id, ['ok', 'y'.repeat(256)])),
      (error: any) => {
        assert.equal(error.status, 400);
        assert.deepEqual(error.body, {
          message: { labels: { ['y'.repeat(256)]: { title: ['is too long (maximum is 255 characters)'] } } },
        });
        return true;
      },
    );
    assert.deepEqual((await app.root.get(base(project))).body, []);
  });

  test('two transactions making the same labels at once both get them, and there is one of each', async () => {
    const project = await newProject('find-or-create-race');
    const db = app.ctx.db;
    const results = await Promise.all([1, 2].map(() => inTransaction(db, (trx) => findOrCreateLabels(trx, project.id, ['a', 'b']))));
    assert.deepEqual(
      results[0].map((label) => label.id),
      results[1].map((label) => label.id),
    );
    assert.equal((await app.root.get(base(project))).body.length, 2);
  });
});
