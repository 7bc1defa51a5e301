import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { createRootProject } from '../support/repo';
import { LIMITS } from '../../src/lib/limits';

let app: TestApp;
let projectId: number;

before(async () => {
  app = await startApp();
  projectId = (await createRootProject(app, 'bad-input')).id;
});
after(() => app.close());

const MALFORMED = { message: '400 (Bad request) the multipart body is malformed' };
const TOO_LARGE = { message: '413 Request Entity Too Large' };
const part = (name: string, value: string) => `--x\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;

describe('a multipart/form-data body', () => {
  const post = (body: string, contentType: string) =>
    app.root.raw('POST', '/api/v3/projects', { body, headers: { 'content-type': contentType } });

  test('without a boundary is a bad request', async () => {
    const response = await post(`${part('name', 'x')}--x--\r\n`, 'multipart/form-data');
    assert.deepEqual([response.status, response.body], [400, MALFORMED]);
  });

  test('cut short inside a part is a bad request', async () => {
    const response = await post('--x\r\ncontent-disposition: form-data; name="name"\r\n\r\nab', 'multipart/form-data; boundary=x');
    assert.deepEqual([response.status, response.body], [400, MALFORMED]);
  });

  test('whose boundary never closes is a bad request', async () => {
    const response = await post(part('name', 'x'), 'multipart/form-data; boundary=x');
    assert.deepEqual([response.status, response.body], [400, MALFORMED]);
  });

  test('that is well formed is read as parameters, repeated keys as arrays', async () => {
    const response = await post(
      `${part('name', 'multi-ok')}${part('tag_list[]', 'a')}${part('tag_list[]', 'b')}--x--\r\n`,
      'multipart/form-data; boundary=x',
    );
    assert.equal(response.status, 201, JSON.stringify(response.body));
    assert.equal(response.body.name, 'multi-ok');
  });

  test('whose fields together pass the API body limit is too large', async () => {
    const half = 'd'.repeat(LIMITS.apiBodyBytes / 2 + 1);
    const response = await post(
      `${part('name', 'halves')}${part('description', half)}${part('import_url', half)}--x--\r\n`,
      'multipart/form-data; boundary=x',
    );
    assert.deepEqual([response.status, response.body], [413, TOO_LARGE]);
  });

  test('with a field past the API body limit is too large', async () => {
    const response = await post(`${part('description', 'd'.repeat(LIMITS.apiBodyBytes + 1))}--x--\r\n`, 'multipart/form-data; boundary=x');
    assert.deepEqual([response.status, response.body], [413, TOO_LARGE]);
  });
});

describe('an API body', () => {
  test(`past ${LIMITS.apiBodyBytes} bytes is too large, in GitLab's error shape`, async () => {
    const response = await app.root.post('/projects', { name: 'big', description: 'd'.repeat(LIMITS.apiBodyBytes) });
    assert.deepEqual([response.status, response.body], [413, TOO_LARGE]);
    const form = await app.root.form('POST', '/projects', { name: 'big', description: 'd'.repeat(LIMITS.apiBodyBytes) });
    assert.deepEqual([form.status, form.body], [413, TOO_LARGE]);
  });
});

