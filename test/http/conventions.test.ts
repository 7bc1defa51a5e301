import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';

let app: TestApp;
before(async () => {
  app = await startApp();
});
after(() => app.close());

describe('authentication', () => {
  test('no token answers 401 Unauthorized', async () => {
    const response = await app.anonymous.get('/user');
    assert.equal(response.status, 401);
    assert.deepEqual(response.body, { message: '401 Unauthorized' });
  });

  test('an unknown token is nobody: 401', async () => {
    const response = await app.as('not-a-token').get('/user');
    assert.equal(response.status, 401);
  });

  test('the PRIVATE-TOKEN header, the PRIVATE_TOKEN header and the private_token parameter all authenticate', async () => {
    const header = await app.anonymous.get('/user', undefined, { 'private-token': app.rootToken });
    const underscore = await app.anonymous.get('/user', undefined, { private_token: app.rootToken });
    const query = await app.anonymous.get('/user', { private_token: app.rootToken });
    const form = await app.anonymous.form('POST', '/session', { login: 'root', password: 'rootpassword', private_token: app.rootToken });
    for (const response of [header, underscore, query]) {
      assert.equal(response.status, 200);
      assert.equal(response.body.username, 'root');
    }
    assert.equal(form.status, 201);
  });

  test('the private token in a form body authenticates a PUT', async () => {
    const { user } = await app.createUser();
    const response = await app.anonymous.form('PUT', `/users/${user.id}`, { private_token: app.rootToken, bio: 'from a form' });
    assert.equal(response.status, 200);
    assert.equal(response.body.bio, 'from a form');
  });
});

describe('sudo', () => {
  test('an administrator acts as another user by id or username', async () => {
    const { user } = await app.createUser();
    const byId = await app.root.get('/user', { sudo: user.id });
    const byName = await app.root.get('/user', undefined, { sudo: user.username });
    assert.equal(byId.body.username, user.username);
    assert.equal(byName.body.username, user.username);
  });

  test('a normal user may sudo to themself but not to others', async () => {
    const { user, client } = await app.createUser();
    const self = await client.get('/user', { sudo: user.username });
    assert.equal(self.status, 200);
    const other = await client.get('/user', { sudo: 'root' });
    assert.equal(other.status, 403);
    assert.deepEqual(other.body, { message: '403 Forbidden - Must be admin to use sudo' });
  });

  test('sudo to an unknown user answers 404 with GitLab wording', async () => {
    const response = await app.root.get('/user', { sudo: 'nobody-here' });
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 No user id or username for: nobody-here Not Found' });
  });
});

