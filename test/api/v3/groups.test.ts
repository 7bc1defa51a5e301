import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createProject } from '../../support/create';
import { HookListener } from '../../support/hook-listener';
import { grantGroupRole, grantProjectRole } from '../../support/roles';
import type { ApiClient } from '../../support/client';

let app: TestApp;
let listener: HookListener;

before(async () => {
  app = await startApp();
  listener = await HookListener.start();
  const hook = await app.root.post('/hooks', { url: listener.url });
  assert.equal(hook.status, 201);
});
after(async () => {
  await app.close();
  await listener.close();
});

const NAME_MESSAGE = "can contain only letters, digits, '_', '.', dash and space.";
const PATH_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.'.";
const GROUP_KEYS = [
  'avatar_url',
  'description',
  'id',
  'lfs_enabled',
  'name',
  'path',
  'request_access_enabled',
  'visibility_level',
  'web_url',
];
const RECORD_KEYS = [
  'avatar',
  'created_at',
  'deleted_at',
  'description',
  'id',
  'lfs_enabled',
  'name',
  'owner_id',
  'path',
  'request_access_enabled',
  'share_with_group_lock',
  'type',
  'updated_at',
  'visibility_level',
];
const groupNotFound = { message: '404 Group Not Found' };
/** POST /groups renders its errors hash as Ruby inspects it, inside a string (8.12's `render_api_error!`). */
const failedToSave = (errors: string) => ({ message: `Failed to save group ${errors}` });
const forbidden = { message: '403 Forbidden' };

let seq = 0;

async function createGroup(client: ApiClient, attributes: Record<string, unknown> = {}) {
  const n = ++seq;
  const response = await client.post('/groups', { name: `Group ${n}`, path: `group-${n}`, ...attributes });
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return response.body;
}

const newProject = (client: ApiClient, attributes: Record<string, unknown> = {}) =>
  createProject(client, { name: `project-${++seq}`, ...attributes });

/** An access request: a `members` row with `requested_at` set, which is not a membership. */
async function requestAccess(groupId: number, userId: number) {
  const time = new Date().toISOString();
  await app.ctx.db
    .insertInto('members')
    .values({
      source_type: 'Namespace',
      source_id: groupId,
      user_id: userId,
      access_level: 30,
      notification_level: 3,
      requested_at: time,
      created_at: time,
      updated_at: time,
    })
    .execute();
}

const hookFor = (event: string, match: (body: any) => boolean) =>
  listener.waitFor((hook) => hook.body?.event_name === event && match(hook.body));

async function setSettings(values: Record<string, unknown>) {
  const response = await app.root.put('/application/settings', values);
  assert.equal(response.status, 200, JSON.stringify(response.body));
}