describe('page and per_page', () => {
  const NONSENSE = ['9223372036854775808', '1e308', '-1', '0', 'abc', '99999999999999999999'];

  test('a page past any list is an empty page, nonsense the default; never an error (offset-paged lists)', async () => {
    for (const path of [
      '/projects',
      '/projects/all',
      '/users',
      '/groups',
      '/namespaces',
      `/projects/${projectId}/members`,
      `/projects/${projectId}/hooks`,
    ]) {
      for (const page of ['9223372036854775808', '1e308', '99999999999999999999']) {
        const response = await app.root.get(path, { page });
        assert.deepEqual([path, page, response.status, response.body], [path, page, 200, []]);
        assert.equal(response.headers.get('x-page'), String(LIMITS.page), path);
      }
      for (const value of NONSENSE) {
        const page = await app.root.get(path, { page: value === '9223372036854775808' || value === '1e308' ? '-1' : value });
        assert.equal(page.status, 200, `${path} page=${value}`);
        const perPage = await app.root.get(path, { per_page: value });
        assert.equal(perPage.status, 200, `${path} per_page=${value}`);
        assert.ok(Number(perPage.headers.get('x-per-page')) <= LIMITS.perPage);
      }
    }
  });

  test('the commits list (paged from 0 by git) answers an empty page past its history, nonsense the defaults', async () => {
    const commits = `/projects/${projectId}/repository/commits`;
    for (const page of ['9223372036854775808', '99999999999999999999', String(LIMITS.page * 10)]) {
      const response = await app.root.get(commits, { page });
      assert.deepEqual([page, response.status, response.body], [page, 200, []]);
    }
    for (const value of NONSENSE) {
      const response = await app.root.get(commits, { per_page: value, page: value });
      assert.equal(response.status, 200, `per_page=page=${value}`);
    }
  });
});

describe('a path', () => {
  test('naming a project by a long namespace%2Fpath reaches it', async () => {
    const project = await app.root.post('/projects', { name: 'p'.repeat(LIMITS.name) });
    assert.equal(project.status, 201);
    const response = await app.root.get(`/projects/root%2F${project.body.path}`);
    assert.deepEqual([response.status, response.body.id], [200, project.body.id]);
  });

  test('with a parameter too long to name anything matches no route', async () => {
    const response = await app.root.get(`/projects/${projectId}/repository/commits/${'d'.repeat(LIMITS.pathParam + 1)}`);
    assert.deepEqual([response.status, response.body], [404, { message: '404 Not Found' }]);
  });

  test('with a malformed percent-encoding is a bad request', async () => {
    const response = await app.root.get('/projects/%zz');
    assert.deepEqual([response.status, response.body], [400, { message: '400 (Bad request) the URL is malformed' }]);
  });
});

describe('a NUL byte', () => {
  // PostgreSQL cannot store one and answered 500; git refuses them in messages.
  test('in a path parameter names nothing: 404, before any look-up', async () => {
    for (const path of [
      '/groups/%00',
      '/groups/%00/members',
      '/projects/root%2Fbad%00',
      '/projects/search/%00',
      `/projects/${projectId}/variables/%00`,
    ]) {
      const response = await app.root.get(path);
      assert.deepEqual([response.status, response.body], [404, { message: '404 Not Found' }], path);
    }
  });

  test('in a query or body parameter is an invalid parameter: 400', async () => {
    const search = await app.root.get('/users', { search: 'a\u0000' });
    assert.deepEqual([search.status, search.body], [400, { message: '400 (Bad request) "search" is invalid' }]);
    const description = await app.root.put(`/projects/${projectId}`, { description: 'a\u0000b' });
    assert.deepEqual([description.status, description.body], [400, { message: '400 (Bad request) "description" is invalid' }]);
    const nested = await app.root.put(`/projects/${projectId}`, { description: { 'a\u0000': 'x' } });
    assert.deepEqual([nested.status, nested.body], [400, { message: '400 (Bad request) "description" is invalid' }]);
    assert.equal((await app.root.get(`/projects/${projectId}`)).body.description, null);
  });
});

describe('a record id in a path', () => {
  test('past a 32-bit integer (1e308, 2^31) names nothing: 404', async () => {
    // A group that exists: the group's own look-up comes first (404 Group Not Found for an unknown one).
    const group = await app.root.post('/groups', { name: 'record-ids', path: 'record-ids' });
    assert.equal(group.status, 201);
    const paths = [
      '/hooks/1e308',
      '/hooks/2147483648',
      '/broadcast_messages/1e308',
      `/projects/${projectId}/members/1e308`,
      `/groups/${group.body.id}/access_requests/1e308/approve`,
    ];
    for (const path of paths) {
      const response = path.endsWith('approve') ? await app.root.put(path) : await app.root.get(path);
      assert.deepEqual([response.status, response.body], [404, { message: '404 Not Found' }], path);
    }
  });
});
