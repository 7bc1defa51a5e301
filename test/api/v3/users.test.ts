import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';

let app: TestApp;
before(async () => {
  app = await startApp();
});
after(() => app.close());

const namespaceMessage = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.'.";
const fullKeys = [
  'email',
  'identities',
  'can_create_project',
  'two_factor_enabled',
  'last_sign_in_at',
  'confirmed_at',
  'projects_limit',
  'can_create_group',
  'external',
  'theme_id',
  'color_scheme_id',
  'current_sign_in_at',
];

describe('POST /session', () => {
  test('by username or e-mail, ignoring case: 201 with the private token', async () => {
    const { user, token } = await app.createUser();
    for (const body of [
      { login: user.username.toUpperCase(), password: 'password123' },
      { email: user.email.toUpperCase(), password: 'password123' },
      { login: user.email, password: 'password123' },
    ]) {
      const response = await app.anonymous.post('/session', body);
      assert.equal(response.status, 201, JSON.stringify(body));
      assert.equal(response.body.private_token, token);
      assert.equal(response.body.email, user.email);
      for (const key of ['is_admin', 'can_create_project', 'can_create_group']) assert.ok(key in response.body);
    }
  });

  test('a wrong or missing password or login answers 401 without the user', async () => {
    const { user } = await app.createUser();
    for (const body of [
      { login: user.username, password: 'wrong-password' },
      { login: user.username },
      { password: 'password123' },
      { login: 'nobody-at-all', password: 'x' },
    ]) {
      const response = await app.anonymous.post('/session', body);
      assert.equal(response.status, 401);
      assert.deepEqual(response.body, { message: '401 Unauthorized' });
    }
  });

  test('a blocked user cannot log in', async () => {
    const { user } = await app.createUser();
    await app.root.put(`/users/${user.id}/block`);
    assert.equal((await app.anonymous.post('/session', { login: user.username, password: 'password123' })).status, 401);
  });
});

describe('GET /user', () => {
  test('the current user in the full shape, without the private token', async () => {
    const { client, user } = await app.createUser();
    const response = await client.get('/user');
    assert.equal(response.status, 200);
    assert.equal(response.body.id, user.id);
    for (const key of fullKeys) assert.ok(key in response.body, key);
    assert.equal(response.body.private_token, undefined);
    assert.equal(response.body.web_url, `http://localhost:${new URL(app.url).port}/u/${user.username}`);
  });

  test('anonymous callers get 401', async () => {
    assert.equal((await app.anonymous.get('/user')).status, 401);
  });
});

describe('GET /users', () => {
  test('normal users get the basic shape; administrators the full one', async () => {
    const { client, user } = await app.createUser();
    const basic = await client.get('/users', { username: user.username });
    assert.deepEqual(Object.keys(basic.body[0]).sort(), ['avatar_url', 'id', 'name', 'state', 'username', 'web_url']);
    const full = await app.root.get('/users', { username: user.username });
    for (const key of fullKeys) assert.ok(key in full.body[0], key);
  });

  test('username is an exact look-up and is not paginated', async () => {
    const { client, user } = await app.createUser();
    const response = await client.get('/users', { username: user.username });
    assert.deepEqual(
      response.body.map((u: any) => u.id),
      [user.id],
    );
    assert.equal(response.headers.get('x-total'), null);
  });

  test('search matches username, name or e-mail', async () => {
    const { user } = await app.createUser({ name: 'Findable Person', email: 'findme-xyz@example.com', username: 'findable' });
    for (const search of ['findable', 'Findable Person', 'findme-xyz']) {
      const response = await app.root.get('/users', { search });
      assert.deepEqual(
        response.body.map((u: any) => u.id),
        [user.id],
        search,
      );
    }
  });

  test('anonymous callers get 401', async () => {
    assert.equal((await app.anonymous.get('/users')).status, 401);
  });
});

describe('GET /users/:id', () => {
  test('the public shape for users; the full shape for administrators', async () => {
    const { client, user } = await app.createUser();
    const seen = await client.get(`/users/${user.id}`);
    assert.equal(seen.status, 200);
    assert.equal(seen.body.username, user.username);
    assert.equal(seen.body.email, undefined);
    for (const key of ['created_at', 'is_admin', 'bio', 'location', 'skype', 'linkedin', 'twitter', 'website_url'])
      assert.ok(key in seen.body, key);
    assert.equal((await app.root.get(`/users/${user.id}`)).body.email, user.email);
  });

  test('unknown: 404 Not found; a non-numeric id matches no route: 404', async () => {
    const unknown = await app.root.get('/users/999999');
    assert.deepEqual([unknown.status, unknown.body], [404, { message: '404 Not found' }]);
    assert.equal((await app.root.get('/users/1ASDF')).status, 404);
    assert.equal((await app.root.get('/users/99999999999')).status, 404);
  });
});