describe('GET /groups', () => {
  test('an anonymous caller gets 401', async () => {
    const response = await app.anonymous.get('/groups');
    assert.deepEqual([response.status, response.body], [401, { message: '401 Unauthorized' }]);
  });

  test('a user sees only the groups they are a member of', async () => {
    const owner = await app.createUser();
    const member = await app.createUser();
    const mine = await createGroup(owner.client, { visibility_level: 20 });
    const joined = await createGroup(owner.client);
    await createGroup(owner.client);
    await grantGroupRole(app, joined.id, member.user.id, 10);
    const response = await member.client.get('/groups');
    assert.equal(response.status, 200);
    assert.deepEqual(
      response.body.map((g: any) => g.id),
      [joined.id],
    );
    // A public group is readable, but not listed, for non-members.
    assert.ok(!response.body.some((g: any) => g.id === mine.id));
  });

  test('an access request is not a membership', async () => {
    const owner = await app.createUser();
    const requester = await app.createUser();
    const group = await createGroup(owner.client, { visibility_level: 20 });
    await requestAccess(group.id, requester.user.id);
    assert.deepEqual((await requester.client.get('/groups')).body, []);
  });

  test('an administrator sees all groups, in id order', async () => {
    const owner = await app.createUser();
    const first = await createGroup(owner.client);
    const second = await createGroup(owner.client);
    const response = await app.root.get('/groups', { per_page: 100 });
    const ids = response.body.map((g: any) => g.id);
    assert.ok(ids.includes(first.id) && ids.includes(second.id));
    assert.deepEqual(
      ids,
      [...ids].sort((a: number, b: number) => a - b),
    );
    const total = await app.ctx.db
      .selectFrom('namespaces')
      .where('kind', '=', 'group')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(response.headers.get('x-total'), String(total.n));
  });

  test('items have the Group shape: id, name, path, description, visibility_level, lfs_enabled, avatar_url, web_url, request_access_enabled', async () => {
    const owner = await app.createUser();
    const group = await createGroup(owner.client, { description: 'the description', visibility_level: 10 });
    const [item] = (await owner.client.get('/groups')).body;
    assert.deepEqual(Object.keys(item).sort(), GROUP_KEYS);
    assert.deepEqual(item, {
      id: group.id,
      name: group.name,
      path: group.path,
      description: 'the description',
      visibility_level: 10,
      lfs_enabled: true,
      avatar_url: null,
      web_url: `${app.ctx.config.externalUrl}/groups/${group.path}`,
      request_access_enabled: true,
    });
  });

  test('search matches the name or the path, ignoring case', async () => {
    const owner = await app.createUser();
    const byName = await createGroup(owner.client, { name: 'Zeppelin Crew', path: 'zc-crew' });
    const byPath = await createGroup(owner.client, { name: 'Others', path: 'the-zeppelin' });
    await createGroup(owner.client, { name: 'Unrelated', path: 'unrelated-one' });
    const response = await owner.client.get('/groups', { search: 'ZEPPELIN' });
    assert.deepEqual(
      response.body.map((g: any) => g.id),
      [byName.id, byPath.id],
    );
  });

  test('the list is paginated', async () => {
    const owner = await app.createUser();
    await createGroup(owner.client);
    const second = await createGroup(owner.client);
    await createGroup(owner.client);
    const response = await owner.client.get('/groups', { page: 2, per_page: 1 });
    assert.deepEqual(
      response.body.map((g: any) => g.id),
      [second.id],
    );
    assert.equal(response.headers.get('x-total'), '3');
    assert.equal(response.headers.get('x-total-pages'), '3');
    assert.equal(response.headers.get('x-page'), '2');
    assert.equal(response.headers.get('x-next-page'), '3');
    assert.equal(response.headers.get('x-prev-page'), '1');
    assert.match(response.headers.get('link')!, /rel="prev".*rel="next".*rel="first".*rel="last"/);
  });
});

