import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import type { ApiClient } from '../../support/client';

describe('API v4 members and access requests', () => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let carol: ApiClient;
  let bobId: number;
  let carolId: number;
  let project: any;
  let group: any;

  before(async () => {
    app = await startApp();
    alice = (await app.createUser({ username: 'alice' })).client.v4();
    const b = await app.createUser({ username: 'bob' });
    bob = b.client.v4();
    bobId = b.user.id;
    const c = await app.createUser({ username: 'carol' });
    carol = c.client.v4();
    carolId = c.user.id;
    project = (await alice.post('/projects', { name: 'Shared', visibility: 'internal' })).body;
    group = (await alice.post('/groups', { name: 'Crew', path: 'crew', visibility: 'internal' })).body;
  });
  after(async () => app?.close());

  for (const kind of ['projects', 'groups'] as const) {
    const source = () => (kind === 'projects' ? project : group);

    describe(`/${kind}/:id/members`, () => {
      it('adds a member with 201, and answers 409 for one who exists', async () => {
        const added = await alice.post(`/${kind}/${source().id}/members`, { user_id: bobId, access_level: 30 });
        assert.equal(added.status, 201);
        assert.equal(added.body.username, 'bob');
        assert.equal(added.body.access_level, 30);
        assert.equal(added.body.web_url, `${app.url.replace('127.0.0.1', 'localhost')}/bob`);
        const again = await alice.post(`/${kind}/${source().id}/members`, { user_id: bobId, access_level: 30 });
        assert.equal(again.status, 409);
        assert.deepEqual(again.body, { message: 'Member already exists' });
      });

      it('refuses missing or invalid parameters with 400, and a non-master with 403', async () => {
        const missing = await alice.post(`/${kind}/${source().id}/members`, { user_id: carolId });
        assert.equal(missing.status, 400);
        assert.deepEqual(missing.body, { error: 'access_level is missing' });
        const unknown = await alice.post(`/${kind}/${source().id}/members`, { user_id: carolId, access_level: 12 });
        assert.equal(unknown.status, 400);
        assert.deepEqual(unknown.body, { error: 'access_level is invalid' });
        assert.equal((await bob.post(`/${kind}/${source().id}/members`, { user_id: carolId, access_level: 30 })).status, 403);
      });

      it('lists members with pagination headers, and finds one', async () => {
        const list = await alice.get(`/${kind}/${source().id}/members`);
        assert.equal(list.status, 200);
        assert.deepEqual(list.body.map((member: any) => member.username).sort(), ['alice', 'bob']);
        assert.equal(list.headers.get('x-total'), '2');
        const searched = await alice.get(`/${kind}/${source().id}/members`, { query: 'bo' });
        assert.deepEqual(
          searched.body.map((member: any) => member.username),
          ['bob'],
        );
        const one = await carol.get(`/${kind}/${source().id}/members/${bobId}`);
        assert.equal(one.status, 200);
        assert.equal(one.body.access_level, 30);
        assert.equal((await alice.get(`/${kind}/${source().id}/members/${carolId}`)).status, 404);
      });

      it('changes a member’s access level', async () => {
        const changed = await alice.put(`/${kind}/${source().id}/members/${bobId}`, { access_level: 20, expires_at: '2099-01-31' });
        assert.equal(changed.status, 200);
        assert.equal(changed.body.access_level, 20);
        assert.equal(changed.body.expires_at, '2099-01-31');
        assert.equal((await alice.put(`/${kind}/${source().id}/members/${bobId}`, {})).status, 400);
      });

      it('removes a member with 204, and answers 404 for one who is not', async () => {
        const removed = await alice.delete(`/${kind}/${source().id}/members/${bobId}`);
        assert.equal(removed.status, 204);
        assert.equal(removed.text, '');
        assert.equal((await alice.delete(`/${kind}/${source().id}/members/${bobId}`)).status, 404);
      });
    });

    describe(`/${kind}/:id/access_requests`, () => {
      it('lets a user ask for access, a master list and approve it', async () => {
        const asked = await carol.post(`/${kind}/${source().id}/access_requests`);
        assert.equal(asked.status, 201);
        assert.equal(asked.body.username, 'carol');
        assert.ok(asked.body.requested_at);
        const list = await alice.get(`/${kind}/${source().id}/access_requests`);
        assert.equal(list.status, 200);
        assert.deepEqual(
          list.body.map((requester: any) => requester.username),
          ['carol'],
        );
        assert.equal(list.headers.get('x-total'), '1');
        assert.equal((await carol.get(`/${kind}/${source().id}/access_requests`)).status, 403);
        const approved = await alice.put(`/${kind}/${source().id}/access_requests/${carolId}/approve`, { access_level: 20 });
        assert.equal(approved.status, 201);
        assert.equal(approved.body.access_level, 20);
        assert.equal((await alice.get(`/${kind}/${source().id}/members/${carolId}`)).status, 200);
      });

      it('lets a requester withdraw with 204', async () => {
        assert.equal((await bob.post(`/${kind}/${source().id}/access_requests`)).status, 201);
        const withdrawn = await bob.delete(`/${kind}/${source().id}/access_requests/${bobId}`);
        assert.equal(withdrawn.status, 204);
        assert.deepEqual((await alice.get(`/${kind}/${source().id}/access_requests`)).body, []);
        assert.equal((await bob.delete(`/${kind}/${source().id}/access_requests/${bobId}`)).status, 404);
      });
    });
  }

  describe('/projects/:id/members/all', () => {
    it('adds the members a project inherits from its group, each once by the higher access level', async () => {
      const crew = (await alice.post('/groups', { name: 'Inherit', path: 'inherit' })).body;
      const inGroup = (await alice.post('/projects', { name: 'Inner', namespace_id: crew.id })).body;
      assert.equal((await alice.post(`/groups/${crew.id}/members`, { user_id: bobId, access_level: 20 })).status, 201);
      assert.equal((await alice.post(`/projects/${inGroup.id}/members`, { user_id: bobId, access_level: 40 })).status, 201);
      assert.equal((await alice.post(`/projects/${inGroup.id}/members`, { user_id: carolId, access_level: 30 })).status, 201);
      const own = await alice.get(`/projects/${inGroup.id}/members`);
      assert.deepEqual(own.body.map((member: any) => member.username).sort(), ['bob', 'carol']);
      const all = await alice.get(`/projects/${inGroup.id}/members/all`);
      assert.equal(all.status, 200);
      const levels = Object.fromEntries(all.body.map((member: any) => [member.username, member.access_level]));
      assert.deepEqual(levels, { alice: 50, bob: 40, carol: 30 });
      assert.equal(all.headers.get('x-total'), '3');
      const searched = await alice.get(`/projects/${inGroup.id}/members/all`, { query: 'ali' });
      assert.deepEqual(
        searched.body.map((member: any) => member.username),
        ['alice'],
      );
      const groupAll = await alice.get(`/groups/${crew.id}/members/all`);
      assert.deepEqual(groupAll.body.map((member: any) => member.username).sort(), ['alice', 'bob']);
    });
  });

  it('needs a user for members (401)', async () => {
    assert.equal((await app.anonymous.v4().get(`/projects/${project.id}/members`)).status, 401);
  });
});
