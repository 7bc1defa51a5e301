import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import type { ApiClient } from '../../support/client';

describe('API v4 events', () => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let open: any;
  let hidden: any;

  before(async () => {
    app = await startApp();
    const a = await app.createUser({ username: 'alice' });
    alice = a.client.v4();
    bob = (await app.createUser({ username: 'bob' })).client.v4();
    open = (await alice.post('/projects', { name: 'Open', visibility: 'public' })).body;
    hidden = (await alice.post('/projects', { name: 'Hidden' })).body;
    // Issues through v3: what matters here is the events they record.
    assert.equal((await a.client.post(`/projects/${open.id}/issues`, { title: 'Plain issue' })).status, 201);
    assert.equal((await a.client.post(`/projects/${open.id}/issues`, { title: 'Quiet issue', confidential: true })).status, 201);
    assert.equal((await a.client.post(`/projects/${hidden.id}/issues`, { title: 'Hidden issue' })).status, 201);
  });
  after(async () => app?.close());

  describe('GET /users/:id/events', () => {
    it('shows another user’s events only where the caller may see them', async () => {
      const response = await bob.get('/users/alice/events');
      assert.equal(response.status, 200);
      const seen = response.body.map((event: any) => `${event.project_id} ${event.action_name} ${event.target_title}`);
      assert.deepEqual(seen, [`${open.id} opened Plain issue`, `${open.id} created null`]);
      assert.equal(response.headers.get('x-total'), '2');
      assert.equal(response.body[0].author.username, 'alice');
    });

    it('filters by target type and sorts oldest first when asked', async () => {
      const issues = await bob.get('/users/alice/events', { target_type: 'issue' });
      assert.deepEqual(
        issues.body.map((event: any) => event.target_title),
        ['Plain issue'],
      );
      const oldest = await bob.get('/users/alice/events', { sort: 'asc' });
      assert.equal(oldest.body[0].action_name, 'created');
      assert.equal((await bob.get('/users/alice/events', { target_type: 'wiki' })).status, 400);
    });

    it('answers 404 for an unknown user and 401 to anonymous callers', async () => {
      assert.equal((await bob.get('/users/nobody/events')).status, 404);
      assert.equal((await app.anonymous.v4().get('/users/alice/events')).status, 401);
    });

    it('shows an administrator everything', async () => {
      const response = await app.root.v4().get('/users/alice/events');
      assert.equal(response.body.length, 5);
    });
  });

  describe('GET /events', () => {
    it('lists the caller’s own events, confidential and private ones included', async () => {
      const response = await alice.get('/events', { per_page: 2 });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('x-total'), '5');
      assert.deepEqual(
        response.body.map((event: any) => event.target_title),
        ['Hidden issue', 'Quiet issue'],
      );
      assert.deepEqual((await bob.get('/events')).body, []);
    });
  });
});
