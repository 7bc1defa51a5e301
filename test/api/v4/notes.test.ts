import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import type { ApiClient } from '../../support/client';
import { createRootProject, seedCommit } from '../../support/repo';

describe('API v4: notes and award emoji on issues, merge requests and snippets', () => {
  let app: TestApp;
  let root: ApiClient;
  /** A developer of the project: authors may not vote on their own issues. */
  let developer: ApiClient;
  let project: { id: number };
  let issue: { id: number; iid: number };
  let mr: { id: number; iid: number };
  let snippet: { id: number };

  before(async () => {
    app = await startApp();
    root = app.root.v4();
    project = await createRootProject(app, 'noted');
    const member = await app.createUser();
    developer = member.client.v4();
    assert.equal((await app.root.post(`/projects/${project.id}/members`, { user_id: member.user.id, access_level: 30 })).status, 201);
    // A first issue, so that the next one's iid differs from its id in any database.
    await root.post(`/projects/${project.id}/issues`, { title: 'padding' });
    issue = (await root.post(`/projects/${project.id}/issues`, { title: 'talk about it' })).body;
    await seedCommit(app, project.id, { branch: 'topic', startRef: 'refs/heads/master', files: { 't.txt': 't\n' } });
    mr = (await root.post(`/projects/${project.id}/merge_requests`, { source_branch: 'topic', target_branch: 'master', title: 'Topic' }))
      .body;
    snippet = (await root.post(`/projects/${project.id}/snippets`, { title: 's', file_name: 's.txt', code: 'x', visibility: 'private' }))
      .body;
  });
  after(async () => app?.close());

  const noteables = () => [
    { name: 'issue', path: `/projects/${project.id}/issues/${issue.iid}`, id: issue.id, iid: issue.iid as number | null },
    { name: 'merge request', path: `/projects/${project.id}/merge_requests/${mr.iid}`, id: mr.id, iid: mr.iid as number | null },
    { name: 'snippet', path: `/projects/${project.id}/snippets/${snippet.id}`, id: snippet.id, iid: null },
  ];

  describe('…/notes', () => {
    test('create, read, list, update and delete a note on each noteable, by iid', async () => {
      for (const noteable of noteables()) {
        const created = await root.post(`${noteable.path}/notes`, { body: `about the ${noteable.name}` });
        assert.equal(created.status, 201, `${noteable.name}: ${JSON.stringify(created.body)}`);
        assert.equal(created.body.noteable_id, noteable.id);
        assert.equal(created.body.noteable_iid, noteable.iid);
        assert.equal('upvote' in created.body, false);
        const found = await root.get(`${noteable.path}/notes/${created.body.id}`);
        assert.equal(found.status, 200);
        assert.equal(found.body.body, `about the ${noteable.name}`);
        const list = await root.get(`${noteable.path}/notes`);
        assert.equal(list.status, 200);
        assert.ok(list.body.some((note: { id: number }) => note.id === created.body.id));
        assert.ok(list.headers.get('x-total'));
        const updated = await root.put(`${noteable.path}/notes/${created.body.id}`, { body: 'changed' });
        assert.equal(updated.body.body, 'changed');
        assert.equal((await root.delete(`${noteable.path}/notes/${created.body.id}`)).status, 204);
        assert.equal((await root.get(`${noteable.path}/notes/${created.body.id}`)).status, 404);
      }
    });

    test('notes of a missing issue or merge request are 404; a blank body is 400', async () => {
      assert.equal((await root.get(`/projects/${project.id}/issues/9999/notes`)).status, 404);
      assert.equal((await root.post(`/projects/${project.id}/merge_requests/9999/notes`, { body: 'x' })).status, 404);
      assert.equal((await root.post(`/projects/${project.id}/issues/${issue.iid}/notes`, { body: '' })).status, 400);
    });

    test('sort=desc lists newest first', async () => {
      const first = (await root.post(`/projects/${project.id}/issues/${issue.iid}/notes`, { body: 'one' })).body;
      const second = (await root.post(`/projects/${project.id}/issues/${issue.iid}/notes`, { body: 'two' })).body;
      const list = await root.get(`/projects/${project.id}/issues/${issue.iid}/notes`, { sort: 'desc' });
      const ids = list.body.map((note: { id: number }) => note.id);
      assert.ok(ids.indexOf(second.id) < ids.indexOf(first.id));
    });

    test('a note of slash commands only answers 202 and runs them', async () => {
      const answer = await root.post(`/projects/${project.id}/issues/${issue.iid}/notes`, { body: '/close' });
      assert.equal(answer.status, 202);
      assert.equal(answer.body.commands_changes.state_event, 'close');
      assert.equal((await root.get(`/projects/${project.id}/issues/${issue.iid}`)).body.state, 'closed');
    });
  });

  describe('…/award_emoji', () => {
    test('award, list, read and remove on each awardable and on a note; upvotes count', async () => {
      for (const noteable of noteables()) {
        const award = await developer.post(`${noteable.path}/award_emoji`, { name: 'thumbsup' });
        assert.equal(award.status, 201, `${noteable.name}: ${JSON.stringify(award.body)}`);
        assert.equal(award.body.awardable_id, noteable.id);
        const list = await root.get(`${noteable.path}/award_emoji`);
        assert.deepEqual(
          list.body.map((each: { id: number }) => each.id),
          [award.body.id],
        );
        assert.equal((await root.get(`${noteable.path}/award_emoji/${award.body.id}`)).body.name, 'thumbsup');
        if (noteable.iid !== null) assert.equal((await root.get(noteable.path)).body.upvotes, 1);
        const note = (await root.post(`${noteable.path}/notes`, { body: 'a note' })).body;
        const onNote = await developer.post(`${noteable.path}/notes/${note.id}/award_emoji`, { name: 'tada' });
        assert.equal(onNote.status, 201);
        assert.equal(onNote.body.awardable_type, 'Note');
        assert.equal((await developer.delete(`${noteable.path}/notes/${note.id}/award_emoji/${onNote.body.id}`)).status, 204);
        assert.equal((await root.delete(`${noteable.path}/award_emoji/${award.body.id}`)).status, 204, 'an administrator removes it');
        assert.deepEqual((await root.get(`${noteable.path}/award_emoji`)).body, []);
      }
    });
  });
});