describe('POST /groups', () => {
  test('creates the group: 201 with the Group shape, and the creator becomes its owner', async () => {
    const { client, user } = await app.createUser();
    const response = await client.post('/groups', {
      name: 'Dev Team',
      path: 'dev-team',
      description: 'We build',
      visibility_level: 10,
      lfs_enabled: false,
      request_access_enabled: false,
    });
    assert.equal(response.status, 201);
    assert.deepEqual(Object.keys(response.body).sort(), GROUP_KEYS);
    assert.deepEqual(
      { ...response.body, id: 0 },
      {
        id: 0,
        name: 'Dev Team',
        path: 'dev-team',
        description: 'We build',
        visibility_level: 10,
        lfs_enabled: false,
        avatar_url: null,
        web_url: `${app.ctx.config.externalUrl}/groups/dev-team`,
        request_access_enabled: false,
      },
    );
    const member = await app.ctx.db
      .selectFrom('members')
      .select(['access_level', 'requested_at'])
      .where('source_type', '=', 'Namespace')
      .where('source_id', '=', response.body.id)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    assert.deepEqual(member, { access_level: 50, requested_at: null });
  });

  test('parameters may come as a form', async () => {
    const { client } = await app.createUser();
    const response = await client.form('POST', '/groups', { name: 'Form Group', path: 'form-group', request_access_enabled: 'false' });
    assert.equal(response.status, 201);
    assert.deepEqual([response.body.name, response.body.path, response.body.request_access_enabled], ['Form Group', 'form-group', false]);
  });

  test('an anonymous caller gets 401', async () => {
    assert.equal((await app.anonymous.post('/groups', { name: 'x', path: 'x' })).status, 401);
  });

  test('a user who may not create groups gets 403, administrators included', async () => {
    const user = await app.createUser({ can_create_group: false });
    const admin = await app.createUser({ can_create_group: false, admin: true });
    for (const client of [user.client, admin.client]) {
      const response = await client.post('/groups', { name: 'Forbidden', path: 'forbidden-group' });
      assert.deepEqual([response.status, response.body], [403, forbidden]);
    }
  });

  test('name and path are required, name checked first', async () => {
    const { client } = await app.createUser();
    const none = await client.post('/groups', {});
    assert.deepEqual([none.status, none.body], [400, { message: '400 (Bad request) "name" not given' }]);
    const noPath = await client.post('/groups', { name: 'No Path' });
    assert.deepEqual([noPath.status, noPath.body], [400, { message: '400 (Bad request) "path" not given' }]);
    const blankName = await client.post('/groups', { name: '  ', path: 'blank-name' });
    assert.deepEqual(blankName.body, { message: '400 (Bad request) "name" not given' });
  });

  test('the visibility defaults to the default_group_visibility setting', async () => {
    const { client } = await app.createUser();
    assert.equal((await createGroup(client)).visibility_level, 0);
    await setSettings({ default_group_visibility: 10 });
    try {
      assert.equal((await createGroup(client)).visibility_level, 10);
    } finally {
      await setSettings({ default_group_visibility: 0 });
    }
  });

  test("a name with other characters is refused with GitLab's message", async () => {
    const { client } = await app.createUser();
    const response = await client.post('/groups', { name: 'Bad/Name!', path: 'bad-name' });
    assert.deepEqual([response.status, response.body], [400, failedToSave(`{:name=>["${NAME_MESSAGE}"]}`)]);
  });

  test("an invalid or reserved path is refused with GitLab's messages", async () => {
    const { client } = await app.createUser();
    const invalid = await client.post('/groups', { name: 'Invalid Path', path: '-bad path' });
    assert.deepEqual([invalid.status, invalid.body], [400, failedToSave(`{:path=>["${PATH_MESSAGE}"]}`)]);
    const reserved = await client.post('/groups', { name: 'Reserved Path', path: 'admin' });
    assert.deepEqual([reserved.status, reserved.body], [400, failedToSave('{:path=>["admin is a reserved name"]}')]);
  });

  test('a path taken by any namespace, ignoring case, answers 400 with 8.12\'s string: "Failed to save group" and the errors hash', async () => {
    const { client, user } = await app.createUser();
    const existing = await createGroup(client);
    const sameGroupPath = await client.post('/groups', { name: 'Another', path: existing.path.toUpperCase() });
    assert.deepEqual(
      [sameGroupPath.status, sameGroupPath.body],
      [400, { message: 'Failed to save group {:path=>["has already been taken"]}' }],
    );
    const userPath = await client.post('/groups', { name: 'Another', path: user.username });
    assert.deepEqual([userPath.status, userPath.body], [400, { message: 'Failed to save group {:path=>["has already been taken"]}' }]);
  });

  test("several invalid fields are listed in one errors hash, in GitLab's order", async () => {
    const { client } = await app.createUser();
    const existing = await createGroup(client);
    const response = await client.post('/groups', { name: existing.name, path: existing.path, description: 'd'.repeat(256) });
    assert.deepEqual(
      [response.status, response.body],
      [
        400,
        failedToSave(
          '{:name=>["has already been taken"], :description=>["is too long (maximum is 255 characters)"], :path=>["has already been taken"]}',
        ),
      ],
    );
  });

  test('a name taken by another namespace answers 400', async () => {
    const { client } = await app.createUser();
    const existing = await createGroup(client);
    const response = await client.post('/groups', { name: existing.name, path: `other-${existing.path}` });
    assert.deepEqual([response.status, response.body], [400, failedToSave('{:name=>["has already been taken"]}')]);
  });

  test('a visibility level other than 0, 10 or 20 is refused', async () => {
    const { client } = await app.createUser();
    const response = await client.post('/groups', { name: 'Odd Level', path: 'odd-level', visibility_level: 15 });
    assert.deepEqual([response.status, response.body], [400, failedToSave('{:visibility_level=>["is not included in the list"]}')]);
  });

  test('a restricted visibility level is for administrators only', async () => {
    const { client } = await app.createUser();
    await setSettings({ restricted_visibility_levels: [20] });
    try {
      const refused = await client.post('/groups', { name: 'Too Public', path: 'too-public', visibility_level: 20 });
      assert.deepEqual(
        [refused.status, refused.body],
        [400, failedToSave('{:visibility_level=>["public has been restricted by your GitLab administrator"]}')],
      );
      const admin = await app.root.post('/groups', { name: 'Admin Public', path: 'admin-public', visibility_level: 20 });
      assert.equal(admin.status, 201);
    } finally {
      await setSettings({ restricted_visibility_levels: [] });
    }
  });

  test('fires group_create and user_add_to_group for the creator to system hooks', async () => {
    const { client, user } = await app.createUser();
    const group = await createGroup(client);
    const created = await hookFor('group_create', (body) => body.group_id === group.id);
    assert.deepEqual(
      { ...created.body, created_at: 'T', updated_at: 'T' },
      {
        event_name: 'group_create',
        created_at: 'T',
        updated_at: 'T',
        name: group.name,
        path: group.path,
        group_id: group.id,
        owner_name: null,
        owner_email: null,
      },
    );
    assert.match(created.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const added = await hookFor('user_add_to_group', (body) => body.group_id === group.id);
    assert.deepEqual(
      { ...added.body, created_at: 'T', updated_at: 'T' },
      {
        event_name: 'user_add_to_group',
        created_at: 'T',
        updated_at: 'T',
        group_name: group.name,
        group_path: group.path,
        group_id: group.id,
        user_username: user.username,
        user_name: user.name,
        user_email: user.email,
        user_id: user.id,
        group_access: 'Owner',
      },
    );
  });
});

describe('GET /groups/:id', () => {
  test('the owner gets the detail: the group, its projects (private ones too) and the projects shared with it', async () => {
    const owner = await app.createUser();
    const group = await createGroup(owner.client, { visibility_level: 20 });
    const open = await newProject(owner.client, { namespace_id: group.id, visibility_level: 20 });
    const closed = await newProject(owner.client, { namespace_id: group.id });
    const elsewhere = await newProject(owner.client);
    const share = await owner.client.post(`/projects/${elsewhere.id}/share`, { group_id: group.id, group_access: 30 });
    assert.equal(share.status, 201);
    const response = await owner.client.get(`/groups/${group.id}`);
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body).sort(), [...GROUP_KEYS, 'projects', 'shared_projects'].sort());
    assert.equal(response.body.name, group.name);
    assert.equal(response.body.web_url, `${app.ctx.config.externalUrl}/groups/${group.path}`);
    assert.deepEqual(
      response.body.projects.map((p: any) => p.id),
      [open.id, closed.id],
    );
    assert.deepEqual(
      response.body.shared_projects.map((p: any) => p.id),
      [elsewhere.id],
    );
    const project = response.body.projects[0];
    assert.equal(project.path_with_namespace, `${group.path}/${open.path}`);
    assert.equal(project.namespace.id, group.id);
    assert.equal(project.permissions, undefined);
  });

  test('the group is found by its path', async () => {
    const owner = await app.createUser();
    const group = await createGroup(owner.client);
    const response = await owner.client.get(`/groups/${group.path}`);
    assert.deepEqual([response.status, response.body.id], [200, group.id]);
  });

  test('a number is a path first, then an id, as in GitLab 8.12', async () => {
    const owner = await app.createUser();
    const byId = await createGroup(owner.client);
    const byPath = await createGroup(owner.client, { path: String(byId.id) });
    const response = await owner.client.get(`/groups/${byId.id}`);
    assert.deepEqual([response.status, response.body.id], [200, byPath.id]);
    const other = await createGroup(owner.client);
    assert.deepEqual((await owner.client.get(`/groups/${other.id}`)).body.id, other.id);
  });

  test('an unknown id or path answers 404 Group Not Found', async () => {
    const owner = await app.createUser();
    // Past 32 bits a number can only be a path (a database's integer column would refuse it).
    for (const id of ['999999', 'no-such-group', '99999999999999999999']) {
      const response = await owner.client.get(`/groups/${id}`);
      assert.deepEqual([response.status, response.body], [404, groupNotFound]);
    }
  });

  test('a private group of others answers 404; an administrator reads any group', async () => {
    const owner = await app.createUser();
    const stranger = await app.createUser();
    const group = await createGroup(owner.client, { visibility_level: 0 });
    const hidden = await stranger.client.get(`/groups/${group.id}`);
    assert.deepEqual([hidden.status, hidden.body], [404, groupNotFound]);
    assert.equal((await app.root.get(`/groups/${group.id}`)).status, 200);
  });

  test('an internal group is read by any signed-in user, a public one by anyone signed in', async () => {
    const owner = await app.createUser();
    const stranger = await app.createUser();
    const internal = await createGroup(owner.client, { visibility_level: 10 });
    assert.equal((await stranger.client.get(`/groups/${internal.id}`)).status, 200);
    const external = await app.createUser({ external: true });
    assert.deepEqual((await external.client.get(`/groups/${internal.id}`)).body, groupNotFound);
    assert.equal((await app.anonymous.get(`/groups/${internal.id}`)).status, 401);
  });

  test('a non-member sees only the projects they may read', async () => {
    const owner = await app.createUser();
    const stranger = await app.createUser();
    const group = await createGroup(owner.client, { visibility_level: 20 });
    const open = await newProject(owner.client, { namespace_id: group.id, visibility_level: 20 });
    await newProject(owner.client, { namespace_id: group.id });
    const elsewhere = await newProject(owner.client);
    await owner.client.post(`/projects/${elsewhere.id}/share`, { group_id: group.id, group_access: 30 });
    const response = await stranger.client.get(`/groups/${group.id}`);
    assert.deepEqual(
      response.body.projects.map((p: any) => p.id),
      [open.id],
    );
    assert.deepEqual(response.body.shared_projects, []);
  });

  test('a user who can see one project of a private group can read the group and that project', async () => {
    const owner = await app.createUser();
    const guest = await app.createUser();
    const group = await createGroup(owner.client, { visibility_level: 0 });
    const seen = await newProject(owner.client, { namespace_id: group.id });
    await newProject(owner.client, { namespace_id: group.id });
    await grantProjectRole(app, seen.id, guest.user.id, 10);
    const response = await guest.client.get(`/groups/${group.id}`);
    assert.equal(response.status, 200);
    assert.deepEqual(
      response.body.projects.map((p: any) => p.id),
      [seen.id],
    );
  });

  test('group members see every project of the group', async () => {
    const owner = await app.createUser();
    const guest = await app.createUser();
    const group = await createGroup(owner.client, { visibility_level: 0 });
    const a = await newProject(owner.client, { namespace_id: group.id });
    const b = await newProject(owner.client, { namespace_id: group.id });
    await grantGroupRole(app, group.id, guest.user.id, 10);
    assert.deepEqual(
      (await guest.client.get(`/groups/${group.id}`)).body.projects.map((p: any) => p.id),
      [a.id, b.id],
    );
  });
});

