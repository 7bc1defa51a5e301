import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createProject } from '../../support/create';
import { HookListener } from '../../support/hook-listener';
import type { ApiClient } from '../../support/client';
import { createProjectWorld } from '../../support/project-world';
import { emitProjectEvents } from '../../../src/services/hooks/project-events';

let app: TestApp;
let owner: ApiClient;
let master: ApiClient;
let outsider: ApiClient;
let lesser: Array<{ role: string; client: ApiClient }>;
let projectId: number;
let otherProjectId: number;

// Hooks created here point at a closed port: nothing in this file emits events to
// them except the delivery test, which uses its own project and listener.
const URL_A = 'http://127.0.0.1:9/hook-a';
const URL_B = 'https://127.0.0.1:9/hook-b';

const newProject = async (name: string): Promise<number> => (await createProject(owner, { name })).id;

before(async () => {
  app = await startApp();
  const world = await createProjectWorld(app, { name: 'hooked' });
  owner = world.owner.client;
  projectId = world.id;
  otherProjectId = await newProject('other hooked');
  master = world.master.client;
  lesser = (['developer', 'reporter', 'guest'] as const).map((role) => ({ role, client: world[role].client }));
  outsider = world.stranger.client;
});
after(() => app.close());

const base = (id = projectId) => `/projects/${id}/hooks`;

async function createHook(body: Record<string, unknown> = { url: URL_A }, id = projectId) {
  const response = await owner.post(base(id), body);
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return response.body;
}

const FIELDS = [
  'build_events',
  'created_at',
  'enable_ssl_verification',
  'id',
  'issues_events',
  'merge_requests_events',
  'note_events',
  'pipeline_events',
  'project_id',
  'push_events',
  'tag_push_events',
  'url',
  'wiki_page_events',
];
const EVENT_FLAGS = [
  'push_events',
  'issues_events',
  'merge_requests_events',
  'tag_push_events',
  'note_events',
  'build_events',
  'pipeline_events',
  'wiki_page_events',
];
const allFlags = (on: boolean) => Object.fromEntries([...EVENT_FLAGS, 'enable_ssl_verification'].map((flag) => [flag, on]));

const unauthorized = { message: '401 Unauthorized' };
const forbidden = { message: '403 Forbidden' };
const projectNotFound = { message: '404 Project Not Found' };
const notFound = { message: '404 Not found' };

/** Every route answers the same to callers who may not manage the project's hooks. */
function accessRules(call: (client: ApiClient, hookId: number) => Promise<{ status: number; body: any }>) {
  test('an anonymous caller gets 401', async () => {
    const hook = await createHook();
    const response = await call(app.anonymous, hook.id);
    assert.equal(response.status, 401);
    assert.deepEqual(response.body, unauthorized);
  });

  test('a user who cannot see the project gets 404 Project Not Found', async () => {
    const hook = await createHook();
    const response = await call(outsider, hook.id);
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, projectNotFound);
  });

  test('developers, reporters and guests get 403 Forbidden', async () => {
    const hook = await createHook();
    for (const { role, client } of lesser) {
      const response = await call(client, hook.id);
      assert.equal(response.status, 403, role);
      assert.deepEqual(response.body, forbidden, role);
    }
    assert.deepEqual((await master.get(`${base()}/${hook.id}`)).body, hook);
  });
}

