import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { HookListener } from '../../support/hook-listener';
import type { ApiClient } from '../../support/client';

// Every hook in this file points at a local listener: creating users fires events to all of them.
let app: TestApp;
let listener: HookListener;
let user: ApiClient;

before(async () => {
  app = await startApp();
  listener = await HookListener.start();
  user = (await app.createUser()).client;
});
after(async () => {
  await app.close();
  await listener.close();
});

async function createHook(url = listener.url) {
  const response = await app.root.post('/hooks', { url });
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return response.body[0];
}

const unauthorized = { message: '401 Unauthorized' };
const forbidden = { message: '403 Forbidden' };

describe('GET /hooks', () => {
  test('an anonymous caller gets 401', async () => {
    const response = await app.anonymous.get('/hooks');
    assert.equal(response.status, 401);
    assert.deepEqual(response.body, unauthorized);
  });

  test('a normal user gets 403', async () => {
    const response = await user.get('/hooks');
    assert.equal(response.status, 403);
    assert.deepEqual(response.body, forbidden);
  });

  test('an administrator gets the array of system hooks with id, url and created_at', async () => {
    const hook = await createHook();
    const response = await app.root.get('/hooks');
    assert.equal(response.status, 200);
    const listed = response.body.find((item: any) => item.id === hook.id);
    assert.deepEqual(Object.keys(listed).sort(), ['created_at', 'id', 'url']);
    assert.deepEqual(listed, hook);
    assert.match(listed.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});

describe('POST /hooks', () => {
  test('an anonymous caller gets 401 and a normal user 403', async () => {
    const anonymous = await app.anonymous.post('/hooks', { url: listener.url });
    const normal = await user.post('/hooks', { url: listener.url });
    assert.equal(anonymous.status, 401);
    assert.deepEqual(anonymous.body, unauthorized);
    assert.equal(normal.status, 403);
    assert.deepEqual(normal.body, forbidden);
  });

  test('the created hook is shown as a one-element array', async () => {
    const response = await app.root.post('/hooks', { url: listener.url });
    assert.equal(response.status, 201);
    assert.ok(Array.isArray(response.body));
    assert.equal(response.body.length, 1);
    const [hook] = response.body;
    assert.deepEqual(Object.keys(hook).sort(), ['created_at', 'id', 'url']);
    assert.equal(hook.url, listener.url);
    const listed = await app.root.get('/hooks');
    assert.ok(listed.body.some((item: any) => item.id === hook.id));
  });

  test('the url may come as a form, as node-gitlab sends it', async () => {
    const response = await app.root.form('POST', '/hooks', { url: listener.url });
    assert.equal(response.status, 201);
    assert.equal(response.body[0].url, listener.url);
  });

  test('url is required: missing or blank answers 400 and creates nothing', async () => {
    const before = (await app.root.get('/hooks')).body.length;
    for (const body of [{}, { url: '' }, { url: '  ' }]) {
      const response = await app.root.post('/hooks', body);
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, { message: '400 (Bad request) "url" not given' });
    }
    assert.equal((await app.root.get('/hooks')).body.length, before);
  });

  // GitLab 8.12 answers these with a bare 404 (a bug); ours names the field.
  test('a url that is not http or https with a host answers 400 "must be a valid URL"', async () => {
    const before = (await app.root.get('/hooks')).body.length;
    for (const url of ['not a url', 'ftp://127.0.0.1/hook', 'http://', 'http:/path', 'javascript:alert(1)', '127.0.0.1:8080/hook']) {
      const response = await app.root.post('/hooks', { url });
      assert.equal(response.status, 400, url);
      assert.deepEqual(response.body, { message: { url: ['must be a valid URL'] } }, url);
    }
    assert.equal((await app.root.get('/hooks')).body.length, before);
  });
});

describe('GET /hooks/:id', () => {
  const testEvent = {
    event_name: 'project_create',
    name: 'Ruby',
    path: 'ruby',
    project_id: 1,
    owner_name: 'Someone',
    owner_email: 'example@gitlabhq.com',
  };

  test('an anonymous caller gets 401 and a normal user 403', async () => {
    const hook = await createHook();
    const anonymous = await app.anonymous.get(`/hooks/${hook.id}`);
    const normal = await user.get(`/hooks/${hook.id}`);
    assert.equal(anonymous.status, 401);
    assert.deepEqual(anonymous.body, unauthorized);
    assert.equal(normal.status, 403);
    assert.deepEqual(normal.body, forbidden);
  });

  test('answers the hook test result and fires it at the hook', async () => {
    const own = await HookListener.start();
    try {
      const hook = await createHook(own.url);
      const response = await app.root.get(`/hooks/${hook.id}`);
      assert.equal(response.status, 200);
      assert.deepEqual(response.body, testEvent);
      const received = await own.waitFor((request) => request.body.event_name === 'project_create');
      assert.deepEqual(received.body, testEvent);
      assert.equal(received.headers['x-gitlab-event'], 'System Hook');
      await app.root.delete(`/hooks/${hook.id}`);
    } finally {
      await own.close();
    }
  });

  test('an unknown hook answers 404 Not found', async () => {
    const response = await app.root.get('/hooks/999999');
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 Not found' });
  });
});

describe('DELETE /hooks/:id', () => {
  test('an anonymous caller gets 401 and a normal user 403, and the hook stays', async () => {
    const hook = await createHook();
    const anonymous = await app.anonymous.delete(`/hooks/${hook.id}`);
    const normal = await user.delete(`/hooks/${hook.id}`);
    assert.equal(anonymous.status, 401);
    assert.deepEqual(anonymous.body, unauthorized);
    assert.equal(normal.status, 403);
    assert.deepEqual(normal.body, forbidden);
    assert.ok((await app.root.get('/hooks')).body.some((item: any) => item.id === hook.id));
  });

  test('answers 200 with the full hook and removes it', async () => {
    const hook = await createHook();
    const response = await app.root.delete(`/hooks/${hook.id}`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, {
      id: hook.id,
      url: listener.url,
      created_at: hook.created_at,
      updated_at: hook.created_at,
      project_id: null,
      service_id: null,
      enable_ssl_verification: true,
      push_events: true,
      tag_push_events: false,
      issues_events: false,
      merge_requests_events: false,
      note_events: false,
    });
    assert.ok(!(await app.root.get('/hooks')).body.some((item: any) => item.id === hook.id));
    assert.equal((await app.root.get(`/hooks/${hook.id}`)).status, 404);
  });

  test('is idempotent: 200 even when the hook is unknown', async () => {
    const response = await app.root.delete('/hooks/999999');
    assert.equal(response.status, 200);
  });
});
