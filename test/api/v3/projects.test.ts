import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createGroupRow, grantGroupRole, grantProjectRole } from '../../support/roles';
import { createProjectWorld } from '../../support/project-world';

let app: TestApp;
before(async () => {
  app = await startApp();
});
after(() => app.close());

const enc = (path: string) => encodeURIComponent(path);

describe('GET /projects', () => {
  test('anonymous callers get 401', async () => {
    assert.equal((await app.anonymous.get('/projects')).status, 401);
  });

  test('lists the projects the caller is authorized for, with permissions, newest first', async () => {
    const { client, user } = await app.createUser();
    const first = await client.post('/projects', { name: 'alpha' });
    const second = await client.post('/projects', { name: 'beta' });
    const other = await app.createUser();
    await other.client.post('/projects', { name: 'not mine', visibility_level: 20 });
    const response = await client.get('/projects');
    assert.equal(response.status, 200);
    assert.deepEqual(
      response.body.map((p: any) => p.id),
      [second.body.id, first.body.id],
    );
    assert.equal(response.body[0].owner.username, user.username);
    assert.deepEqual(response.body[0].permissions, { project_access: { access_level: 40, notification_level: 3 }, group_access: null });
    assert.ok(Array.isArray(response.body[0].tag_list));
    assert.equal(response.body[0].open_issues_count, 0);
    assert.equal(response.headers.get('x-total'), '2');
  });

  test('a group owner sees group projects with group_access 50 and no project_access', async () => {
    const { client, user } = await app.createUser();
    const groupId = await createGroupRow(app, 'grp-list', user.id);
    const created = await client.post('/projects', { name: 'in group', namespace_id: groupId });
    assert.equal(created.status, 201);
    const response = await client.get('/projects');
    const project = response.body.find((p: any) => p.id === created.body.id);
    assert.deepEqual(project.permissions, { project_access: null, group_access: { access_level: 50, notification_level: 3 } });
    assert.equal(project.owner, undefined);
    assert.equal(project.namespace.name, 'grp-list');
  });

  test('simple=true answers the basic shape only', async () => {
    const { client } = await app.createUser();
    await client.post('/projects', { name: 'simple one' });
    const response = await client.get('/projects', { simple: true });
    assert.deepEqual(Object.keys(response.body[0]).sort(), [
      'http_url_to_repo',
      'id',
      'name',
      'name_with_namespace',
      'path',
      'path_with_namespace',
      'web_url',
    ]);
  });

  test('search, visibility, archived and order_by/sort filter and order the list', async () => {
    const { client } = await app.createUser();
    const a = await client.post('/projects', { name: 'Searchable Thing', visibility_level: 20 });
    const b = await client.post('/projects', { name: 'other', visibility_level: 10 });
    const c = await client.post('/projects', { name: 'third' });
    await client.post(`/projects/${c.body.id}/archive`);
    assert.deepEqual(
      (await client.get('/projects', { search: 'searchable' })).body.map((p: any) => p.id),
      [a.body.id],
    );
    assert.deepEqual(
      (await client.get('/projects', { visibility: 'internal' })).body.map((p: any) => p.id),
      [b.body.id],
    );
    assert.deepEqual(
      (await client.get('/projects', { visibility: 'public' })).body.map((p: any) => p.id),
      [a.body.id],
    );
    assert.deepEqual(
      (await client.get('/projects', { archived: true })).body.map((p: any) => p.id),
      [c.body.id],
    );
    assert.deepEqual(
      (await client.get('/projects', { order_by: 'id', sort: 'asc' })).body.map((p: any) => p.id),
      [a.body.id, b.body.id, c.body.id],
    );
    assert.deepEqual(
      (await client.get('/projects', { order_by: 'name', sort: 'asc' })).body.map((p: any) => p.name),
      ['other', 'Searchable Thing', 'third'],
    );
  });

  test('an unknown visibility value answers 400, not 500', async () => {
    const { client } = await app.createUser();
    const response = await client.get('/projects', { visibility: 'secret' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: '400 (Bad request) "visibility" is invalid' });
  });
});

