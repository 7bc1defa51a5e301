import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createPeople, createProjectWorld, type People, type ProjectWorld } from '../../support/project-world';
import { assertAccess, expectedStatus, REFUSALS } from '../../support/access-matrix';
import { publicKeys } from '../../fixtures/ssh-keys';

/*
 * Deploy keys (GitLab 8.12's deploy_keys.rb): masters manage a project's under `/keys` and
 * `/deploy_keys`; administrators list them all; a key's fingerprint is unique among users' keys too.
 */

type Role = 'master' | 'developer' | 'reporter' | 'guest' | 'stranger';

let app: TestApp;
let people: People<Role>;
let world: ProjectWorld<Role>;
let keyNumber = 0;
const freshKey = () => publicKeys[`ed25519-${++keyNumber}`].key;

before(async () => {
  app = await startApp();
  // One owner makes many projects here.
  people = await createPeople<Role>(app, undefined, { owner: { projects_limit: 100 } });
  world = await createProjectWorld(app, { people, name: 'deployed', visibility: 0 });
});
after(() => app.close());

/** A new project of the world's owner, with the same people in the same roles. */
const anotherProject = (name: string, visibility = 0) => createProjectWorld(app, { people, name, visibility });

describe('GET /deploy_keys', () => {
  test('administrators list every deploy key; others are refused (401, 403)', async () => {
    const created = await people.owner.client.post(`/projects/${world.id}/deploy_keys`, { title: 'listed', key: freshKey() });
    assert.equal(created.status, 201);
    const listed = await app.root.get('/deploy_keys');
    assert.equal(listed.status, 200);
    assert.ok(listed.body.some((key: any) => key.id === created.body.id));
    assert.deepEqual(Object.keys(listed.body[0]).sort(), ['created_at', 'id', 'key', 'title']);
    assert.deepEqual(await app.anonymous.get('/deploy_keys').then((r) => [r.status, r.body]), [401, REFUSALS[401]]);
    assert.deepEqual(await people.owner.client.get('/deploy_keys').then((r) => [r.status, r.body]), [403, REFUSALS[403]]);
  });
});

describe('GET /projects/:id/deploy_keys and /projects/:id/keys', () => {
  test("masters list and read a project's deploy keys under both paths; others are refused by role", async () => {
    const p = await anotherProject('listing');
    const created = await people.owner.client.post(`/projects/${p.id}/keys`, { title: 'ci', key: freshKey() });
    assert.equal(created.status, 201);
    for (const path of ['keys', 'deploy_keys']) {
      await assertAccess(
        p.clients,
        (client) => client.get(`/projects/${p.id}/${path}`),
        (caller) => expectedStatus('private', caller, { minimum: 'master' }),
      );
      const listed = await people.master.client.get(`/projects/${p.id}/${path}`);
      assert.deepEqual(
        listed.body.map((key: any) => key.id),
        [created.body.id],
      );
      const one = await people.master.client.get(`/projects/${p.id}/${path}/${created.body.id}`);
      assert.equal(one.status, 200);
      assert.deepEqual(one.body, created.body);
    }
  });

  test('an unknown key, or one of another project, is 404', async () => {
    const p = await anotherProject('unknown');
    const elsewhere = await people.owner.client.post(`/projects/${world.id}/deploy_keys`, { title: 'elsewhere', key: freshKey() });
    for (const id of ['999999', String(elsewhere.body.id), 'abc']) {
      const answer = await people.owner.client.get(`/projects/${p.id}/deploy_keys/${id}`);
      assert.deepEqual([answer.status, answer.body], [404, { message: '404 Not found' }], id);
    }
  });
});