describe('parameters', () => {
  test('the same parameters are read from JSON, urlencoded and multipart bodies and the query string', async () => {
    const json = await app.root.post('/users', { email: 'json@example.com', password: 'password123', name: 'J', username: 'jsonuser' });
    const form = await app.root.form('POST', '/users', {
      email: 'form@example.com',
      password: 'password123',
      name: 'F',
      username: 'formuser',
    });
    const multipart = new FormData();
    for (const [key, value] of Object.entries({ email: 'multi@example.com', password: 'password123', name: 'M', username: 'multiuser' }))
      multipart.append(key, value);
    const multi = await fetch(`${app.url}/api/v3/users`, { method: 'POST', headers: { 'private-token': app.rootToken }, body: multipart });
    const query = await app.root.post('/users?email=query%40example.com&password=password123&name=Q&username=queryuser');
    assert.deepEqual([json.status, form.status, multi.status, query.status], [201, 201, 201, 201]);
    assert.equal(query.body.username, 'queryuser');
  });

  test('booleans follow to_boolean: true/t/yes/y/1/on and false/f/no/n/0/off', async () => {
    for (const [value, expected] of [
      ['yes', true],
      ['1', true],
      ['on', true],
      ['t', true],
      ['no', false],
      ['0', false],
      ['off', false],
      ['f', false],
    ] as const) {
      const { user } = await app.createUser({ external: value });
      assert.equal(user.external, expected, `external=${value}`);
    }
  });

  test('an empty body labelled JSON is an empty parameter set', async () => {
    const response = await app.root.raw('GET', '/api/v3/user', { body: undefined, headers: { 'content-type': 'application/json' } });
    assert.equal(response.status, 200);
    const post = await app.root.raw('POST', '/api/v3/users', { body: '', headers: { 'content-type': 'application/json' } });
    assert.equal(post.status, 400);
    assert.deepEqual(post.body, { message: '400 (Bad request) "email" not given' });
  });

  test('a JSON null is an absent parameter: it neither sets a field nor counts as given', async () => {
    const { user } = await app.createUser({ projects_limit: 7 });
    const updated = await app.root.put(`/users/${user.id}`, { projects_limit: null, bio: 'kept' });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.projects_limit, 7);
    const missing = await app.root.post('/users', { email: null, password: 'password123', name: 'N', username: 'nulluser' });
    assert.deepEqual(missing.body, { message: '400 (Bad request) "email" not given' });
  });

  test('a malformed JSON body answers 400, not 500', async () => {
    const response = await app.root.raw('POST', '/api/v3/users', { body: '{"email":', headers: { 'content-type': 'application/json' } });
    assert.equal(response.status, 400);
    assert.equal(typeof response.body.message, 'string');
  });

  test('a JSON body that is not an object answers 400', async () => {
    const response = await app.root.raw('POST', '/api/v3/users', { body: '[1,2]', headers: { 'content-type': 'application/json' } });
    assert.equal(response.status, 400);
  });

  test('a wrongly typed parameter answers 400 naming it', async () => {
    const response = await app.root.post('/users', {
      email: 'typed@example.com',
      password: 'password123',
      name: 'T',
      username: 'typed',
      projects_limit: 'many',
    });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: '400 (Bad request) "projects_limit" is invalid' });
  });
});