describe('GET /projects/:id/hooks', () => {
  accessRules((client) => client.get(base()));

  test('a master gets the project hooks with every event flag, oldest first, never the token', async () => {
    const id = await newProject('listing hooks');
    const first = await createHook({ url: URL_A, ...allFlags(true), token: 'secret' }, id);
    const second = await createHook({ url: URL_B }, id);
    const response = await owner.get(base(id));
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, [first, second]);
    assert.deepEqual(Object.keys(response.body[0]).sort(), FIELDS);
    assert.deepEqual(
      { ...response.body[0], id: 0, created_at: '' },
      { id: 0, created_at: '', url: URL_A, project_id: id, ...allFlags(true) },
    );
  });

  test('the list is paginated', async () => {
    const id = await newProject('paging hooks');
    for (let n = 0; n < 3; n++) await createHook({ url: `${URL_A}/${n}` }, id);
    const response = await owner.get(base(id), { per_page: 2 });
    assert.deepEqual(
      response.body.map((hook: any) => hook.url),
      [`${URL_A}/0`, `${URL_A}/1`],
    );
    assert.equal(response.headers.get('x-total'), '3');
    assert.equal(response.headers.get('x-total-pages'), '2');
    assert.equal(response.headers.get('x-next-page'), '2');
  });

  test("system hooks and other projects' hooks are not listed", async () => {
    const id = await newProject('only own hooks');
    const own = await createHook({ url: URL_A }, id);
    await createHook({ url: URL_B }, otherProjectId);
    const system = await app.root.post('/hooks', { url: URL_B });
    assert.equal(system.status, 201);
    assert.deepEqual((await owner.get(base(id))).body, [own]);
    await app.root.delete(`/hooks/${system.body[0].id}`);
  });

  test("an administrator may manage any project's hooks", async () => {
    assert.equal((await app.root.get(base())).status, 200);
  });
});

describe('GET /projects/:id/hooks/:hook_id', () => {
  accessRules((client, hookId) => client.get(`${base()}/${hookId}`));

  test('answers the hook', async () => {
    const hook = await createHook({ url: URL_A, note_events: true });
    const response = await master.get(`${base()}/${hook.id}`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, hook);
    assert.equal(response.body.note_events, true);
  });

  test("an unknown hook, another project's hook or a non-numeric id is 404 Not found", async () => {
    const foreign = await createHook({ url: URL_A }, otherProjectId);
    for (const hookId of ['999999', String(foreign.id), 'abc', '99999999999999999999']) {
      const response = await master.get(`${base()}/${hookId}`);
      assert.equal(response.status, 404, hookId);
      assert.deepEqual(response.body, notFound, hookId);
    }
  });
});

