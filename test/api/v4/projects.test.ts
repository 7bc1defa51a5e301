import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import type { ApiClient } from '../../support/client';

describe('API v4 projects', () => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let bobId: number;
  let publicProject: any;
  let privateProject: any;
  let internalProject: any;

  before(async () => {
    app = await startApp();
    alice = (await app.createUser({ username: 'alice', name: 'Alice' })).client.v4();
    const created = await app.createUser({ username: 'bob', name: 'Bob' });
    bob = created.client.v4();
    bobId = created.user.id;
    publicProject = (await alice.post('/projects', { name: 'Sunny', visibility: 'public', description: 'out in the open' })).body;
    privateProject = (await alice.post('/projects', { name: 'Secret' })).body;
    internalProject = (await alice.post('/projects', { name: 'Inside', visibility: 'internal' })).body;
  });
  after(async () => app?.close());

  describe('POST /projects', () => {
    it('creates a project and answers it in v4 form: visibility, jobs_enabled, namespace, _links, permissions', async () => {
      assert.equal(publicProject.name, 'Sunny');
      assert.equal(publicProject.path, 'sunny');
      assert.equal(publicProject.visibility, 'public');
      assert.equal(publicProject.visibility_level, undefined);
      assert.equal(publicProject.public, undefined);
      assert.equal(publicProject.jobs_enabled, true);
      assert.equal(publicProject.builds_enabled, undefined);
      assert.equal(publicProject.public_jobs, true);
      assert.equal(publicProject.only_allow_merge_if_pipeline_succeeds, false);
      assert.deepEqual(publicProject.namespace, {
        id: publicProject.namespace.id,
        name: 'alice',
        path: 'alice',
        kind: 'user',
        full_path: 'alice',
        parent_id: null,
      });
      assert.equal(publicProject.path_with_namespace, 'alice/sunny');
      assert.equal(publicProject.owner.username, 'alice');
      assert.equal(publicProject.owner.web_url, `${app.url.replace('127.0.0.1', 'localhost')}/alice`);
      assert.equal(publicProject._links.self, `${app.url.replace('127.0.0.1', 'localhost')}/api/v4/projects/${publicProject.id}`);
      assert.equal(publicProject.permissions.project_access.access_level, 40);
      assert.equal(publicProject.permissions.group_access, null);
      assert.equal(typeof publicProject.runners_token, 'string');
      assert.equal(privateProject.visibility, 'private');
    });

    it('takes a path alone, and the v4 names of settings', async () => {
      const response = await alice.post('/projects', { path: 'only-path', jobs_enabled: false, issues_enabled: false });
      assert.equal(response.status, 201);
      assert.equal(response.body.name, 'only-path');
      assert.equal(response.body.jobs_enabled, false);
      assert.equal(response.body.issues_enabled, false);
      assert.equal(response.body.open_issues_count, undefined);
      assert.equal(response.body._links.issues, undefined);
    });

    it('needs a name or a path: 400 with an error', async () => {
      const response = await alice.post('/projects', { description: 'nameless' });
      assert.equal(response.status, 400);
      assert.match(response.body.error, /name, path are missing/);
    });

    it('refuses an unknown visibility with 400, and an anonymous caller with 401', async () => {
      assert.equal((await alice.post('/projects', { name: 'Odd', visibility: 'secret' })).status, 400);
      assert.equal((await app.anonymous.v4().post('/projects', { name: 'Anon' })).status, 401);
    });

    it('answers a taken name with a 400 validation message', async () => {
      const response = await alice.post('/projects', { name: 'Sunny' });
      assert.equal(response.status, 400);
      assert.equal(typeof response.body.message, 'object');
    });
  });

  describe('GET /projects', () => {
    it('lists every project the caller can see, with pagination headers', async () => {
      const response = await bob.get('/projects', { order_by: 'id', sort: 'asc' });
      assert.equal(response.status, 200);
      const ids = response.body.map((project: any) => project.id);
      assert.ok(ids.includes(publicProject.id));
      assert.ok(ids.includes(internalProject.id));
      assert.ok(!ids.includes(privateProject.id));
      assert.equal(response.headers.get('x-total'), String(ids.length));
      assert.equal(response.headers.get('x-page'), '1');
      assert.ok(response.body.every((project: any) => 'permissions' in project));
    });

    it('shows anonymous callers the public projects only', async () => {
      const response = await app.anonymous.v4().get('/projects');
      assert.equal(response.status, 200);
      assert.deepEqual(
        response.body.map((project: any) => project.id),
        [publicProject.id],
      );
      assert.equal(response.body[0].permissions, undefined);
    });

    it('filters by owned, membership, visibility and search', async () => {
      const owned = await bob.get('/projects', { owned: true });
      assert.deepEqual(owned.body, []);
      const mine = await alice.get('/projects', { owned: true, visibility: 'private', search: 'secr' });
      assert.deepEqual(
        mine.body.map((project: any) => project.id),
        [privateProject.id],
      );
      const membership = await bob.get('/projects', { membership: true });
      assert.deepEqual(membership.body, []);
    });

    it('answers the basic fields with simple=true', async () => {
      const response = await alice.get('/projects', { simple: true, search: 'Sunny' });
      assert.equal(response.body.length, 1);
      assert.equal(response.body[0].path_with_namespace, 'alice/sunny');
      assert.equal(response.body[0].visibility, undefined);
      assert.equal(response.body[0].namespace.kind, 'user');
    });

    it('orders by name and pages with per_page', async () => {
      const first = await alice.get('/projects', { order_by: 'name', sort: 'asc', per_page: 2, owned: true });
      assert.deepEqual(
        first.body.map((project: any) => project.name),
        ['Inside', 'only-path'],
      );
      assert.equal(first.headers.get('x-next-page'), '2');
      const second = await alice.get('/projects', { order_by: 'name', sort: 'asc', per_page: 2, page: 2, owned: true });
      assert.deepEqual(
        second.body.map((project: any) => project.name),
        ['Secret', 'Sunny'],
      );
    });

    it('refuses an unknown order with 400', async () => {
      assert.equal((await alice.get('/projects', { order_by: 'stars' })).status, 400);
    });
  });

  describe('GET /projects/:id', () => {
    it('finds a project by id and by its URL-encoded path', async () => {
      const byPath = await bob.get(`/projects/${encodeURIComponent('alice/sunny')}`);
      assert.equal(byPath.status, 200);
      assert.equal(byPath.body.id, publicProject.id);
      assert.equal(byPath.body.runners_token, undefined);
    });

    it('lets anonymous callers read a public project, and hides the others with 404', async () => {
      assert.equal((await app.anonymous.v4().get(`/projects/${publicProject.id}`)).status, 200);
      const hidden = await app.anonymous.v4().get(`/projects/${internalProject.id}`);
      assert.equal(hidden.status, 404);
      assert.deepEqual(hidden.body, { message: '404 Project Not Found' });
      assert.equal((await bob.get(`/projects/${privateProject.id}`)).status, 404);
    });
  });

  describe('PUT /projects/:id', () => {
    it('changes settings in v4 words', async () => {
      const response = await alice.put(`/projects/${internalProject.id}`, {
        description: 'changed',
        visibility: 'public',
        public_jobs: false,
      });
      assert.equal(response.status, 200);
      assert.equal(response.body.description, 'changed');
      assert.equal(response.body.visibility, 'public');
      assert.equal(response.body.public_jobs, false);
      const back = await alice.put(`/projects/${internalProject.id}`, { visibility: 'internal' });
      assert.equal(back.body.visibility, 'internal');
    });

    it('refuses a reader who is not a master with 403', async () => {
      assert.equal((await bob.put(`/projects/${publicProject.id}`, { description: 'mine now' })).status, 403);
    });
  });

  describe('star and unstar', () => {
    it('stars with 201, then 304; unstars with 201, then 304', async () => {
      const star = await bob.post(`/projects/${publicProject.id}/star`);
      assert.equal(star.status, 201);
      assert.equal(star.body.star_count, 1);
      assert.equal((await bob.post(`/projects/${publicProject.id}/star`)).status, 304);
      const starred = await bob.get('/projects', { starred: true });
      assert.deepEqual(
        starred.body.map((project: any) => project.id),
        [publicProject.id],
      );
      const unstar = await bob.post(`/projects/${publicProject.id}/unstar`);
      assert.equal(unstar.status, 201);
      assert.equal(unstar.body.star_count, 0);
      assert.equal((await bob.post(`/projects/${publicProject.id}/unstar`)).status, 304);
    });
  });

  describe('archive and unarchive', () => {
    it('archives and unarchives, and the archived filter follows', async () => {
      const archived = await alice.post(`/projects/${privateProject.id}/archive`);
      assert.equal(archived.status, 201);
      assert.equal(archived.body.archived, true);
      const list = await alice.get('/projects', { archived: true });
      assert.deepEqual(
        list.body.map((project: any) => project.id),
        [privateProject.id],
      );
      const back = await alice.post(`/projects/${privateProject.id}/unarchive`);
      assert.equal(back.body.archived, false);
    });
  });

  describe('forks', () => {
    it('forks into the caller namespace, and the source lists its forks to whoever may see them', async () => {
      const fork = await bob.post(`/projects/${publicProject.id}/fork`);
      assert.equal(fork.status, 201);
      assert.equal(fork.body.path_with_namespace, 'bob/sunny');
      assert.equal(fork.body.forked_from_project.id, publicProject.id);
      assert.equal(fork.body.visibility, 'public');
      const group = await alice.post('/groups', { name: 'Forkers', path: 'forkers', visibility: 'public' });
      assert.equal(group.status, 201);
      const privateFork = await alice.post(`/projects/${privateProject.id}/fork`, { namespace: 'forkers' });
      assert.equal(privateFork.status, 201);
      assert.equal((await bob.get(`/projects/${privateProject.id}/forks`)).status, 404);
      const seen = await app.anonymous.v4().get(`/projects/${publicProject.id}/forks`);
      assert.deepEqual(
        seen.body.map((project: any) => project.id),
        [fork.body.id],
      );
      assert.equal(seen.headers.get('x-total'), '1');
    });

    it('forks into a namespace given by path', async () => {
      const fork = await alice.post(`/projects/${publicProject.id}/fork`, { namespace: 'forkers' });
      assert.equal(fork.status, 201);
      assert.equal(fork.body.namespace.kind, 'group');
      assert.equal(fork.body.path_with_namespace, 'forkers/sunny');
    });
  });

  describe('GET /users/:id/projects', () => {
    it('lists the projects of a user the caller may see, by id or username', async () => {
      const response = await bob.get('/users/alice/projects', { order_by: 'id', sort: 'asc' });
      assert.equal(response.status, 200);
      const ids = response.body.map((project: any) => project.id);
      assert.ok(ids.includes(publicProject.id));
      assert.ok(!ids.includes(privateProject.id));
      const ownById = await bob.get(`/users/${bobId}/projects`);
      assert.deepEqual(
        ownById.body.map((project: any) => project.path_with_namespace),
        ['bob/sunny'],
      );
      assert.equal((await bob.get('/users/nobody/projects')).status, 404);
    });
  });

  describe('POST /projects/user/:user_id', () => {
    it('lets an administrator create a project for a user', async () => {
      const response = await app.root.v4().post(`/projects/user/${bobId}`, { name: 'Gift', visibility: 'internal' });
      assert.equal(response.status, 201);
      assert.equal(response.body.path_with_namespace, 'bob/gift');
      assert.equal(response.body.visibility, 'internal');
      assert.equal((await alice.post(`/projects/user/${bobId}`, { name: 'Nope' })).status, 403);
    });
  });

  describe('GET /projects/:id/events', () => {
    it('lists a public project’s events to anonymous callers, with pagination headers', async () => {
      const response = await app.anonymous.v4().get(`/projects/${publicProject.id}/events`);
      assert.equal(response.status, 200);
      assert.ok(response.body.length >= 1);
      assert.equal(response.body.at(-1).action_name, 'created');
      assert.equal(response.body.at(-1).author_username, 'alice');
      assert.ok(response.headers.get('x-total'));
      assert.equal((await app.anonymous.v4().get(`/projects/${privateProject.id}/events`)).status, 404);
    });
  });

  describe('DELETE /projects/:id', () => {
    it('answers 202 Accepted, and the project is gone', async () => {
      const doomed = (await alice.post('/projects', { name: 'Doomed' })).body;
      assert.equal((await bob.delete(`/projects/${doomed.id}`)).status, 404);
      const response = await alice.delete(`/projects/${doomed.id}`);
      assert.equal(response.status, 202);
      assert.deepEqual(response.body, { message: '202 Accepted' });
      assert.equal((await alice.get(`/projects/${doomed.id}`)).status, 404);
    });
  });
});