describe('GET /projects/owned, /projects/starred, /projects/all', () => {
  test('owned lists projects in the caller namespace and owned groups only', async () => {
    const { client, user } = await app.createUser();
    const mine = await client.post('/projects', { name: 'owned one' });
    const other = await app.createUser();
    const theirs = await other.client.post('/projects', { name: 'member of' });
    await grantProjectRole(app, theirs.body.id, user.id, 30);
    const ids = (await client.get('/projects/owned')).body.map((p: any) => p.id);
    assert.deepEqual(ids, [mine.body.id]);
  });

  test('starred lists starred projects still visible to the caller', async () => {
    const { client, user } = await app.createUser();
    const other = await app.createUser();
    const pub = await other.client.post('/projects', { name: 'public starred', visibility_level: 20 });
    const priv = await other.client.post('/projects', { name: 'private starred' });
    await grantProjectRole(app, priv.body.id, user.id, 10);
    assert.equal((await client.post(`/projects/${pub.body.id}/star`)).status, 201);
    assert.equal((await client.post(`/projects/${priv.body.id}/star`)).status, 201);
    await app.ctx.db.deleteFrom('members').where('source_id', '=', priv.body.id).where('user_id', '=', user.id).execute();
    const ids = (await client.get('/projects/starred')).body.map((p: any) => p.id);
    assert.deepEqual(ids, [pub.body.id]);
  });

  test('all is for administrators: 403 otherwise', async () => {
    const { client } = await app.createUser();
    assert.equal((await client.get('/projects/all')).status, 403);
    const response = await app.root.get('/projects/all');
    assert.equal(response.status, 200);
    assert.ok(response.body.length > 0);
    assert.ok('permissions' in response.body[0]);
  });
});

describe('GET /projects/:id', () => {
  test('by numeric id and by URL-encoded namespace/path, case-insensitively', async () => {
    const { client, user } = await app.createUser({ username: 'dot.user' });
    const created = await client.post('/projects', { name: 'Dotted' });
    for (const id of [String(created.body.id), enc(`dot.user/dotted`), enc('DOT.USER/Dotted')]) {
      const response = await client.get(`/projects/${id}`);
      assert.equal(response.status, 200, id);
      assert.equal(response.body.id, created.body.id);
    }
    assert.equal(user.username, 'dot.user');
  });

  test('has the full shape, URLs from EXTERNAL_URL and the runners token for masters', async () => {
    const { client, user } = await app.createUser();
    const created = await client.post('/projects', { name: 'Shape' });
    const response = await client.get(`/projects/${created.body.id}`);
    const p = response.body;
    assert.equal(
      p.web_url,
      `${app.url.replace('127.0.0.1', 'localhost')}/${user.username}/shape`.replace(/:\/\/localhost/, '://localhost'),
    );
    assert.equal(p.http_url_to_repo, `${p.web_url}.git`);
    assert.equal(p.path_with_namespace, `${user.username}/shape`);
    assert.equal(p.name_with_namespace, `${user.name} / Shape`);
    assert.equal(p.public, false);
    assert.equal(p.archived, false);
    assert.equal(p.avatar_url, null);
    assert.deepEqual(p.shared_with_groups, []);
    assert.equal(typeof p.runners_token, 'string');
    assert.equal(p.namespace.id, (await client.get('/namespaces').catch(() => ({ body: [] }))).body?.[0]?.id ?? p.namespace.id);
    const reporter = await app.createUser();
    await grantProjectRole(app, created.body.id, reporter.user.id, 20);
    const seen = await reporter.client.get(`/projects/${created.body.id}`);
    assert.equal(seen.status, 200);
    assert.equal(seen.body.runners_token, undefined);
  });

  test('unknown and private-to-others projects answer 404 Project Not Found', async () => {
    const { id, owner, stranger } = await createProjectWorld(app, { name: 'hidden', roles: ['stranger'] });
    for (const response of [await stranger.client.get(`/projects/${id}`), await owner.client.get('/projects/999999')]) {
      assert.equal(response.status, 404);
      assert.deepEqual(response.body, { message: '404 Project Not Found' });
    }
  });

  test('a public project is readable by any signed-in user, not without a token (401)', async () => {
    const { client } = await app.createUser();
    const created = await client.post('/projects', { name: 'open', visibility_level: 20 });
    const anonymous = await app.anonymous.get(`/projects/${created.body.id}`);
    assert.equal(anonymous.status, 401);
    assert.deepEqual(anonymous.body, { message: '401 Unauthorized' });
    const stranger = await (await app.createUser()).client.get(`/projects/${created.body.id}`);
    assert.equal(stranger.status, 200);
    assert.equal(stranger.body.permissions.project_access, null);
  });
});