describe('POST /projects/:id/deploy_keys', () => {
  test('a master adds a key (201); developers and below are refused', async () => {
    const p = await anotherProject('adding');
    await assertAccess(
      p.clients,
      (client) => client.post(`/projects/${p.id}/deploy_keys`, { title: 'role', key: freshKey() }),
      (caller) => expectedStatus('private', caller, { minimum: 'master', success: 201 }),
    );
    const created = await people.master.client.post(`/projects/${p.id}/deploy_keys`, { title: 'deploy', key: `${freshKey()}\n` });
    assert.equal(created.status, 201);
    assert.equal(created.body.title, 'deploy');
    assert.equal(created.body.key, publicKeys[`ed25519-${keyNumber}`].key);
  });

  test("without a key or a title: 8.12's validation messages, and nothing stored", async () => {
    const before = (await app.root.get('/deploy_keys')).body.length;
    const noKey = await people.owner.client.post(`/projects/${world.id}/deploy_keys`, { title: 'only a title' });
    assert.equal(noKey.status, 400);
    assert.deepEqual(noKey.body.message.key, ["can't be blank", 'is too short (minimum is 0 characters)', 'is invalid']);
    const noTitle = await people.owner.client.post(`/projects/${world.id}/deploy_keys`, { key: freshKey() });
    assert.equal(noTitle.status, 400);
    assert.deepEqual(noTitle.body.message, { title: ["can't be blank", 'is too short (minimum is 0 characters)'] });
    const garbage = await people.owner.client.post(`/projects/${world.id}/deploy_keys`, { title: 'x', key: 'ssh-rsa not-a-key' });
    assert.deepEqual([garbage.status, garbage.body], [400, { message: { fingerprint: ['cannot be generated'] } }]);
    assert.equal((await app.root.get('/deploy_keys')).body.length, before);
  });

  test("a user's key cannot become a deploy key, nor a deploy key a user's key: the fingerprint is taken", async () => {
    const userKey = freshKey();
    assert.equal((await people.developer.client.post('/user/keys', { title: 'mine', key: userKey })).status, 201);
    const asDeployKey = await people.owner.client.post(`/projects/${world.id}/deploy_keys`, { title: 'stolen', key: userKey });
    assert.deepEqual([asDeployKey.status, asDeployKey.body], [400, { message: { fingerprint: ['has already been taken'] } }]);
    const deployKey = freshKey();
    assert.equal((await people.owner.client.post(`/projects/${world.id}/deploy_keys`, { title: 'd', key: deployKey })).status, 201);
    const asUserKey = await people.developer.client.post('/user/keys', { title: 'mine too', key: deployKey });
    assert.deepEqual([asUserKey.status, asUserKey.body], [400, { message: { fingerprint: ['has already been taken'] } }]);
  });

  test('the text of a deploy key the caller masters elsewhere enables that key here; one they do not master is taken', async () => {
    const first = await anotherProject('first');
    const second = await anotherProject('second');
    const key = freshKey();
    const created = await people.owner.client.post(`/projects/${first.id}/deploy_keys`, { title: 'shared', key });
    const again = await people.owner.client.post(`/projects/${second.id}/deploy_keys`, { title: 'shared again', key });
    assert.deepEqual([again.status, again.body.id], [201, created.body.id]);
    // Asked twice on the same project: the same key, still once.
    const twice = await people.owner.client.post(`/projects/${second.id}/deploy_keys`, { title: 'shared again', key });
    assert.deepEqual([twice.status, twice.body.id], [201, created.body.id]);
    assert.equal((await people.owner.client.get(`/projects/${second.id}/deploy_keys`)).body.length, 1);
    // The master of a project of their own, who masters neither of those.
    const outsider = await createProjectWorld(app, { roles: [], name: 'outsider' });
    const refused = await outsider.owner.client.post(`/projects/${outsider.id}/deploy_keys`, { title: 'copied', key });
    assert.deepEqual([refused.status, refused.body], [400, { message: { fingerprint: ['has already been taken'] } }]);
  });
});