describe('POST /projects/:id/hooks', () => {
  accessRules((client) => client.post(base(), { url: URL_A }));

  test('rights are checked before parameters: no url still answers 401, 404 and 403', async () => {
    assert.deepEqual((await app.anonymous.post(base())).body, unauthorized);
    assert.deepEqual((await outsider.post(base())).body, projectNotFound);
    const response = await lesser[0].client.post(base());
    assert.equal(response.status, 403);
    assert.deepEqual(response.body, forbidden);
  });

  test('creates a hook: 201, push events and certificate checks on by default, the rest off', async () => {
    const response = await master.post(base(), { url: URL_A, issues_events: true });
    assert.equal(response.status, 201);
    assert.deepEqual(Object.keys(response.body).sort(), FIELDS);
    assert.equal(response.body.url, URL_A);
    assert.equal(response.body.project_id, projectId);
    assert.match(response.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(Object.fromEntries([...EVENT_FLAGS, 'enable_ssl_verification'].map((flag) => [flag, response.body[flag]])), {
      ...allFlags(false),
      push_events: true,
      issues_events: true,
      enable_ssl_verification: true,
    });
  });

  test('every flag may be set, as JSON booleans or as form strings', async () => {
    const on = await master.post(base(), { url: URL_A, ...allFlags(true) });
    assert.deepEqual(
      { ...on.body, id: 0, created_at: '' },
      { id: 0, created_at: '', url: URL_A, project_id: projectId, ...allFlags(true) },
    );
    const off = await master.form('POST', base(), {
      url: URL_B,
      ...Object.fromEntries(Object.keys(allFlags(false)).map((flag) => [flag, 'false'])),
    });
    assert.equal(off.status, 201);
    assert.deepEqual(
      { ...off.body, id: 0, created_at: '' },
      { id: 0, created_at: '', url: URL_B, project_id: projectId, ...allFlags(false) },
    );
  });

  test('a flag that is not a boolean answers 400', async () => {
    const response = await master.post(base(), { url: URL_A, push_events: 'maybe' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: '400 (Bad request) "push_events" is invalid' });
  });

  test('the token is stored but never shown', async () => {
    const response = await master.post(base(), { url: URL_A, token: 'T0ken' });
    assert.equal(response.status, 201);
    assert.equal('token' in response.body, false);
    const row = await app.ctx.db.selectFrom('hooks').select('token').where('id', '=', response.body.id).executeTakeFirstOrThrow();
    assert.equal(row.token, 'T0ken');
  });

  test('url is required: missing or blank answers 400 and creates nothing', async () => {
    const id = await newProject('no url');
    for (const body of [{}, { url: '' }, { url: '   ' }, { push_events: true }]) {
      const response = await owner.post(base(id), body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.deepEqual(response.body, { message: '400 (Bad request) "url" not given' }, JSON.stringify(body));
    }
    assert.deepEqual((await owner.get(base(id))).body, []);
  });

  test('a url that is not http(s) with a host answers 422 "Invalid url given" and creates nothing', async () => {
    const id = await newProject('bad url');
    for (const url of ['ftp://example.com/hook', 'not a url', 'http://', 'javascript:alert(1)']) {
      const response = await owner.post(base(id), { url });
      assert.equal(response.status, 422, url);
      assert.deepEqual(response.body, { error: 'Invalid url given' }, url);
    }
    assert.deepEqual((await owner.get(base(id))).body, []);
  });

  test('the url is stored without surrounding spaces', async () => {
    const response = await master.post(base(), { url: `  ${URL_A}  ` });
    assert.equal(response.status, 201);
    assert.equal(response.body.url, URL_A);
  });
});

describe('PUT /projects/:id/hooks/:hook_id', () => {
  accessRules((client, hookId) => client.put(`${base()}/${hookId}`, { url: URL_B }));

  test('rights are checked before parameters: no url still answers 403 to a developer', async () => {
    const hook = await createHook();
    const response = await lesser[0].client.put(`${base()}/${hook.id}`);
    assert.equal(response.status, 403);
    assert.deepEqual(response.body, forbidden);
  });

  test('updates the url and the given flags: 200 with the hook; flags not given keep their values', async () => {
    const hook = await createHook({ url: URL_A, note_events: true });
    const response = await master.put(`${base()}/${hook.id}`, { url: URL_B, push_events: false });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { ...hook, url: URL_B, push_events: false });
    assert.deepEqual((await master.get(`${base()}/${hook.id}`)).body, response.body);
  });

  test('the token may be replaced, kept (not given) or removed (empty)', async () => {
    const hook = await createHook({ url: URL_A, token: 'first' });
    const tokenOf = async () =>
      (await app.ctx.db.selectFrom('hooks').select('token').where('id', '=', hook.id).executeTakeFirstOrThrow()).token;
    const replaced = await master.put(`${base()}/${hook.id}`, { url: URL_A, token: 'second' });
    assert.equal('token' in replaced.body, false);
    assert.equal(await tokenOf(), 'second');
    await master.put(`${base()}/${hook.id}`, { url: URL_A });
    assert.equal(await tokenOf(), 'second');
    await master.put(`${base()}/${hook.id}`, { url: URL_A, token: '' });
    assert.equal(await tokenOf(), null);
  });

  test("an unknown hook or another project's hook is 404 Not found and changes nothing", async () => {
    const foreign = await createHook({ url: URL_A }, otherProjectId);
    for (const hookId of ['999999', String(foreign.id), 'abc']) {
      const response = await master.put(`${base()}/${hookId}`, { url: URL_B });
      assert.equal(response.status, 404, hookId);
      assert.deepEqual(response.body, notFound, hookId);
    }
    assert.equal((await owner.get(`${base(otherProjectId)}/${foreign.id}`)).body.url, URL_A);
  });

  test('url is required', async () => {
    const hook = await createHook();
    for (const body of [{}, { url: '' }, { push_events: false }]) {
      const response = await master.put(`${base()}/${hook.id}`, body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.deepEqual(response.body, { message: '400 (Bad request) "url" not given' });
    }
    assert.deepEqual((await master.get(`${base()}/${hook.id}`)).body, hook);
  });

  test('a url that is not http(s) answers 422 "Invalid url given" and changes nothing', async () => {
    const hook = await createHook();
    const response = await master.put(`${base()}/${hook.id}`, { url: 'ftp://example.com/hook', push_events: false });
    assert.equal(response.status, 422);
    assert.deepEqual(response.body, { error: 'Invalid url given' });
    assert.deepEqual((await master.get(`${base()}/${hook.id}`)).body, hook);
  });
});

describe('DELETE /projects/:id/hooks/:hook_id', () => {
  accessRules((client, hookId) => client.delete(`${base()}/${hookId}`));

  test('removes the hook: 200 with the removed hook', async () => {
    const hook = await createHook({ url: URL_A, token: 'gone' });
    const response = await master.delete(`${base()}/${hook.id}`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, hook);
    assert.deepEqual((await master.get(`${base()}/${hook.id}`)).body, notFound);
  });

  test('an unknown hook is 404 "Error deleting hook <id>"', async () => {
    for (const hookId of ['999999', 'abc']) {
      const response = await master.delete(`${base()}/${hookId}`);
      assert.equal(response.status, 404, hookId);
      assert.deepEqual(response.body, { message: `404 Error deleting hook ${hookId} Not Found` });
    }
  });

  test("another project's hook is 404 and is not deleted", async () => {
    const foreign = await createHook({ url: URL_A }, otherProjectId);
    const response = await master.delete(`${base()}/${foreign.id}`);
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: `404 Error deleting hook ${foreign.id} Not Found` });
    assert.deepEqual((await owner.get(`${base(otherProjectId)}/${foreign.id}`)).body, foreign);
  });

  test('DELETE /projects/:id/hooks (no hook id) is 405', async () => {
    const response = await master.delete(base());
    assert.equal(response.status, 405);
    assert.deepEqual(response.body, { error: '405 Not Allowed' });
    assert.ok(response.headers.get('allow')?.includes('POST'));
  });
});