describe('POST /users', () => {
  test('administrators create users: 201, defaults admin false and external false', async () => {
    const response = await app.root.post('/users', {
      email: 'new1@example.com',
      password: 'password123',
      name: 'New One',
      username: 'newone',
    });
    assert.equal(response.status, 201);
    assert.equal(response.body.is_admin, false);
    assert.equal(response.body.external, false);
    assert.equal(response.body.can_create_group, true);
    assert.equal(response.body.projects_limit, 10);
    assert.equal(response.body.confirmed_at, null);
  });

  test('admin, can_create_group, external, confirm=false and the profile are stored', async () => {
    const response = await app.root.form('POST', '/users', {
      email: 'new2@example.com',
      password: 'password123',
      name: 'New Two',
      username: 'newtwo',
      admin: 'true',
      can_create_group: 'false',
      external: 'true',
      confirm: 'false',
      bio: 'bio',
      location: 'here',
      skype: 's',
      linkedin: 'l',
      twitter: 't',
      projects_limit: '3',
      provider: 'ldap',
      extern_uid: 'uid=newtwo',
    });
    assert.equal(response.status, 201);
    const u = response.body;
    assert.deepEqual(
      [u.is_admin, u.can_create_group, u.external, u.bio, u.location, u.skype, u.projects_limit],
      [true, false, true, 'bio', 'here', 's', 3],
    );
    assert.notEqual(u.confirmed_at, null);
    assert.deepEqual(u.identities, [{ provider: 'ldap', extern_uid: 'uid=newtwo' }]);
  });

  test('missing email, password, name or username: 400 naming the first missing, in that order', async () => {
    const full = { email: 'm@example.com', password: 'password123', name: 'M', username: 'missing' };
    for (const field of ['email', 'password', 'name', 'username'] as const) {
      const { [field]: _omitted, ...rest } = full;
      const response = await app.root.post('/users', rest);
      assert.deepEqual([response.status, response.body], [400, { message: `400 (Bad request) "${field}" not given` }]);
    }
  });

  test('validation failures answer 400 with the messages per field', async () => {
    const response = await app.root.post('/users', {
      email: 'invalid',
      password: 'short',
      name: 'V',
      username: 'test!',
      bio: 'x'.repeat(256),
      projects_limit: -1,
    });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body.message.password, ['is too short (minimum is 8 characters)']);
    assert.deepEqual(response.body.message.bio, ['is too long (maximum is 255 characters)']);
    assert.deepEqual(response.body.message.projects_limit, ['must be greater than or equal to 0']);
    assert.deepEqual(response.body.message.username, [namespaceMessage]);
    assert.deepEqual(response.body.message.email, ['is invalid']);
  });

  test('a reserved username is refused', async () => {
    const response = await app.root.post('/users', { email: 'r@example.com', password: 'password123', name: 'R', username: 'admin' });
    assert.deepEqual(response.body.message.username, ['admin is a reserved name']);
  });

  test('a taken e-mail or username answers 409, e-mail checked first, ignoring case', async () => {
    const { user } = await app.createUser();
    const email = await app.root.post('/users', {
      email: user.email.toUpperCase(),
      password: 'password123',
      name: 'D',
      username: user.username,
    });
    assert.deepEqual([email.status, email.body], [409, { message: 'Email has already been taken' }]);
    const username = await app.root.post('/users', {
      email: 'other-dup@example.com',
      password: 'password123',
      name: 'D',
      username: user.username.toUpperCase(),
    });
    assert.deepEqual([username.status, username.body], [409, { message: 'Username has already been taken' }]);
  });

  test('the new user has a personal namespace and announces user_create', async () => {
    const response = await app.root.post('/users', { email: 'ns@example.com', password: 'password123', name: 'NS', username: 'nsuser' });
    const namespace = await app.ctx.db.selectFrom('namespaces').selectAll().where('owner_id', '=', response.body.id).executeTakeFirst();
    assert.equal(namespace?.path, 'nsuser');
    assert.equal(namespace?.kind, 'user');
  });

  test('normal users get 403; anonymous callers 401', async () => {
    const { client } = await app.createUser();
    const body = { email: 'x@example.com', password: 'password123', name: 'X', username: 'xuser' };
    assert.deepEqual((await client.post('/users', body)).body, { message: '403 Forbidden' });
    assert.equal((await app.anonymous.post('/users', body)).status, 401);
  });
});