describe('POST /projects', () => {
  test('name only: 201, path generated from the name, creator is master, created event', async () => {
    const { client } = await app.createUser();
    const response = await client.post('/projects', { name: 'My Fine Project' });
    assert.equal(response.status, 201);
    assert.equal(response.body.path, 'my-fine-project');
    assert.equal(response.body.visibility_level, 0);
    assert.equal(response.body.default_branch, null);
    const events = await client.get(`/projects/${response.body.id}/events`);
    assert.equal(events.body[0].action_name, 'created');
  });

  test('without name: 400 "name" not given', async () => {
    const { client } = await app.createUser();
    const response = await client.post('/projects', { description: 'x' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: '400 (Bad request) "name" not given' });
  });

  test('echoes given attributes and disables features given false', async () => {
    const { client } = await app.createUser();
    const response = await client.form('POST', '/projects', {
      name: 'Echo',
      path: 'camelCasePath',
      description: 'desc',
      only_allow_merge_if_build_succeeds: 'true',
      request_access_enabled: 'false',
      issues_enabled: 'false',
      merge_requests_enabled: 'false',
      wiki_enabled: 'false',
    });
    assert.equal(response.status, 201);
    const p = response.body;
    assert.equal(p.path, 'camelCasePath');
    assert.equal(p.description, 'desc');
    assert.equal(p.only_allow_merge_if_build_succeeds, true);
    assert.equal(p.request_access_enabled, false);
    assert.equal(p.issues_enabled, false);
    assert.equal(p.merge_requests_enabled, false);
    assert.equal(p.wiki_enabled, false);
    assert.equal(p.open_issues_count, undefined);
  });

  test('visibility: visibility_level wins over public; public=true is 20, false is 0', async () => {
    const { client } = await app.createUser({ projects_limit: 20 });
    const cases: [Record<string, unknown>, number][] = [
      [{ visibility_level: 20 }, 20],
      [{ public: true }, 20],
      [{ visibility_level: 10 }, 10],
      [{ visibility_level: 10, public: true }, 10],
      [{ visibility_level: 0 }, 0],
      [{ public: false }, 0],
    ];
    for (const [i, [params, level]] of cases.entries()) {
      const response = await client.post('/projects', { name: `vis${i}`, ...params });
      assert.equal(response.status, 201);
      assert.equal(response.body.visibility_level, level, JSON.stringify(params));
      assert.equal(response.body.public, level === 20);
    }
  });

  test('a restricted visibility level answers 400 for users but not for administrators', async () => {
    const isolated = await startApp();
    try {
      await isolated.root.put('/application/settings', { restricted_visibility_levels: [20] });
      const { client } = await isolated.createUser();
      const refused = await client.post('/projects', { name: 'nope', public: true });
      assert.equal(refused.status, 400);
      assert.match(refused.body.message.visibility_level[0], /restricted by your GitLab administrator/);
      assert.equal((await isolated.root.post('/projects', { name: 'yes', public: true })).status, 201);
    } finally {
      await isolated.close();
    }
  });

  test('the personal project limit answers 403 and creates nothing', async () => {
    const { client } = await app.createUser({ projects_limit: 1 });
    assert.equal((await client.post('/projects', { name: 'only one' })).status, 201);
    const refused = await client.post('/projects', { name: 'one too many' });
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.body, { error: ['Your project limit is 1 projects! Please contact your administrator to increase it'] });
    assert.equal((await client.get('/projects')).body.length, 1);
  });

  test('a name or path already taken in the namespace answers 400 per field', async () => {
    const { client } = await app.createUser();
    await client.post('/projects', { name: 'dup' });
    const response = await client.post('/projects', { name: 'dup' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body.message.name, ['has already been taken']);
    assert.deepEqual(response.body.message.path, ['has already been taken']);
  });

  test('an invalid path answers 400 with the format message', async () => {
    const { client } = await app.createUser();
    const response = await client.post('/projects', { name: 'okname', path: '-bad.git' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body.message.path, [
      "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'",
    ]);
  });

  test('namespace_id: a group where the caller is master works; a namespace they cannot use answers 400', async () => {
    const { client, user } = await app.createUser();
    const other = await app.createUser();
    const groupId = await createGroupRow(app, 'grp-create', other.user.id);
    await grantGroupRole(app, groupId, user.id, 40);
    assert.equal((await client.post('/projects', { name: 'group project', namespace_id: groupId })).status, 201);
    const otherNamespace = (await other.client.post('/projects', { name: 'x' })).body.namespace.id;
    const refused = await client.post('/projects', { name: 'sneaky', namespace_id: otherNamespace });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body, { message: { namespace: ['is not valid'] } });
  });
});