describe('PUT /groups/:id', () => {
  test('the owner updates name, path, description, visibility_level, lfs_enabled and request_access_enabled: 200 with the detail', async () => {
    const owner = await app.createUser();
    const group = await createGroup(owner.client, { visibility_level: 0 });
    const project = await newProject(owner.client, { namespace_id: group.id });
    const path = `renamed-${group.id}`;
    const response = await owner.client.put(`/groups/${group.id}`, {
      name: `Renamed ${group.id}`,
      path,
      description: 'new words',
      visibility_level: 20,
      lfs_enabled: false,
      request_access_enabled: false,
    });
    assert.equal(response.status, 200);
    assert.deepEqual(
      [
        response.body.name,
        response.body.path,
        response.body.description,
        response.body.visibility_level,
        response.body.lfs_enabled,
        response.body.request_access_enabled,
      ],
      [`Renamed ${group.id}`, path, 'new words', 20, false, false],
    );
    assert.deepEqual(
      response.body.projects.map((p: any) => p.path_with_namespace),
      [`${path}/${project.path}`],
    );
    assert.deepEqual(response.body.shared_projects, []);
    assert.equal((await owner.client.get(`/groups/${path}`)).body.id, group.id);
  });

  test('blank values change nothing', async () => {
    const owner = await app.createUser();
    const group = await createGroup(owner.client, { description: 'kept' });
    const response = await owner.client.put(`/groups/${group.id}`, { name: '', description: '' });
    assert.deepEqual([response.status, response.body.name, response.body.description], [200, group.name, 'kept']);
  });

  test('an administrator may update any group', async () => {
    const owner = await app.createUser();
    const group = await createGroup(owner.client);
    const response = await app.root.put(`/groups/${group.id}`, { request_access_enabled: false });
    assert.deepEqual([response.status, response.body.request_access_enabled], [200, false]);
  });

  test('a user who can read the group but does not own it gets 403', async () => {
    const owner = await app.createUser();
    const master = await app.createUser();
    const stranger = await app.createUser();
    const group = await createGroup(owner.client, { visibility_level: 20 });
    await grantGroupRole(app, group.id, master.user.id, 40);
    for (const client of [master.client, stranger.client]) {
      const response = await client.put(`/groups/${group.id}`, { name: 'Taken Over' });
      assert.deepEqual([response.status, response.body], [403, forbidden]);
    }
  });

  test('a user who cannot see the group gets 404; an unknown group is 404', async () => {
    const owner = await app.createUser();
    const stranger = await app.createUser();
    const group = await createGroup(owner.client, { visibility_level: 0 });
    const hidden = await stranger.client.put(`/groups/${group.id}`, { name: 'Nope' });
    assert.deepEqual([hidden.status, hidden.body], [404, groupNotFound]);
    const unknown = await owner.client.put('/groups/999999', { name: 'Nope' });
    assert.deepEqual([unknown.status, unknown.body], [404, groupNotFound]);
  });

  test('a group may not become less visible than one of its projects', async () => {
    const owner = await app.createUser();
    const group = await createGroup(owner.client, { visibility_level: 20 });
    await newProject(owner.client, { namespace_id: group.id, visibility_level: 10 });
    const response = await owner.client.put(`/groups/${group.id}`, { visibility_level: 0 });
    assert.deepEqual(
      [response.status, response.body],
      [400, { message: { visibility_level: ['private is not allowed since there are projects with higher visibility.'] } }],
    );
    assert.equal((await owner.client.put(`/groups/${group.id}`, { visibility_level: 10 })).status, 200);
  });

  test('a restricted visibility level is for administrators only', async () => {
    const owner = await app.createUser();
    const group = await createGroup(owner.client, { visibility_level: 0 });
    await setSettings({ restricted_visibility_levels: [10] });
    try {
      const refused = await owner.client.put(`/groups/${group.id}`, { visibility_level: 10 });
      assert.deepEqual(
        [refused.status, refused.body],
        [400, { message: { visibility_level: ['internal has been restricted by your GitLab administrator'] } }],
      );
      // Keeping the current level is no change.
      assert.equal((await owner.client.put(`/groups/${group.id}`, { visibility_level: 0 })).status, 200);
      assert.equal((await app.root.put(`/groups/${group.id}`, { visibility_level: 10 })).status, 200);
    } finally {
      await setSettings({ restricted_visibility_levels: [] });
    }
  });

  test('invalid or taken names and paths answer 400 with per-field messages', async () => {
    const owner = await app.createUser();
    const group = await createGroup(owner.client);
    const other = await createGroup(owner.client);
    const taken = await owner.client.put(`/groups/${group.id}`, { name: other.name, path: other.path.toUpperCase() });
    assert.deepEqual(
      [taken.status, taken.body],
      [400, { message: { name: ['has already been taken'], path: ['has already been taken'] } }],
    );
    const invalid = await owner.client.put(`/groups/${group.id}`, { name: 'no*stars', path: 'ends-with.' });
    assert.deepEqual(invalid.body, { message: { name: [NAME_MESSAGE], path: [PATH_MESSAGE] } });
    const self = await owner.client.put(`/groups/${group.id}`, { name: group.name, path: group.path });
    assert.equal(self.status, 200);
  });
});