describe('POST /users at the same time', () => {
  test('with the same username and e-mail: one 201, the others 409, never a 500', async () => {
    const attempts = await Promise.all(
      Array.from({ length: 6 }, () =>
        app.root.post('/users', { email: 'twin@example.com', password: 'password123', username: 'twin', name: 'Twin' }),
      ),
    );
    const statuses = attempts.map((response) => response.status).sort();
    assert.deepEqual(statuses, [201, 409, 409, 409, 409, 409]);
  });
});

describe('PUT /users/:id', () => {
  test('administrators change the profile and flags', async () => {
    const { user } = await app.createUser();
    const response = await app.root.put(`/users/${user.id}`, { bio: 'new bio', admin: true, external: true, name: 'Renamed' });
    assert.equal(response.status, 200);
    assert.deepEqual(
      [response.body.bio, response.body.is_admin, response.body.external, response.body.name],
      ['new bio', true, true, 'Renamed'],
    );
  });

  test('keeping the own e-mail and username is fine', async () => {
    const { user } = await app.createUser();
    assert.equal((await app.root.put(`/users/${user.id}`, { email: user.email, username: user.username })).status, 200);
  });

  test('provider and extern_uid update that identity or add one', async () => {
    const { user } = await app.createUser();
    await app.root.put(`/users/${user.id}`, { provider: 'ldap', extern_uid: 'first' });
    const updated = await app.root.put(`/users/${user.id}`, { provider: 'ldap', extern_uid: 'second' });
    assert.deepEqual(updated.body.identities, [{ provider: 'ldap', extern_uid: 'second' }]);
  });

  test('can_create_group=false on an administrator keeps them administrator', async () => {
    const { user } = await app.createUser({ admin: true });
    const response = await app.root.put(`/users/${user.id}`, { can_create_group: false });
    assert.deepEqual([response.body.is_admin, response.body.can_create_group], [true, false]);
  });

  test('renaming the username renames the personal namespace', async () => {
    const { user } = await app.createUser();
    await app.root.put(`/users/${user.id}`, { username: `${user.username}-renamed` });
    const namespace = await app.ctx.db.selectFrom('namespaces').select('path').where('owner_id', '=', user.id).executeTakeFirst();
    assert.equal(namespace?.path, `${user.username}-renamed`);
  });

  test("another user's e-mail or username answers 404, as the spec says", async () => {
    const { user } = await app.createUser();
    const other = await app.createUser();
    const email = await app.root.put(`/users/${user.id}`, { email: other.user.email });
    assert.deepEqual([email.status, email.body], [404, { message: 'Email has already been taken' }]);
    const username = await app.root.put(`/users/${user.id}`, { username: other.user.username });
    assert.deepEqual([username.status, username.body], [404, { message: 'Username has already been taken' }]);
  });

  test('invalid values answer 400; unknown users 404 Not found; normal users 403', async () => {
    const { user, client } = await app.createUser();
    const invalid = await app.root.put(`/users/${user.id}`, { email: 'not-an-email', password: 'short' });
    assert.equal(invalid.status, 400);
    assert.deepEqual(invalid.body.message.password, ['is too short (minimum is 8 characters)']);
    assert.deepEqual((await app.root.put('/users/999999', { bio: 'x' })).body, { message: '404 Not found' });
    assert.equal((await client.put(`/users/${user.id}`, { bio: 'x' })).status, 403);
  });

  test('a new password works for login at once', async () => {
    const { user } = await app.createUser();
    await app.root.put(`/users/${user.id}`, { password: 'brand-new-password' });
    assert.equal((await app.anonymous.post('/session', { login: user.username, password: 'brand-new-password' })).status, 201);
  });
});