describe('POST /projects/user/:user_id', () => {
  test('administrators create a project owned by that user', async () => {
    const { user, client } = await app.createUser();
    const response = await app.root.post(`/projects/user/${user.id}`, { name: 'for you' });
    assert.equal(response.status, 201);
    assert.equal(response.body.owner.id, user.id);
    assert.equal((await client.get(`/projects/${response.body.id}`)).status, 200);
  });

  test('without params: 400 naming name and path', async () => {
    const { user } = await app.createUser();
    const response = await app.root.post(`/projects/user/${user.id}`, {});
    assert.equal(response.status, 400);
    assert.deepEqual(response.body.message.name.slice(0, 2), ["can't be blank", 'is too short (minimum is 0 characters)']);
    assert.deepEqual(response.body.message.path.slice(0, 2), ["can't be blank", 'is too short (minimum is 0 characters)']);
  });

  test('non-administrators get 403; unknown users 404', async () => {
    const { client, user } = await app.createUser();
    assert.equal((await client.post(`/projects/user/${user.id}`, { name: 'x' })).status, 403);
    assert.equal((await app.root.post('/projects/user/999999', { name: 'x' })).status, 404);
  });
});

describe('PUT /projects/:id', () => {
  test('the owner renames and changes visibility; public=false makes it private', async () => {
    const { client } = await app.createUser();
    const created = await client.post('/projects', { name: 'before', visibility_level: 20 });
    const renamed = await client.put(`/projects/${created.body.id}`, { name: 'after' });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, 'after');
    const hidden = await client.put(`/projects/${created.body.id}`, { public: false });
    assert.equal(hidden.body.visibility_level, 0);
  });

  test('a master changes path, features and description but not name or visibility', async () => {
    const { id, master } = await createProjectWorld(app, { name: 'mastered', roles: ['master'] });
    const changed = await master.client.put(`/projects/${id}`, { path: 'new-path', description: 'new', issues_enabled: true });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.path, 'new-path');
    assert.equal((await master.client.put(`/projects/${id}`, { name: 'other name' })).status, 403);
    assert.equal((await master.client.put(`/projects/${id}`, { visibility_level: 20 })).status, 403);
  });

  test('a developer may change nothing: 403', async () => {
    const { id, developer } = await createProjectWorld(app, { name: 'dev-locked', roles: ['developer'] });
    assert.equal((await developer.client.put(`/projects/${id}`, { description: 'x' })).status, 403);
  });

  test('a name or path taken in the namespace answers 400', async () => {
    const { client } = await app.createUser();
    await client.post('/projects', { name: 'taken' });
    const created = await client.post('/projects', { name: 'free' });
    const name = await client.put(`/projects/${created.body.id}`, { name: 'taken' });
    assert.equal(name.status, 400);
    assert.deepEqual(name.body.message.name, ['has already been taken']);
    const path = await client.put(`/projects/${created.body.id}`, { path: 'taken' });
    assert.deepEqual(path.body.message.path, ['has already been taken']);
  });

  test('anonymous callers get 401', async () => {
    assert.equal((await app.anonymous.put('/projects/1', { name: 'x' })).status, 401);
  });
});

describe('POST /projects/:id/archive and /unarchive', () => {
  test('the owner archives and unarchives, idempotently, with 201', async () => {
    const { client } = await app.createUser();
    const created = await client.post('/projects', { name: 'archivable' });
    for (const [action, archived] of [
      ['archive', true],
      ['archive', true],
      ['unarchive', false],
      ['unarchive', false],
    ] as const) {
      const response = await client.post(`/projects/${created.body.id}/${action}`);
      assert.equal(response.status, 201);
      assert.equal(response.body.archived, archived);
    }
  });

  test('a master or developer gets 403; a stranger to a private project 404', async () => {
    const { id, master, stranger } = await createProjectWorld(app, { name: 'not yours to archive', roles: ['master', 'stranger'] });
    assert.equal((await master.client.post(`/projects/${id}/archive`)).status, 403);
    assert.equal((await stranger.client.post(`/projects/${id}/archive`)).status, 404);
  });
});