describe('routes', () => {
  test('every route also answers with a .json suffix', async () => {
    const response = await app.root.get('/user.json');
    assert.equal(response.status, 200);
    assert.equal(response.body.username, 'root');
    const users = await app.root.get('/users.json', { per_page: 1 });
    assert.equal(users.status, 200);
    assert.equal(users.body.length, 1);
  });

  test('an unknown route answers 404 JSON', async () => {
    const response = await app.root.get('/no/such/route');
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 Not Found' });
    const anonymous = await app.anonymous.get('/no/such/route');
    assert.equal(anonymous.status, 404);
  });

  test('a known path asked with another method answers 405 with an Allow header, before authentication', async () => {
    const response = await app.anonymous.put('/users/ASDF/emails', {});
    assert.equal(response.status, 405);
    assert.deepEqual(response.body, { error: '405 Not Allowed' });
    assert.match(response.headers.get('allow') ?? '', /GET/);
    assert.match(response.headers.get('allow') ?? '', /POST/);
    assert.equal((await app.root.delete('/projects/1/hooks')).status, 405);
  });

  test('timestamps are ISO 8601 with milliseconds and Z', async () => {
    const response = await app.root.get('/user');
    assert.match(response.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});

describe('pagination', () => {
  test('page and per_page with X-* headers and a Link header', async () => {
    for (let i = 0; i < 3; i++) await app.createUser();
    const total = Number((await app.root.get('/users', { per_page: 1 })).headers.get('x-total'));
    assert.ok(total >= 4);
    const response = await app.root.get('/users', { page: 2, per_page: 2 });
    assert.equal(response.status, 200);
    assert.equal(response.body.length, 2);
    assert.equal(response.headers.get('x-page'), '2');
    assert.equal(response.headers.get('x-per-page'), '2');
    assert.equal(response.headers.get('x-total'), String(total));
    assert.equal(response.headers.get('x-total-pages'), String(Math.ceil(total / 2)));
    assert.equal(response.headers.get('x-prev-page'), '1');
    assert.equal(response.headers.get('x-next-page'), total > 4 ? '3' : '');
    const link = response.headers.get('link')!;
    assert.match(link, /<[^>]+\/api\/v3\/users\?page=1&per_page=2>; rel="prev"/);
    assert.match(link, /rel="first"/);
    assert.match(link, /rel="last"/);
  });

  test('per_page defaults to 20 and is at most 100; nonsense falls back', async () => {
    assert.equal((await app.root.get('/users')).headers.get('x-per-page'), '20');
    assert.equal((await app.root.get('/users', { per_page: 1000 })).headers.get('x-per-page'), '100');
    assert.equal((await app.root.get('/users', { per_page: 'abc', page: -3 })).headers.get('x-page'), '1');
  });

  test('Link keeps the declared filters and credentials but not a 10 KB parameter the route ignores: headers stay small', async () => {
    for (let i = 0; i < 3; i++) await app.createUser();
    const big = 'x'.repeat(10 * 1024);
    const response = await app.root.get('/users', { foo: big, search: 'user', per_page: 1, page: 2, private_token: app.rootToken });
    assert.equal(response.status, 200);
    let size = 0;
    response.headers.forEach((value, name) => (size += name.length + value.length + 4));
    assert.ok(size < 8 * 1024, `headers are ${size} bytes`);
    const link = response.headers.get('link')!;
    assert.doesNotMatch(link, /foo=/);
    for (const rel of ['prev', 'next', 'first', 'last']) {
      assert.match(
        link,
        new RegExp(`<[^>]+/api/v3/users\\?page=\\d+&per_page=1&private_token=${app.rootToken}&search=user>; rel="${rel}"`),
      );
    }
    const projects = await app.root.get('/projects', { foo: big, search: 'x', order_by: 'name' });
    assert.equal(projects.status, 200);
    assert.match(projects.headers.get('link')!, /^<[^>]+\/api\/v3\/projects\?order_by=name&page=1&per_page=20&search=x>; rel="first"/);
    // A declared parameter with a value no filter takes (`active` is a flag) is left out too.
    const flagged = await app.root.get('/users', { active: big, per_page: 1 });
    assert.equal(flagged.status, 200);
    assert.doesNotMatch(flagged.headers.get('link')!, /active=/);
  });

  test('an empty page has no next page and an empty X-Next-Page', async () => {
    const response = await app.root.get('/users', { search: 'no-such-user-anywhere' });
    assert.deepEqual(response.body, []);
    assert.equal(response.headers.get('x-total'), '0');
    assert.equal(response.headers.get('x-total-pages'), '0');
    assert.equal(response.headers.get('x-next-page'), '');
  });
});

describe('operability', () => {
  test('health and readiness answer 200', async () => {
    assert.equal((await app.anonymous.get('/-/health')).status, 200);
    const ready = await app.anonymous.get('/-/readiness');
    assert.equal(ready.status, 200);
    assert.equal(ready.body.database, 'ok');
  });

  test('an OpenAPI 3 document is generated from the route schemas', async () => {
    const response = await app.anonymous.get('/api/v3/openapi.json');
    assert.equal(response.status, 200);
    assert.match(response.body.openapi, /^3\./);
    assert.ok(response.body.paths['/api/v3/users']);
    assert.ok(response.body.paths['/api/v3/users/{id}'].put);
    // OpenAPI 3.0 has no `type: [T, "null"]`: a field that may be null says `nullable`.
    const user = response.body.paths['/api/v3/user'].get.responses['200'].content['application/json'].schema;
    assert.deepEqual(user.properties.last_sign_in_at, { type: 'string', format: 'date-time', nullable: true });
  });

  test('the health endpoints are in the OpenAPI document', async () => {
    const { paths } = (await app.anonymous.get('/api/v3/openapi.json')).body;
    assert.ok(paths['/-/health'].get.responses['200']);
    assert.ok(paths['/-/readiness'].get.responses['503']);
  });
});