describe('POST /projects/:id/deploy_keys/:key_id/enable and DELETE …/disable', () => {
  test('an administrator enables any deploy key (201); a non-member of the project gets 404', async () => {
    const source = await anotherProject('source');
    const target = await anotherProject('target');
    const created = await people.owner.client.post(`/projects/${source.id}/deploy_keys`, { title: 'k', key: freshKey() });
    const enabled = await app.root.post(`/projects/${target.id}/deploy_keys/${created.body.id}/enable`);
    assert.deepEqual([enabled.status, enabled.body.id], [201, created.body.id]);
    const stranger = await people.stranger.client.post(`/projects/${target.id}/deploy_keys/${created.body.id}/enable`);
    assert.deepEqual([stranger.status, stranger.body], [404, REFUSALS[404]]);
  });

  test('a master enables a key of a project they master, not one of a project they do not: 404 Deploy Key Not Found', async () => {
    const target = await anotherProject('enable-target');
    const mine = await people.owner.client.post(`/projects/${world.id}/deploy_keys`, { title: 'mine', key: freshKey() });
    const enabled = await people.owner.client.post(`/projects/${target.id}/deploy_keys/${mine.body.id}/enable`);
    assert.deepEqual([enabled.status, enabled.body.id], [201, mine.body.id]);
    const foreign = await createProjectWorld(app, { roles: [], name: 'foreign' });
    const theirs = await foreign.owner.client.post(`/projects/${foreign.id}/deploy_keys`, { title: 'theirs', key: freshKey() });
    for (const id of [theirs.body.id, 999999]) {
      const refused = await people.owner.client.post(`/projects/${target.id}/deploy_keys/${id}/enable`);
      assert.deepEqual([refused.status, refused.body], [404, { message: '404 Deploy Key Not Found' }]);
    }
  });

  test('disable takes the key off the project (200) and keeps it; a key not enabled here is 404', async () => {
    const p = await anotherProject('disabling');
    const created = await people.owner.client.post(`/projects/${p.id}/deploy_keys`, { title: 'k', key: freshKey() });
    const developer = await people.developer.client.delete(`/projects/${p.id}/deploy_keys/${created.body.id}/disable`);
    assert.equal(developer.status, 403);
    const disabled = await people.master.client.delete(`/projects/${p.id}/deploy_keys/${created.body.id}/disable`);
    assert.deepEqual([disabled.status, disabled.body.id], [200, created.body.id]);
    assert.deepEqual((await people.owner.client.get(`/projects/${p.id}/deploy_keys`)).body, []);
    assert.ok((await app.root.get('/deploy_keys')).body.some((key: any) => key.id === created.body.id));
    const again = await people.master.client.delete(`/projects/${p.id}/deploy_keys/${created.body.id}/disable`);
    assert.deepEqual([again.status, again.body], [404, { message: '404 Deploy Key Not Found' }]);
  });
});

describe('DELETE /projects/:id/deploy_keys/:key_id', () => {
  test('removes the key (200, the raw record); unknown 404; a key other projects use stays theirs', async () => {
    const p = await anotherProject('deleting');
    const other = await anotherProject('still-using');
    const created = await people.owner.client.post(`/projects/${p.id}/deploy_keys`, { title: 'k', key: freshKey() });
    assert.equal((await people.owner.client.post(`/projects/${other.id}/deploy_keys/${created.body.id}/enable`)).status, 201);
    const removed = await people.master.client.delete(`/projects/${p.id}/deploy_keys/${created.body.id}`);
    assert.equal(removed.status, 200);
    assert.equal(removed.body.id, created.body.id);
    assert.equal(removed.body.user_id, null);
    assert.match(removed.body.fingerprint, /^([0-9a-f]{2}:){15}[0-9a-f]{2}$/);
    assert.deepEqual(
      (await people.owner.client.get(`/projects/${other.id}/deploy_keys`)).body.map((key: any) => key.id),
      [created.body.id],
    );
    const lastUse = await people.owner.client.delete(`/projects/${other.id}/keys/${created.body.id}`);
    assert.equal(lastUse.status, 200);
    assert.ok(!(await app.root.get('/deploy_keys')).body.some((key: any) => key.id === created.body.id));
    const unknown = await people.owner.client.delete(`/projects/${p.id}/deploy_keys/${created.body.id}`);
    assert.deepEqual([unknown.status, unknown.body], [404, { message: '404 Not found' }]);
  });

  test("a project's removal takes its links; the key itself stays (8.12)", async () => {
    const p = await anotherProject('doomed');
    const created = await people.owner.client.post(`/projects/${p.id}/deploy_keys`, { title: 'k', key: freshKey() });
    assert.equal((await people.owner.client.delete(`/projects/${p.id}`)).status, 200);
    const links = await app.ctx.db.selectFrom('deploy_keys_projects').selectAll().where('deploy_key_id', '=', created.body.id).execute();
    assert.deepEqual(links, []);
    assert.ok((await app.root.get('/deploy_keys')).body.some((key: any) => key.id === created.body.id));
  });
});