describe('POST and DELETE /projects/:id/star', () => {
  test('star 201 then 304; unstar 200 then 304; star_count follows', async () => {
    const { client } = await app.createUser();
    const created = await client.post('/projects', { name: 'starry' });
    const starred = await client.post(`/projects/${created.body.id}/star`);
    assert.equal(starred.status, 201);
    assert.equal(starred.body.star_count, 1);
    const again = await client.post(`/projects/${created.body.id}/star`);
    assert.equal(again.status, 304);
    assert.equal(again.text, '');
    const unstarred = await client.delete(`/projects/${created.body.id}/star`);
    assert.equal(unstarred.status, 200);
    assert.equal(unstarred.body.star_count, 0);
    assert.equal((await client.delete(`/projects/${created.body.id}/star`)).status, 304);
  });
});

describe('DELETE /projects/:id', () => {
  test('the owner deletes: 200 true, and the project is gone', async () => {
    const { client } = await app.createUser();
    const created = await client.post('/projects', { name: 'doomed' });
    const response = await client.delete(`/projects/${created.body.id}`);
    assert.equal(response.status, 200);
    assert.equal(response.body, true);
    assert.equal((await client.get(`/projects/${created.body.id}`)).status, 404);
  });

  test('a developer gets 403; unknown 404; an administrator may delete', async () => {
    const { id, owner, developer } = await createProjectWorld(app, { name: 'guarded', roles: ['developer'] });
    assert.equal((await developer.client.delete(`/projects/${id}`)).status, 403);
    assert.equal((await owner.client.delete('/projects/999999')).status, 404);
    assert.equal((await app.root.delete(`/projects/${id}`)).status, 200);
  });
});

describe('POST /projects/fork/:id', () => {
  test('a member forks into their namespace; the fork records its source', async () => {
    const { id, owner, reporter: forker } = await createProjectWorld(app, { name: 'upstream', roles: ['reporter'] });
    const fork = await forker.client.post(`/projects/fork/${id}`);
    assert.equal(fork.status, 201);
    assert.equal(fork.body.name, 'upstream');
    assert.equal(fork.body.path, 'upstream');
    assert.equal(fork.body.owner.id, forker.user.id);
    assert.equal(fork.body.forked_from_project.id, id);
    assert.equal((await owner.client.get(`/projects/${id}`)).body.forks_count, 1);
  });

  test('into a namespace where the project already lives: 409 with name and path taken', async () => {
    const { client } = await app.createUser();
    const source = await client.post('/projects', { name: 'twice' });
    const response = await client.post(`/projects/fork/${source.body.id}`);
    assert.equal(response.status, 409);
    assert.deepEqual(response.body.message.name, ['has already been taken']);
    assert.deepEqual(response.body.message.path, ['has already been taken']);
  });

  test('namespace by id or path; a namespace the caller cannot use or that does not exist: 404 Target Namespace Not Found', async () => {
    const { client } = await app.createUser();
    const source = await client.post('/projects', { name: 'spoon', visibility_level: 20 });
    const forker = await app.createUser();
    const own = await forker.client.post(`/projects/fork/${source.body.id}`, { namespace: forker.user.username });
    assert.equal(own.status, 201);
    const others = await forker.client.post(`/projects/fork/${source.body.id}`, { namespace: (await app.createUser()).user.username });
    assert.equal(others.status, 404);
    assert.deepEqual(others.body, { message: '404 Target Namespace Not Found' });
    assert.equal((await forker.client.post(`/projects/fork/${source.body.id}`, { namespace: 999999 })).status, 404);
  });

  test('a private project of others answers 404; anonymous 401', async () => {
    const { id, stranger } = await createProjectWorld(app, { name: 'closed', roles: ['stranger'] });
    const response = await stranger.client.post(`/projects/fork/${id}`);
    assert.deepEqual([response.status, response.body], [404, { message: '404 Project Not Found' }]);
    assert.equal((await app.anonymous.post(`/projects/fork/${id}`)).status, 401);
  });
});

