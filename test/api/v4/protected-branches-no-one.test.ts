import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createProjectWorld } from '../../support/project-world';
import { seedCommit } from '../../support/repo';
import { cloneUrl, commit, git, tempDir } from '../../support/git';

let app: TestApp;
let world: Awaited<ReturnType<typeof makeWorld>>;

const makeWorld = () =>
  createProjectWorld(app, {
    roles: ['master', 'developer'],
    visibility: 0,
    commits: [{ files: { 'README.md': '# readme\n' } }],
  });
const rules = (rest = '') => `/projects/${world.id}/protected_branches${rest}`;
const files = (file: string) => `/projects/${world.id}/repository/files/${encodeURIComponent(file)}`;

before(async () => {
  app = await startApp();
  world = await makeWorld();
});
after(async () => app?.close());

describe('protected branches: access level 0 ("No one")', () => {
  test('push_access_level=0 and merge_access_level=0 are accepted and shown as "No one"', async () => {
    const created = await world.master.client.v4().post(rules(), { name: 'sealed-*', push_access_level: 0, merge_access_level: 0 });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(created.body.push_access_levels, [{ access_level: 0, access_level_description: 'No one' }]);
    assert.deepEqual(created.body.merge_access_levels, [{ access_level: 0, access_level_description: 'No one' }]);
    const read = await world.master.client.v4().get(rules('/sealed-*'));
    assert.equal(read.body.push_access_levels[0].access_level, 0);
    assert.equal((await world.master.client.v4().post(rules(), { name: 'odd', push_access_level: 10 })).status, 400);
  });

  test('nobody pushes to a branch no one may push to: not a master, not an administrator, not by git', async () => {
    await world.master.client.v4().post(`/projects/${world.id}/repository/branches`, { branch: 'frozen', ref: 'master' });
    const protectedRule = await world.master.client.v4().post(rules(), { name: 'frozen', push_access_level: 0, merge_access_level: 40 });
    assert.equal(protectedRule.status, 201);
    for (const client of [world.master.client.v4(), app.root.v4()]) {
      const written = await client.post(files('new.txt'), { branch: 'frozen', content: 'x\n', commit_message: 'try' });
      assert.deepEqual([written.status, written.body], [400, { message: 'You are not allowed to push into this branch' }]);
    }
    const branch = await app.root.v4().get(`/projects/${world.id}/repository/branches/frozen`);
    assert.equal(branch.body.commit.id, world.shas[0], 'the branch did not move');

    const dir = tempDir();
    const url = cloneUrl(app.url, world.path, world.master.user.username, world.master.token);
    assert.equal((await git(['clone', '-q', '-b', 'frozen', url, dir])).code, 0);
    await commit(dir, { 'pushed.txt': 'p\n' }, 'push to frozen');
    const pushed = await git(['push', 'origin', 'frozen'], dir);
    assert.notEqual(pushed.code, 0, 'git push by a master is refused');
    // Still a protected branch of masters-only merge: its rule is only about pushing.
    const unprotected = await world.master.client
      .v4()
      .post(files('free.txt'), { branch: 'master', content: 'x\n', commit_message: 'fine' });
    assert.equal(unprotected.status, 201);
  });

  test('nobody merges into a branch no one may merge into; masters merge when the rule lets masters merge', async () => {
    await world.master.client.v4().post(`/projects/${world.id}/repository/branches`, { branch: 'locked-target', ref: 'master' });
    await world.master.client.v4().post(`/projects/${world.id}/repository/branches`, { branch: 'open-target', ref: 'master' });
    await world.master.client.v4().post(rules(), { name: 'locked-target', push_access_level: 0, merge_access_level: 0 });
    await world.master.client.v4().post(rules(), { name: 'open-target', push_access_level: 0, merge_access_level: 40 });
    await seedCommit(app, world.id, { branch: 'topic', startRef: 'refs/heads/master', files: { 'topic.txt': 't\n' } });
    const open = async (target: string) => {
      const made = await world.master.client.v4().post(`/projects/${world.id}/merge_requests`, {
        source_branch: 'topic',
        target_branch: target,
        title: `into ${target}`,
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      return made.body.iid as number;
    };
    const sealed = await open('locked-target');
    for (const client of [world.master.client.v4(), app.root.v4()]) {
      const refused = await client.put(`/projects/${world.id}/merge_requests/${sealed}/merge`);
      assert.equal(refused.status, 401, JSON.stringify(refused.body));
    }
    assert.equal((await app.root.v4().get(`/projects/${world.id}/merge_requests/${sealed}`)).body.state, 'opened');
    const allowed = await open('open-target');
    const merged = await world.master.client.v4().put(`/projects/${world.id}/merge_requests/${allowed}/merge`);
    assert.equal(merged.status, 200, JSON.stringify(merged.body));
    assert.equal(merged.body.state, 'merged');
  });
});