describe('DELETE /groups/:id', () => {
  test('the owner removes the group with its members and projects: 200 with the group record', async () => {
    const owner = await app.createUser();
    const member = await app.createUser();
    const group = await createGroup(owner.client, { visibility_level: 20 });
    const project = await newProject(owner.client, { namespace_id: group.id });
    const elsewhere = await newProject(owner.client);
    await owner.client.post(`/projects/${elsewhere.id}/share`, { group_id: group.id, group_access: 30 });
    await grantGroupRole(app, group.id, member.user.id, 30);
    const response = await owner.client.delete(`/groups/${group.id}`);
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body).sort(), RECORD_KEYS);
    assert.deepEqual(
      [response.body.id, response.body.name, response.body.path, response.body.type],
      [group.id, group.name, group.path, 'Group'],
    );
    assert.deepEqual((await app.root.get(`/groups/${group.id}`)).body, groupNotFound);
    assert.equal((await app.root.get(`/projects/${project.id}`)).status, 404);
    const db = app.ctx.db;
    const members = await db
      .selectFrom('members')
      .select('id')
      .where('source_type', '=', 'Namespace')
      .where('source_id', '=', group.id)
      .execute();
    assert.deepEqual(members, []);
    // The project shared with the group stays, without the share.
    const kept = await owner.client.get(`/projects/${elsewhere.id}`);
    assert.deepEqual([kept.status, kept.body.shared_with_groups], [200, []]);
  });

  // Deliveries run concurrently, so only their arrival is checked, not their order.
  test('fires project_destroy for each project, user_remove_from_group for each member, and group_destroy', async () => {
    const owner = await app.createUser();
    const group = await createGroup(owner.client);
    const project = await newProject(owner.client, { namespace_id: group.id });
    await owner.client.delete(`/groups/${group.id}`);
    const destroyed = await hookFor('project_destroy', (body) => body.project_id === project.id);
    assert.equal(destroyed.body.path_with_namespace, `${group.path}/${project.path}`);
    const removed = await hookFor('user_remove_from_group', (body) => body.group_id === group.id);
    assert.deepEqual([removed.body.user_id, removed.body.group_access], [owner.user.id, 'Owner']);
    const gone = await hookFor('group_destroy', (body) => body.group_id === group.id);
    assert.deepEqual(
      { ...gone.body, created_at: 'T', updated_at: 'T' },
      {
        event_name: 'group_destroy',
        created_at: 'T',
        updated_at: 'T',
        name: group.name,
        path: group.path,
        group_id: group.id,
        owner_name: null,
        owner_email: null,
      },
    );
  });

  test('a member who is not an owner gets 403', async () => {
    const owner = await app.createUser();
    const master = await app.createUser();
    const group = await createGroup(owner.client);
    await grantGroupRole(app, group.id, master.user.id, 40);
    const response = await master.client.delete(`/groups/${group.id}`);
    assert.deepEqual([response.status, response.body], [403, forbidden]);
    assert.equal((await owner.client.get(`/groups/${group.id}`)).status, 200);
  });

  test('an unknown group or a private group of others answers 404', async () => {
    const owner = await app.createUser();
    const stranger = await app.createUser();
    const group = await createGroup(owner.client, { visibility_level: 0 });
    assert.deepEqual((await stranger.client.delete(`/groups/${group.id}`)).body, groupNotFound);
    const unknown = await owner.client.delete('/groups/999999');
    assert.deepEqual([unknown.status, unknown.body], [404, groupNotFound]);
  });

  test('an administrator may remove any group', async () => {
    const owner = await app.createUser();
    const group = await createGroup(owner.client);
    assert.equal((await app.root.delete(`/groups/${group.path}`)).status, 200);
    assert.equal((await owner.client.get(`/groups/${group.id}`)).status, 404);
  });
});