describe('DELETE /users/:id', () => {
  test('deletes the user and their namespace: 200 with the user', async () => {
    const { user, client } = await app.createUser();
    const response = await app.root.delete(`/users/${user.id}`);
    assert.equal(response.status, 200);
    assert.equal(response.body.email, user.email);
    assert.equal((await app.root.get(`/users/${user.id}`)).status, 404);
    assert.equal((await client.get('/user')).status, 401);
    const namespace = await app.ctx.db.selectFrom('namespaces').select('id').where('path', '=', user.username).executeTakeFirst();
    assert.equal(namespace, undefined);
  });

  test("the only owner of a group is kept: 200 with the user, as GitLab 8.12's DeleteUserService refused", async () => {
    const { user, client } = await app.createUser({ can_create_group: true });
    const group = await client.post('/groups', { name: 'solo-owned', path: 'solo-owned' });
    assert.equal(group.status, 201);
    const response = await app.root.delete(`/users/${user.id}`);
    assert.deepEqual([response.status, response.body.id], [200, user.id]);
    assert.equal((await client.get('/user')).status, 200);
    // With a second owner the group no longer depends on them: the deletion goes through.
    const other = await app.createUser();
    assert.equal((await client.post(`/groups/${group.body.id}/members`, { user_id: other.user.id, access_level: 50 })).status, 201);
    assert.equal((await app.root.delete(`/users/${user.id}`)).status, 200);
    assert.equal((await client.get('/user')).status, 401);
  });

  test('200 even for an unknown id, with no user in the body (the spec)', async () => {
    const response = await app.root.delete('/users/999999');
    assert.equal(response.status, 200);
    assert.equal(response.body, null);
  });

  test('normal users get 403; anonymous callers 401', async () => {
    const { user, client } = await app.createUser();
    assert.equal((await client.delete(`/users/${user.id}`)).status, 403);
    assert.equal((await app.anonymous.delete(`/users/${user.id}`)).status, 401);
  });
});

describe('PUT /users/:id/block and /unblock', () => {
  test('block: 200 true, state blocked, and the token no longer works', async () => {
    const { user, client } = await app.createUser();
    assert.equal((await client.get('/user')).status, 200);
    const response = await app.root.put(`/users/${user.id}/block`);
    assert.deepEqual([response.status, response.body], [200, true]);
    assert.equal((await app.root.get(`/users/${user.id}`)).body.state, 'blocked');
    assert.equal((await client.get('/user')).status, 401);
  });

  test('can_create_project follows the personal projects at once: create, delete, transfer to a group', async () => {
    const { user, client } = await app.createUser({ projects_limit: 1 });
    const canCreate = async () => (await client.get('/user')).body.can_create_project;
    assert.equal(await canCreate(), true);
    const first = await client.post('/projects', { name: 'only-one' });
    assert.equal(first.status, 201);
    assert.equal(await canCreate(), false);
    assert.equal((await client.delete(`/projects/${first.body.id}`)).status, 200);
    assert.equal(await canCreate(), true);
    const second = await client.post('/projects', { name: 'only-one-again', visibility_level: 0 });
    assert.equal(await canCreate(), false);
    const group = await app.root.post('/groups', { name: `can-create-${user.id}`, path: `can-create-${user.id}` });
    assert.equal((await app.root.post(`/groups/${group.body.id}/projects/${second.body.id}`)).status, 201);
    assert.equal(await canCreate(), true);
  });

  test('a change to a signed-in user holds from its next request on: admin flag, username, deletion', async () => {
    const { user, client } = await app.createUser();
    assert.equal((await client.get('/application/settings')).status, 403);
    await app.root.put(`/users/${user.id}`, { admin: true, username: `${user.username}-renamed` });
    const renamed = await client.get('/user');
    assert.deepEqual([renamed.body.is_admin, renamed.body.username], [true, `${user.username}-renamed`]);
    assert.equal((await client.get('/application/settings')).status, 200);
    await app.root.delete(`/users/${user.id}`);
    assert.equal((await client.get('/user')).status, 401);
  });

  test('unblock: 200, active again, on an active or blocked user', async () => {
    const { user, client } = await app.createUser();
    assert.equal((await app.root.put(`/users/${user.id}/unblock`)).status, 200);
    await app.root.put(`/users/${user.id}/block`);
    assert.deepEqual((await app.root.put(`/users/${user.id}/unblock`)).body, true);
    assert.equal((await app.root.get(`/users/${user.id}`)).body.state, 'active');
    assert.equal((await client.get('/user')).status, 200);
  });

  test('unknown users: 404 User Not Found; normal users 403', async () => {
    for (const action of ['block', 'unblock']) {
      const response = await app.root.put(`/users/999999/${action}`);
      assert.deepEqual([response.status, response.body], [404, { message: '404 User Not Found' }]);
    }
    const { user, client } = await app.createUser();
    assert.equal((await client.put(`/users/${user.id}/block`)).status, 403);
  });
});
