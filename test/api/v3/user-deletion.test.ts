import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startApp, type TestApp } from '../../support/app';
import { seedCommit } from '../../support/repo';
import { eventually } from '../../support/eventually';
import { publicKeys } from '../../fixtures/ssh-keys';
import { HookListener } from '../../support/hook-listener';
import { repoPathOf } from '../../../src/services/repository/repositories';

let app: TestApp;
let listener: HookListener;
before(async () => {
  app = await startApp();
  listener = await HookListener.start();
});
after(async () => {
  await listener.close();
  await app.close();
});

const sshKey = Object.entries(publicKeys).find(([name]) => name.startsWith('ed25519-'))![1].key;

describe('DELETE /users/:id of a user with a history', () => {
  test('removes the user, their personal projects and their traces in one go; other projects stay', async () => {
    const doomed = await app.createUser();
    const other = await app.createUser();
    const id = doomed.user.id as number;

    // Projects an administrator created for them, one with a commit, a hook and a fork of it by someone else.
    const personal = await app.root.post(`/projects/user/${id}`, { name: 'made-for-them', visibility_level: 20 });
    assert.equal(personal.status, 201, JSON.stringify(personal.body));
    const second = await app.root.post(`/projects/user/${id}`, { name: 'another-one' });
    assert.equal(second.status, 201, JSON.stringify(second.body));
    await seedCommit(app, personal.body.id, { files: { 'README.md': 'hello\n' } });
    assert.equal((await doomed.client.post(`/projects/${personal.body.id}/hooks`, { url: 'http://127.0.0.1:9/hook' })).status, 201);
    const fork = await other.client.post(`/projects/fork/${personal.body.id}`);
    assert.equal(fork.status, 201, JSON.stringify(fork.body));

    // Someone else's project where they are a developer, with their star, comment, status and events.
    const shared = await other.client.post('/projects', { name: 'theirs', visibility_level: 0 });
    const sha = await seedCommit(app, shared.body.id, { files: { 'a.txt': 'a\n' } });
    assert.equal((await other.client.post(`/projects/${shared.body.id}/members`, { user_id: id, access_level: 30 })).status, 201);
    assert.equal((await doomed.client.post(`/projects/${shared.body.id}/star`)).status, 201);
    assert.equal(
      (await doomed.client.post(`/projects/${shared.body.id}/repository/commits/${sha}/comments`, { note: 'mine' })).status,
      201,
    );
    assert.equal(
      (await other.client.post(`/projects/${shared.body.id}/repository/commits/${sha}/comments`, { note: 'yours' })).status,
      201,
    );
    assert.equal((await doomed.client.post(`/projects/${shared.body.id}/statuses/${sha}`, { state: 'success', name: 'ci' })).status, 201);
    const files = await doomed.client.post(`/projects/${shared.body.id}/repository/files`, {
      file_path: 'b.txt',
      branch_name: 'master',
      content: 'b',
      commit_message: 'b',
    });
    assert.equal(files.status, 201, JSON.stringify(files.body));

    // Their account: a key, a second e-mail, a group access request.
    assert.equal((await app.root.post(`/users/${id}/keys`, { title: 'laptop', key: sshKey })).status, 201);
    assert.equal((await app.root.post(`/users/${id}/emails`, { email: 'second@example.com' })).status, 201);
    const group = await other.client.post('/groups', { name: 'guild', path: 'guild', visibility_level: 20 });
    assert.equal(group.status, 201, JSON.stringify(group.body));
    assert.equal((await doomed.client.post(`/groups/${group.body.id}/access_requests`)).status, 201);

    // A system hook from here on hears only the deletion.
    assert.equal((await app.root.post('/hooks', { url: listener.url })).status, 201);
    const response = await app.root.delete(`/users/${id}`);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.equal(response.body.email, doomed.user.email);
    const heard = await eventually(() => listener.received.length >= 5 && listener.received, { message: 'five system hooks' });
    assert.deepEqual(heard.map((hook) => hook.body.event_name).sort(), [
      'key_destroy',
      'project_destroy',
      'project_destroy',
      'user_destroy',
      'user_remove_from_team',
    ]);
    const left = heard.find((hook) => hook.body.event_name === 'user_remove_from_team')!.body;
    assert.deepEqual([left.project_id, left.user_id, left.access_level], [shared.body.id, id, 'Developer']);

    assert.equal((await app.root.get(`/users/${id}`)).status, 404);
    assert.equal((await app.root.get(`/projects/${personal.body.id}`)).status, 404);
    assert.equal((await app.root.get(`/projects/${second.body.id}`)).status, 404);
    const db = app.ctx.db;
    assert.equal(await db.selectFrom('namespaces').select('id').where('path', '=', doomed.user.username).executeTakeFirst(), undefined);
    for (const table of ['members', 'keys', 'emails', 'stars', 'identities'] as const) {
      assert.deepEqual(await db.selectFrom(table).select('id').where('user_id', '=', id).execute(), [], table);
    }
    assert.deepEqual(await db.selectFrom('hooks').select('id').where('project_id', '=', personal.body.id).execute(), []);
    // As GitLab 8.12: what they wrote (comments, activity) goes with them.
    assert.deepEqual(await db.selectFrom('notes').select('id').where('author_id', '=', id).execute(), []);
    assert.deepEqual(await db.selectFrom('events').select('id').where('author_id', '=', id).execute(), []);
    await eventually(() => !fs.existsSync(repoPathOf(app.ctx, personal.body.id)), { message: 'the repository is removed' });

    // The other user's projects stay, whole and readable.
    const theirs = await other.client.get(`/projects/${shared.body.id}`);
    assert.equal(theirs.status, 200);
    assert.equal(theirs.body.star_count, 0);
    const forked = await other.client.get(`/projects/${fork.body.id}`);
    assert.equal(forked.status, 200);
    assert.equal(forked.body.forked_from_project, undefined);
    const comments = await other.client.get(`/projects/${shared.body.id}/repository/commits/${sha}/comments`);
    assert.deepEqual(
      comments.body.map((note: any) => note.note),
      ['yours'],
    );
    const statuses = await other.client.get(`/projects/${shared.body.id}/repository/commits/${sha}/statuses`);
    assert.equal(statuses.status, 200);
    assert.deepEqual(
      statuses.body.map((status: any) => [status.name, status.author]),
      [['ci', null]],
    );
    assert.equal((await other.client.get(`/projects/${shared.body.id}/events`)).status, 200);
    assert.equal((await other.client.get(`/groups/${group.body.id}/access_requests`)).body.length, 0);
    assert.equal(
      (await other.client.get(`/projects/${shared.body.id}/members`)).body.some((member: any) => member.id === id),
      false,
    );
  });
});
