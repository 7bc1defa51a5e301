import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createProjectWorld } from '../../support/project-world';
import { seedCommit } from '../../support/repo';

let app: TestApp;
let world: Awaited<ReturnType<typeof makeWorld>>;

const makeWorld = () =>
  createProjectWorld(app, {
    roles: ['master', 'developer', 'reporter'],
    visibility: 20,
    commits: [{ files: { 'README.md': '# readme\n' } }, { files: { 'b.txt': 'b\n' } }],
  });
const branches = (rest = '') => `/projects/${world.id}/repository/branches${rest}`;
const rules = (rest = '') => `/projects/${world.id}/protected_branches${rest}`;

before(async () => {
  app = await startApp();
  world = await makeWorld();
});
after(async () => app?.close());

describe('branches', () => {
  test('creates a branch with `branch` and `ref` (201), names with / by their encoded name', async () => {
    const client = world.developer.client.v4();
    const created = await client.post(branches(), { branch: 'feature/one', ref: world.shas[0] });
    assert.equal(created.status, 201);
    assert.equal(created.body.name, 'feature/one');
    assert.equal(created.body.commit.id, world.shas[0]);
    assert.equal(created.body.merged, true);
    assert.equal(created.body.can_push, true);
    assert.equal(created.body.default, false);
    const read = await app.anonymous.v4().get(branches('/feature%2Fone'));
    assert.equal(read.status, 200);
    assert.equal(read.body.can_push, false);
    const again = await client.post(branches(), { branch: 'feature/one', ref: 'master' });
    assert.deepEqual([again.status, again.body], [400, { message: 'Branch already exists' }]);
    assert.deepEqual((await client.post(branches(), { branch: 'x', ref: 'nope' })).body, { message: 'Invalid reference name' });
  });

  test('lists branches with pagination and the default one marked', async () => {
    const response = await app.anonymous.v4().get(branches(), { per_page: 100 });
    assert.equal(response.status, 200);
    const master = response.body.find((branch: any) => branch.name === 'master');
    assert.equal(master.default, true);
    assert.equal(master.merged, false);
    assert.equal(response.headers.get('x-total'), String(response.body.length));
    assert.equal((await app.anonymous.v4().get(branches('/nope'))).status, 404);
  });

  test('deletes a branch with 204; the default branch cannot go', async () => {
    const client = world.developer.client.v4();
    await client.post(branches(), { branch: 'doomed', ref: 'master' });
    assert.equal((await client.delete(branches('/doomed'))).status, 204);
    assert.equal((await client.get(branches('/doomed'))).status, 404);
    assert.equal((await client.delete(branches('/master'))).status, 400);
    assert.deepEqual((await client.delete(branches('/doomed'))).body, { message: '404 Branch Not Found' });
    assert.equal((await world.reporter.client.v4().delete(branches('/master'))).status, 403);
  });

  test('DELETE merged_branches removes merged, unprotected branches and answers 202', async () => {
    const client = world.master.client.v4();
    await client.post(branches(), { branch: 'merged-a', ref: world.shas[0] });
    await client.post(branches(), { branch: 'merged-kept', ref: world.shas[0] });
    await client.post(rules(), { name: 'merged-kept' });
    await seedCommit(app, world.id, { branch: 'unmerged', startRef: world.shas[0], files: { 'u.txt': 'u' } });
    const response = await client.delete(`/projects/${world.id}/repository/merged_branches`);
    assert.deepEqual([response.status, response.body], [202, { message: '202 Accepted' }]);
    const names = (await client.get(branches(), { per_page: 100 })).body.map((branch: any) => branch.name);
    assert.ok(!names.includes('merged-a'));
    assert.ok(names.includes('merged-kept'));
    assert.ok(names.includes('unmerged'));
    assert.ok(names.includes('master'));
  });

  test('PUT protect and unprotect are still served', async () => {
    const client = world.master.client.v4();
    await client.post(branches(), { branch: 'guarded', ref: 'master' });
    const protectedBranch = await client.put(branches('/guarded/protect'), { developers_can_push: true });
    assert.equal(protectedBranch.status, 200);
    assert.equal(protectedBranch.body.protected, true);
    assert.equal(protectedBranch.body.developers_can_push, true);
    const unprotected = await client.put(branches('/guarded/unprotect'));
    assert.equal(unprotected.body.protected, false);
    assert.equal((await world.developer.client.v4().put(branches('/guarded/protect'))).status, 403);
  });
});