describe('GET /groups/:id/projects', () => {
  test("the owner gets the group's projects and the projects shared with it", async () => {
    const owner = await app.createUser();
    const group = await createGroup(owner.client);
    const a = await newProject(owner.client, { namespace_id: group.id });
    const b = await newProject(owner.client, { namespace_id: group.id });
    const shared = await newProject(owner.client);
    await owner.client.post(`/projects/${shared.id}/share`, { group_id: group.id, group_access: 20 });
    const response = await owner.client.get(`/groups/${group.id}/projects`);
    assert.equal(response.status, 200);
    // Newest first by default.
    assert.deepEqual(
      response.body.map((p: any) => p.id),
      [shared.id, b.id, a.id],
    );
    assert.equal(response.body[1].namespace.id, group.id);
    assert.equal(response.headers.get('x-total'), '3');
  });

  test('a user with access to only one private project of a public group sees only that project', async () => {
    const owner = await app.createUser();
    const guest = await app.createUser();
    const group = await createGroup(owner.client, { visibility_level: 20 });
    const seen = await newProject(owner.client, { namespace_id: group.id });
    await newProject(owner.client, { namespace_id: group.id });
    await grantProjectRole(app, seen.id, guest.user.id, 10);
    assert.deepEqual(
      (await guest.client.get(`/groups/${group.id}/projects`)).body.map((p: any) => p.id),
      [seen.id],
    );
  });

  test('non-members see the public and internal projects; members and administrators see all', async () => {
    const owner = await app.createUser();
    const stranger = await app.createUser();
    const member = await app.createUser();
    const group = await createGroup(owner.client, { visibility_level: 20 });
    const open = await newProject(owner.client, { namespace_id: group.id, visibility_level: 20 });
    const internal = await newProject(owner.client, { namespace_id: group.id, visibility_level: 10 });
    const closed = await newProject(owner.client, { namespace_id: group.id });
    await grantGroupRole(app, group.id, member.user.id, 10);
    const ids = async (client: ApiClient) =>
      (await client.get(`/groups/${group.id}/projects`, { sort: 'asc', order_by: 'id' })).body.map((p: any) => p.id);
    assert.deepEqual(await ids(stranger.client), [open.id, internal.id]);
    assert.deepEqual(await ids(member.client), [open.id, internal.id, closed.id]);
    assert.deepEqual(await ids(app.root), [open.id, internal.id, closed.id]);
  });

  test('filters archived, visibility and search, and orders by order_by and sort', async () => {
    const owner = await app.createUser();
    const group = await createGroup(owner.client, { visibility_level: 20 });
    const alpha = await newProject(owner.client, { namespace_id: group.id, name: 'Alpha thing', visibility_level: 20 });
    const beta = await newProject(owner.client, { namespace_id: group.id, name: 'beta thing' });
    const gamma = await newProject(owner.client, { namespace_id: group.id, name: 'gamma' });
    await owner.client.post(`/projects/${gamma.id}/archive`);
    const ids = async (query: Record<string, unknown>) =>
      (await owner.client.get(`/groups/${group.id}/projects`, query)).body.map((p: any) => p.id);
    assert.deepEqual(await ids({ archived: true }), [gamma.id]);
    assert.deepEqual(await ids({ archived: false, order_by: 'id', sort: 'asc' }), [alpha.id, beta.id]);
    assert.deepEqual(await ids({ visibility: 'public' }), [alpha.id]);
    assert.deepEqual(await ids({ search: 'THING', order_by: 'name', sort: 'asc' }), [alpha.id, beta.id]);
    assert.deepEqual(await ids({ order_by: 'name', sort: 'desc' }), [gamma.id, beta.id, alpha.id]);
  });

  test('ci_enabled_first puts the projects with builds enabled first', async () => {
    const owner = await app.createUser();
    const group = await createGroup(owner.client);
    const first = await newProject(owner.client, { namespace_id: group.id, builds_enabled: false });
    const second = await newProject(owner.client, { namespace_id: group.id });
    const ids = async (query: Record<string, unknown>) =>
      (await owner.client.get(`/groups/${group.id}/projects`, query)).body.map((p: any) => p.id);
    assert.deepEqual(await ids({ order_by: 'id', sort: 'desc' }), [second.id, first.id]);
    assert.deepEqual(await ids({ order_by: 'id', sort: 'asc' }), [first.id, second.id]);
    assert.deepEqual(await ids({ order_by: 'id', sort: 'asc', ci_enabled_first: true }), [second.id, first.id]);
  });

  test('the list is paginated', async () => {
    const owner = await app.createUser();
    const group = await createGroup(owner.client);
    await newProject(owner.client, { namespace_id: group.id });
    const second = await newProject(owner.client, { namespace_id: group.id });
    const response = await owner.client.get(`/groups/${group.path}/projects`, { per_page: 1 });
    assert.deepEqual(
      response.body.map((p: any) => p.id),
      [second.id],
    );
    assert.deepEqual(
      [response.headers.get('x-total'), response.headers.get('x-total-pages'), response.headers.get('x-next-page')],
      ['2', '2', '2'],
    );
  });

  test('an unknown group or a private group of others answers 404', async () => {
    const owner = await app.createUser();
    const stranger = await app.createUser();
    const group = await createGroup(owner.client, { visibility_level: 0 });
    assert.deepEqual((await stranger.client.get(`/groups/${group.id}/projects`)).body, groupNotFound);
    const unknown = await owner.client.get('/groups/999999/projects');
    assert.deepEqual([unknown.status, unknown.body], [404, groupNotFound]);
  });
});

