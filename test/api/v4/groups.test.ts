import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import type { ApiClient } from '../../support/client';

describe('API v4 groups', () => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let publicGroup: any;
  let privateGroup: any;
  let internalGroup: any;

  before(async () => {
    app = await startApp();
    alice = (await app.createUser({ username: 'alice' })).client.v4();
    bob = (await app.createUser({ username: 'bob' })).client.v4();
    publicGroup = (await alice.post('/groups', { name: 'Zebra Crew', path: 'zebra', visibility: 'public', description: 'stripes' })).body;
    privateGroup = (await alice.post('/groups', { name: 'Alpha Hidden', path: 'alpha' })).body;
    internalGroup = (await alice.post('/groups', { name: 'Middle', path: 'middle', visibility: 'internal' })).body;
  });
  after(async () => app?.close());

  describe('POST /groups', () => {
    it('creates a group and answers it in v4 form', async () => {
      assert.equal(publicGroup.visibility, 'public');
      assert.equal(publicGroup.visibility_level, undefined);
      assert.equal(publicGroup.full_path, 'zebra');
      assert.equal(publicGroup.full_name, 'Zebra Crew');
      assert.equal(publicGroup.parent_id, null);
      assert.equal(publicGroup.description, 'stripes');
      assert.equal(privateGroup.visibility, 'private');
    });

    it('needs a name and a path (400), and a user (401)', async () => {
      const response = await alice.post('/groups', { path: 'nameless' });
      assert.equal(response.status, 400);
      assert.equal((await app.anonymous.v4().post('/groups', { name: 'A', path: 'a' })).status, 401);
      assert.equal((await alice.post('/groups', { name: 'Odd', path: 'odd', visibility: 'everyone' })).status, 400);
    });

    it('refuses a taken path with 400', async () => {
      const response = await alice.post('/groups', { name: 'Zebra again', path: 'zebra' });
      assert.equal(response.status, 400);
    });
  });

  describe('GET /groups', () => {
    it('lists the caller’s groups by name, with pagination headers', async () => {
      const response = await alice.get('/groups');
      assert.equal(response.status, 200);
      assert.deepEqual(
        response.body.map((group: any) => group.path),
        ['alpha', 'middle', 'zebra'],
      );
      assert.equal(response.headers.get('x-total'), '3');
    });

    it('lists nothing of others’ groups to a non-member, and every readable one with all_available', async () => {
      assert.deepEqual((await bob.get('/groups')).body, []);
      const available = await bob.get('/groups', { all_available: true });
      assert.deepEqual(
        available.body.map((group: any) => group.path),
        ['middle', 'zebra'],
      );
    });

    it('lists public groups to anonymous callers', async () => {
      const response = await app.anonymous.v4().get('/groups');
      assert.equal(response.status, 200);
      assert.deepEqual(
        response.body.map((group: any) => group.path),
        ['zebra'],
      );
    });

    it('filters by owned and search, and orders by path descending', async () => {
      const owned = await alice.get('/groups', { owned: true, search: 'zeb' });
      assert.deepEqual(
        owned.body.map((group: any) => group.path),
        ['zebra'],
      );
      const sorted = await alice.get('/groups', { order_by: 'path', sort: 'desc', per_page: 2 });
      assert.deepEqual(
        sorted.body.map((group: any) => group.path),
        ['zebra', 'middle'],
      );
      assert.equal(sorted.headers.get('x-next-page'), '2');
      assert.deepEqual((await bob.get('/groups', { owned: true, all_available: true })).body, []);
    });
  });

  describe('GET /groups/:id', () => {
    it('shows a group with the projects the caller may see, by id or path', async () => {
      const visible = await alice.post('/projects', { name: 'Open', namespace_id: publicGroup.id, visibility: 'public' });
      assert.equal(visible.status, 201);
      const hidden = await alice.post('/projects', { name: 'Closed', namespace_id: publicGroup.id });
      assert.equal(hidden.status, 201);
      const mine = await alice.get('/groups/zebra');
      assert.equal(mine.status, 200);
      assert.equal(mine.body.id, publicGroup.id);
      assert.deepEqual(mine.body.projects.map((project: any) => project.name).sort(), ['Closed', 'Open']);
      assert.equal(mine.body.projects[0].visibility !== undefined, true);
      const anonymous = await app.anonymous.v4().get(`/groups/${publicGroup.id}`);
      assert.equal(anonymous.status, 200);
      assert.deepEqual(
        anonymous.body.projects.map((project: any) => project.name),
        ['Open'],
      );
      assert.deepEqual(anonymous.body.shared_projects, []);
    });

    it('hides a private group with 404 Group Not Found', async () => {
      const response = await bob.get(`/groups/${privateGroup.id}`);
      assert.equal(response.status, 404);
      assert.deepEqual(response.body, { message: '404 Group Not Found' });
      assert.equal((await app.anonymous.v4().get('/groups/middle')).status, 404);
    });
  });

  describe('GET /groups/:id/projects', () => {
    it('lists the group’s projects with v4 filters and pagination headers', async () => {
      const response = await app.anonymous.v4().get('/groups/zebra/projects');
      assert.equal(response.status, 200);
      assert.deepEqual(
        response.body.map((project: any) => project.name),
        ['Open'],
      );
      assert.equal(response.headers.get('x-total'), '1');
      const privateOnly = await alice.get('/groups/zebra/projects', { visibility: 'private', simple: true });
      assert.deepEqual(
        privateOnly.body.map((project: any) => project.name),
        ['Closed'],
      );
      assert.equal(privateOnly.body[0].visibility, undefined);
      const byName = await alice.get('/groups/zebra/projects', { order_by: 'name', sort: 'asc' });
      assert.deepEqual(
        byName.body.map((project: any) => project.name),
        ['Closed', 'Open'],
      );
    });
  });

  describe('PUT /groups/:id', () => {
    it('changes a group in v4 words, for its owner only', async () => {
      const response = await alice.put(`/groups/${internalGroup.id}`, { description: 'in between', visibility: 'public' });
      assert.equal(response.status, 200);
      assert.equal(response.body.visibility, 'public');
      assert.equal(response.body.description, 'in between');
      assert.deepEqual(response.body.projects, []);
      assert.equal((await bob.put(`/groups/${internalGroup.id}`, { description: 'mine' })).status, 403);
      assert.equal((await bob.put(`/groups/${privateGroup.id}`, { description: 'mine' })).status, 404);
    });
  });

  describe('POST /groups/:id/projects/:project_id', () => {
    it('lets an administrator move a project into a group', async () => {
      const project = (await bob.post('/projects', { name: 'Mover' })).body;
      assert.equal((await bob.post(`/groups/${publicGroup.id}/projects/${project.id}`)).status, 403);
      const response = await app.root.v4().post(`/groups/${publicGroup.id}/projects/${project.id}`);
      assert.equal(response.status, 201);
      assert.equal(response.body.path, 'zebra');
      const moved = await app.root.v4().get(`/projects/${project.id}`);
      assert.equal(moved.body.path_with_namespace, 'zebra/mover');
      assert.equal((await app.root.v4().post(`/groups/${publicGroup.id}/projects/999999`)).status, 404);
    });
  });

  describe('DELETE /groups/:id', () => {
    it('answers 202 Accepted to the owner, 403 to others', async () => {
      const doomed = (await alice.post('/groups', { name: 'Doomed', path: 'doomed', visibility: 'public' })).body;
      assert.equal((await bob.delete(`/groups/${doomed.id}`)).status, 403);
      const response = await alice.delete(`/groups/${doomed.id}`);
      assert.equal(response.status, 202);
      assert.deepEqual(response.body, { message: '202 Accepted' });
      assert.equal((await alice.get(`/groups/${doomed.id}`)).status, 404);
    });
  });
});