describe('protected branches', () => {
  test('protects by name with access levels, answered as GitLab lists them', async () => {
    const client = world.master.client.v4();
    const created = await client.post(rules(), { name: 'release-*', push_access_level: 30, merge_access_level: 40 });
    assert.equal(created.status, 201);
    assert.deepEqual(created.body, {
      name: 'release-*',
      push_access_levels: [{ access_level: 30, access_level_description: 'Developers + Maintainers' }],
      merge_access_levels: [{ access_level: 40, access_level_description: 'Maintainers' }],
    });
    const again = await client.post(rules(), { name: 'release-*' });
    assert.deepEqual([again.status, again.body], [409, { message: "Protected branch 'release-*' already exists" }]);
    const read = await client.get(rules('/release-*'));
    assert.equal(read.body.name, 'release-*');
    const list = await client.get(rules());
    assert.ok(list.body.some((rule: any) => rule.name === 'release-*'));
    assert.ok(list.headers.get('x-total'));
  });

  test('a protected branch refuses developers when only maintainers push', async () => {
    const client = world.master.client.v4();
    await client.post(branches(), { branch: 'stable', ref: 'master' });
    const rule = await client.post(rules(), { name: 'stable' });
    assert.equal(rule.body.push_access_levels[0].access_level, 40);
    const branch = await world.developer.client.v4().get(branches('/stable'));
    assert.equal(branch.body.protected, true);
    assert.equal(branch.body.can_push, false);
    const push = await world.developer.client.v4().post(`/projects/${world.id}/repository/commits`, {
      branch: 'stable',
      commit_message: 'x',
      actions: [{ action: 'create', file_path: 'x.txt', content: 'x' }],
    });
    assert.deepEqual([push.status, push.body], [400, { message: 'You are not allowed to push into this branch' }]);
  });

  test('no one (0) is stored; another level such as 10 is refused', async () => {
    const response = await world.master.client.v4().post(rules(), { name: 'frozen', push_access_level: 0 });
    assert.equal(response.status, 201);
    assert.equal(response.body.push_access_levels[0].access_level, 0);
    assert.equal((await world.master.client.v4().post(rules(), { name: 'other', push_access_level: 10 })).status, 400);
  });

  test('unprotects with 204; an unknown name is 404; developers are 403', async () => {
    const client = world.master.client.v4();
    await client.post(rules(), { name: 'temp/rule' });
    assert.equal((await client.delete(rules('/temp%2Frule'))).status, 204);
    assert.equal((await client.get(rules('/temp%2Frule'))).status, 404);
    assert.equal((await client.delete(rules('/temp%2Frule'))).status, 404);
    assert.equal((await world.developer.client.v4().get(rules())).status, 403);
  });
});

describe('tags', () => {
  test('creates, reads, lists and deletes tags; releases are created and changed', async () => {
    const client = world.developer.client.v4();
    const created = await client.post(`/projects/${world.id}/repository/tags`, {
      tag_name: 'v1.0',
      ref: 'master',
      message: 'first release',
      release_description: 'notes',
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.name, 'v1.0');
    assert.equal(created.body.message, 'first release');
    assert.notEqual(created.body.target, created.body.commit.id);
    assert.deepEqual(created.body.release, { tag_name: 'v1.0', description: 'notes' });
    const light = await client.post(`/projects/${world.id}/repository/tags`, { tag_name: 'light/1', ref: world.shas[0] });
    assert.equal(light.body.target, world.shas[0]);
    const read = await app.anonymous.v4().get(`/projects/${world.id}/repository/tags/light%2F1`);
    assert.equal(read.body.commit.id, world.shas[0]);
    const list = await app.anonymous.v4().get(`/projects/${world.id}/repository/tags`);
    assert.deepEqual(list.body.map((tag: any) => tag.name).sort(), ['light/1', 'v1.0']);
    assert.equal(list.headers.get('x-total'), '2');
    const release = await client.post(`/projects/${world.id}/repository/tags/light%2F1/release`, { description: 'light notes' });
    assert.deepEqual([release.status, release.body], [201, { tag_name: 'light/1', description: 'light notes' }]);
    const changed = await client.put(`/projects/${world.id}/repository/tags/light%2F1/release`, { description: 'changed' });
    assert.deepEqual([changed.status, changed.body.description], [200, 'changed']);
    assert.equal((await client.delete(`/projects/${world.id}/repository/tags/light%2F1`)).status, 204);
    assert.equal((await client.get(`/projects/${world.id}/repository/tags/light%2F1`)).status, 404);
    assert.equal((await app.anonymous.v4().post(`/projects/${world.id}/repository/tags`, { tag_name: 'x', ref: 'master' })).status, 401);
  });
});