describe('POST /projects/:id/share', () => {
  test('shares with a group: 201, and group members gain access', async () => {
    const { client } = await app.createUser();
    const project = await client.post('/projects', { name: 'shared' });
    const member = await app.createUser();
    const groupId = await createGroupRow(app, 'grp-share', member.user.id, 0);
    const response = await client.post(`/projects/${project.body.id}/share`, { group_id: groupId, group_access: 30 });
    assert.equal(response.status, 201);
    assert.equal(response.body.group_id, groupId);
    assert.equal(response.body.group_access, 30);
    const seen = await member.client.get(`/projects/${project.body.id}`);
    assert.equal(seen.status, 200);
    assert.deepEqual(seen.body.shared_with_groups, [{ group_id: groupId, group_name: 'grp-share', group_access_level: 30 }]);
  });

  test('missing params 400; an unknown level 409', async () => {
    const { client, user } = await app.createUser();
    const project = await client.post('/projects', { name: 'share-bad' });
    const groupId = await createGroupRow(app, 'grp-share-bad', user.id);
    assert.deepEqual((await client.post(`/projects/${project.body.id}/share`, { group_access: 30 })).body, {
      message: '400 (Bad request) "group_id" not given',
    });
    const bad = await client.post(`/projects/${project.body.id}/share`, { group_id: groupId, group_access: 1234 });
    assert.deepEqual([bad.status, bad.body], [409, { message: 'Group access is not included in the list' }]);
  });
});

describe('DELETE /projects/:id/share/:group_id', () => {
  test('removes the share: the group loses access; an unknown share answers 404', async () => {
    const { client } = await app.createUser();
    const project = await client.post('/projects', { name: 'unshared' });
    const member = await app.createUser();
    const groupId = await createGroupRow(app, 'grp-unshare', member.user.id, 0);
    await client.post(`/projects/${project.body.id}/share`, { group_id: groupId, group_access: 30 });
    assert.equal((await member.client.get(`/projects/${project.body.id}`)).status, 200);
    assert.equal((await client.delete(`/projects/${project.body.id}/share/${groupId}`)).status, 200);
    assert.equal((await member.client.get(`/projects/${project.body.id}`)).status, 404);
    assert.equal((await client.delete(`/projects/${project.body.id}/share/${groupId}`)).status, 404);
  });
});

describe('GET /projects/search/:query', () => {
  test('matches visible projects by name, path, description or namespace name', async () => {
    const { client } = await app.createUser();
    await client.post('/projects', { name: 'zebra private' });
    await client.post('/projects', { name: 'zebra public', visibility_level: 20 });
    await client.post('/projects', { name: 'other', description: 'about a zebra', visibility_level: 10 });
    assert.equal((await client.get('/projects/search/zebra')).body.length, 3);
    const stranger = await app.createUser();
    assert.equal((await stranger.client.get('/projects/search/zebra')).body.length, 2);
  });
});

describe('GET /projects/:id/events', () => {
  test('newest first, in the Event shape', async () => {
    const { client, user } = await app.createUser();
    const created = await client.post('/projects', { name: 'eventful' });
    const response = await client.get(`/projects/${created.body.id}/events`);
    assert.equal(response.status, 200);
    const [event] = response.body;
    assert.equal(event.action_name, 'created');
    assert.equal(event.project_id, created.body.id);
    assert.equal(event.author_username, user.username);
    assert.equal(event.author.name, user.name);
    assert.equal(event.title, null);
  });

  test('unknown project: 404 Project Not Found', async () => {
    const { client } = await app.createUser();
    assert.deepEqual((await client.get('/projects/999999/events')).body, { message: '404 Project Not Found' });
  });
});

describe('POST /projects/user/:user_id with default_branch', () => {
  test('the default branch is kept and HEAD points at it; an invalid name answers 400', async () => {
    const { user } = await app.createUser();
    const created = await app.root.post(`/projects/user/${user.id}`, { name: 'with default', default_branch: 'develop' });
    assert.equal(created.status, 201);
    assert.equal(created.body.default_branch, 'develop');
    const fs = await import('node:fs');
    const head = fs.readFileSync(`${app.services.repositories.path(created.body.id)}/HEAD`, 'utf8');
    assert.equal(head.trim(), 'ref: refs/heads/develop');
    const bad = await app.root.post(`/projects/user/${user.id}`, { name: 'bad default', default_branch: 'two..dots' });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.message.default_branch, ['is invalid']);
  });
});