describe('project hook deliveries', () => {
  test("a hook with the event's flag on receives the payload with X-Gitlab-Event and X-Gitlab-Token", async () => {
    const listener = await HookListener.start();
    try {
      const id = await newProject('delivered');
      const pushHook = await createHook({ url: `${listener.url}?push`, token: 's3cret' }, id);
      const quietHook = await createHook({ url: `${listener.url}?quiet`, push_events: false, issues_events: true }, id);
      const foreignHook = await createHook({ url: `${listener.url}?foreign` }, otherProjectId);
      const payload = { object_kind: 'push', ref: 'refs/heads/master', project_id: id };

      const { ctx } = app;
      await ctx.db.transaction().execute(async (trx) => {
        await emitProjectEvents(ctx, trx, id, 'push_events', 'Push Hook', [payload]);
        // Inside the transaction, before any worker can see them: one job, for the push hook only.
        const jobs = await trx.selectFrom('jobs').select('payload').where('kind', '=', 'hook.deliver').execute();
        const queued = jobs
          .map((job) => JSON.parse(job.payload))
          .filter((job) => [pushHook.id, quietHook.id, foreignHook.id].includes(job.hookId));
        assert.deepEqual(queued, [{ hookId: pushHook.id, event: 'Push Hook', payload }]);
      });

      const received = await listener.waitFor((request) => request.url === '/hook?push');
      assert.equal(received.method, 'POST');
      assert.equal(received.headers['x-gitlab-event'], 'Push Hook');
      assert.equal(received.headers['x-gitlab-token'], 's3cret');
      assert.equal(received.headers['content-type'], 'application/json');
      assert.deepEqual(received.body, payload);
    } finally {
      await listener.close();
    }
  });

  test('a hook without a token gets no X-Gitlab-Token header', async () => {
    const listener = await HookListener.start();
    try {
      const id = await newProject('delivered without token');
      await createHook({ url: listener.url, tag_push_events: true }, id);
      const { ctx } = app;
      await emitProjectEvents(ctx, ctx.db, id, 'tag_push_events', 'Tag Push Hook', [{ object_kind: 'tag_push' }]);
      const received = await listener.waitFor(() => true);
      assert.equal(received.headers['x-gitlab-event'], 'Tag Push Hook');
      assert.equal(received.headers['x-gitlab-token'], undefined);
      assert.deepEqual(received.body, { object_kind: 'tag_push' });
    } finally {
      await listener.close();
    }
  });
});