describe('POST /groups/:id/projects/:project_id', () => {
  test('an administrator transfers the project into the group: 201 with the group record', async () => {
    const owner = await app.createUser();
    const group = await createGroup(owner.client);
    const project = await newProject(owner.client);
    const response = await app.root.post(`/groups/${group.id}/projects/${project.id}`);
    assert.equal(response.status, 201);
    assert.deepEqual(Object.keys(response.body).sort(), RECORD_KEYS);
    assert.deepEqual([response.body.id, response.body.path, response.body.type], [group.id, group.path, 'Group']);
    const moved = await app.root.get(`/projects/${project.id}`);
    assert.deepEqual([moved.body.namespace.id, moved.body.path_with_namespace], [group.id, `${group.path}/${project.path}`]);
    const transfer = await hookFor('project_transfer', (body) => body.project_id === project.id);
    assert.equal(transfer.body.old_path_with_namespace, `${owner.user.username}/${project.path}`);
  });

  test('the group may be named by its path', async () => {
    const owner = await app.createUser();
    const group = await createGroup(owner.client);
    const project = await newProject(owner.client);
    assert.equal((await app.root.post(`/groups/${group.path}/projects/${project.id}`)).status, 201);
  });

  test('a user who is not an administrator gets 403, even the group owner', async () => {
    const owner = await app.createUser();
    const group = await createGroup(owner.client);
    const project = await newProject(owner.client);
    const response = await owner.client.post(`/groups/${group.id}/projects/${project.id}`);
    assert.deepEqual([response.status, response.body], [403, forbidden]);
  });

  test('an unknown project answers 404 Not found; an unknown group 404 Group Not Found', async () => {
    const owner = await app.createUser();
    const group = await createGroup(owner.client);
    const project = await newProject(owner.client);
    const noProject = await app.root.post(`/groups/${group.id}/projects/999999`);
    assert.deepEqual([noProject.status, noProject.body], [404, { message: '404 Not found' }]);
    const noGroup = await app.root.post(`/groups/no-such-group/projects/${project.id}`);
    assert.deepEqual([noGroup.status, noGroup.body], [404, groupNotFound]);
  });

  test('a project whose path is taken in the group is not moved: 400', async () => {
    const owner = await app.createUser();
    const group = await createGroup(owner.client);
    await newProject(owner.client, { namespace_id: group.id, name: 'same', path: 'same' });
    const project = await newProject(owner.client, { name: 'same', path: 'same' });
    const response = await app.root.post(`/groups/${group.id}/projects/${project.id}`);
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, {
      message: 'Failed to transfer project {:name=>["has already been taken"], :path=>["has already been taken"]}',
    });
  });
});
