import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createPeople, createProjectWorld, type People, type ProjectWorld, type Role } from '../../support/project-world';
import type { SeedCommit } from '../../support/repo';
import { HookListener } from '../../support/hook-listener';

/* Around merge requests: notes and the legacy comments, award emoji, subscriptions, todos, label counts. */

let app: TestApp;
let people: People<Role>;

const BRANCHES: SeedCommit[] = [
  { files: { 'README.md': 'hello\n' }, message: 'initial\n' },
  { branch: 'feature', startRef: 'master', files: { 'a.txt': 'a\n' }, message: 'add a\n' },
  { branch: 'feature2', startRef: 'master', files: { 'b.txt': 'b\n' }, message: 'add b\n' },
];

before(async () => {
  app = await startApp();
  people = await createPeople(app);
  await app.root.put(`/users/${people.owner.user.id}`, { projects_limit: 100 });
});
after(() => app.close());

const freshWorld = (roles: Role[] = ['developer', 'reporter', 'guest', 'stranger']) =>
  createProjectWorld(app, { people, roles, commits: BRANCHES });

async function opened(project: ProjectWorld<Role>, body: Record<string, unknown> = {}, client = project.owner.client) {
  const response = await client.post(`/projects/${project.id}/merge_requests`, {
    source_branch: 'feature',
    target_branch: 'master',
    title: 'A change',
    ...body,
  });
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return response.body;
}

const todosOf = async (client: any, query: Record<string, unknown> = {}) => {
  const response = await client.get('/todos', { per_page: 100, ...query });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body as any[];
};

describe('notes on merge requests', () => {
  test('list, create, update and delete; unknown merge request 404; strangers 404', async () => {
    const project = await freshWorld(['reporter', 'stranger']);
    const mr = await opened(project);
    const notes = `/projects/${project.id}/merge_requests/${mr.id}/notes`;
    const created = await project.reporter.client.post(notes, { body: 'Looks good' });
    assert.equal(created.status, 201);
    assert.equal(created.body.body, 'Looks good');
    assert.equal(created.body.noteable_type, 'MergeRequest');
    assert.equal(created.body.noteable_id, mr.id);
    assert.equal(created.body.author.username, project.reporter.user.username);
    const listed = await project.owner.client.get(notes);
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.map((note: any) => note.body),
      ['Looks good'],
    );
    assert.ok(listed.headers.get('x-total-pages'));
    assert.equal((await project.owner.client.get(`/projects/${project.id}/merge_requests/${mr.id}`)).body.user_notes_count, 1);
    assert.equal((await project.reporter.client.put(`${notes}/${created.body.id}`, { body: 'Hello!' })).body.body, 'Hello!');
    assert.equal((await project.reporter.client.put(`${notes}/${created.body.id}`, {})).status, 400);
    assert.equal((await project.owner.client.get(`/projects/${project.id}/merge_requests/99999999/notes`)).status, 404);
    assert.equal((await project.stranger.client.get(notes)).status, 404);
    assert.equal((await project.reporter.client.delete(`${notes}/${created.body.id}`)).status, 200);
    assert.equal((await project.reporter.client.delete(`${notes}/${created.body.id}`)).status, 404);
  });

  test('a comment records an event and reaches a Note Hook with the merge request', async () => {
    const project = await freshWorld(['developer']);
    const mr = await opened(project);
    const listener = await HookListener.start();
    try {
      await project.owner.client.post(`/projects/${project.id}/hooks`, { url: listener.url, note_events: true, push_events: false });
      const note = (await project.developer.client.post(`/projects/${project.id}/merge_requests/${mr.id}/notes`, { body: 'Hooked note' }))
        .body;
      const [hook] = await listener.waitForCount(1);
      assert.equal(hook.headers['x-gitlab-event'], 'Note Hook');
      assert.equal(hook.body.object_kind, 'note');
      assert.equal(hook.body.object_attributes.id, note.id);
      assert.equal(hook.body.object_attributes.noteable_type, 'MergeRequest');
      assert.match(hook.body.object_attributes.url, new RegExp(`/merge_requests/${mr.iid}#note_${note.id}$`));
      assert.equal(hook.body.merge_request.id, mr.id);
      assert.equal(hook.body.merge_request.iid, mr.iid);
      assert.equal(hook.body.merge_request.last_commit.id, project.shas[1]);
      assert.equal(hook.body.merge_request.source.path_with_namespace, project.path);
      assert.equal('url' in hook.body.merge_request, false);
    } finally {
      await listener.close();
    }
    const events = (await project.owner.client.get(`/projects/${project.id}/events`)).body;
    assert.ok(events.some((event: any) => event.action_name === 'commented on' && event.target_type === 'Note'));
  });

  test('an emoji-only note is an award on the merge request', async () => {
    const project = await freshWorld(['developer']);
    const mr = await opened(project);
    const award = await project.developer.client.post(`/projects/${project.id}/merge_requests/${mr.id}/notes`, { body: ':+1:' });
    assert.equal(award.status, 201);
    assert.equal(award.body.name, 'thumbsup');
    assert.equal(award.body.awardable_id, mr.id);
    assert.equal(award.body.awardable_type, 'MergeRequest');
    assert.equal((await project.owner.client.get(`/projects/${project.id}/merge_requests/${mr.id}`)).body.upvotes, 1);
  });
});

describe('legacy comments', () => {
  test('POST and GET …/comments, also on the singular path: MRNote, oldest first', async () => {
    const project = await freshWorld(['developer', 'stranger']);
    const mr = await opened(project);
    const comments = `/projects/${project.id}/merge_requests/${mr.id}/comments`;
    const first = await project.developer.client.post(comments, { note: 'My comment' });
    assert.equal(first.status, 201);
    assert.equal(first.body.note, 'My comment');
    assert.equal(first.body.author.username, project.developer.user.username);
    assert.equal(first.body.author.name, project.developer.user.name);
    // An emoji alone is a comment here, not an award.
    const emoji = await project.owner.client.post(`/projects/${project.id}/merge_request/${mr.id}/comments`, { note: ':tada:' });
    assert.equal(emoji.status, 201);
    assert.equal(emoji.body.note, ':tada:');
    const listed = await project.owner.client.get(comments);
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.map((comment: any) => comment.note),
      ['My comment', ':tada:'],
    );
    assert.deepEqual(Object.keys(listed.body[0]).sort(), ['author', 'note']);
    assert.deepEqual((await project.owner.client.get(`/projects/${project.id}/merge_request/${mr.id}/comments`)).body, listed.body);
    const missing = await project.owner.client.post(comments, {});
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { message: '400 (Bad request) "note" not given' });
    assert.equal((await project.owner.client.post(`/projects/${project.id}/merge_requests/99999999/comments`, { note: 'x' })).status, 404);
    assert.equal((await project.owner.client.get(`/projects/${project.id}/merge_requests/99999999/comments`)).status, 404);
    assert.equal((await project.stranger.client.get(comments)).status, 404);
  });
});

describe('award emoji on merge requests and their notes', () => {
  test('give, list, show and remove; the author cannot vote on their own', async () => {
    const project = await freshWorld(['developer', 'stranger']);
    const mr = await opened(project);
    const awards = `/projects/${project.id}/merge_requests/${mr.id}/award_emoji`;
    const own = await project.owner.client.post(awards, { name: 'thumbsup' });
    assert.equal(own.status, 404);
    const given = await project.developer.client.post(awards, { name: '+1' });
    assert.equal(given.status, 201);
    assert.equal(given.body.name, 'thumbsup');
    assert.equal(given.body.awardable_type, 'MergeRequest');
    const twice = await project.developer.client.post(awards, { name: 'thumbsup' });
    assert.equal(twice.status, 404);
    assert.match(twice.body.message, /has already been taken/);
    assert.deepEqual(
      (await project.owner.client.get(awards)).body.map((award: any) => award.name),
      ['thumbsup'],
    );
    assert.equal((await project.owner.client.get(`${awards}/${given.body.id}`)).body.awardable_id, mr.id);
    assert.equal((await project.stranger.client.get(awards)).status, 404);
    assert.equal((await project.owner.client.get(`/projects/${project.id}/merge_requests/99999999/award_emoji`)).status, 404);

    const note = (await project.owner.client.post(`/projects/${project.id}/merge_requests/${mr.id}/notes`, { body: 'a note' })).body;
    const noteAwards = `/projects/${project.id}/merge_requests/${mr.id}/notes/${note.id}/award_emoji`;
    assert.equal((await project.owner.client.post(noteAwards, { name: 'thumbsup' })).status, 404);
    const onNote = await project.developer.client.post(noteAwards, { name: 'blowfish' });
    assert.equal(onNote.status, 201);
    assert.equal(onNote.body.awardable_type, 'Note');
    assert.equal((await project.developer.client.delete(`${noteAwards}/${onNote.body.id}`)).status, 200);
    assert.equal((await project.developer.client.delete(`${awards}/${given.body.id}`)).status, 200);
    assert.deepEqual((await project.owner.client.get(awards)).body, []);
  });
});

describe('subscriptions to merge requests', () => {
  test("as 8.12's spec: admin subscribes 201, the author 304; unsubscribing; unknown 404", async () => {
    const project = await freshWorld([]);
    const mr = await opened(project);
    for (const base of ['merge_requests', 'merge_request']) {
      const path = `/projects/${project.id}/${base}/${mr.id}/subscription`;
      const subscribed = await app.root.post(path);
      assert.equal(subscribed.status, 201);
      assert.equal(subscribed.body.subscribed, true);
      assert.equal((await app.root.post(path)).status, 304);
      assert.equal((await app.root.delete(path)).body.subscribed, false);
      assert.equal((await app.root.delete(path)).status, 304);
    }
    const path = `/projects/${project.id}/merge_requests/${mr.id}/subscription`;
    assert.equal((await project.owner.client.post(path)).status, 304);
    const off = await project.owner.client.delete(path);
    assert.equal(off.status, 200);
    assert.equal(off.body.subscribed, false);
    assert.equal((await project.owner.client.get(`/projects/${project.id}/merge_requests/${mr.id}`)).body.subscribed, false);
    assert.equal((await app.root.post(`/projects/${project.id}/merge_requests/99999999/subscription`)).status, 404);
  });
});

describe('todos on merge requests', () => {
  test('assigned and mentioned on creation; type=MergeRequest filter; the target is the merge request', async () => {
    const project = await freshWorld(['developer', 'reporter', 'stranger']);
    const { developer, reporter, stranger } = project;
    const mr = await opened(project, {
      assignee_id: developer.user.id,
      description: `Ping @${reporter.user.username} and @${stranger.user.username}`,
    });
    const [assigned] = (await todosOf(developer.client)).filter((todo) => todo.target_type === 'MergeRequest' && todo.target.id === mr.id);
    assert.equal(assigned.action_name, 'assigned');
    assert.equal(assigned.target.iid, mr.iid);
    assert.equal(assigned.target.source_branch, 'feature');
    assert.equal(assigned.target_url, mr.web_url);
    assert.equal(assigned.body, 'A change');
    assert.equal(assigned.project.id, project.id);
    const mentioned = (await todosOf(reporter.client, { type: 'MergeRequest' })).filter((todo) => todo.target.id === mr.id);
    assert.deepEqual(
      mentioned.map((todo) => todo.action_name),
      ['mentioned'],
    );
    assert.deepEqual(await todosOf(reporter.client, { type: 'Issue' }), []);
    // A stranger cannot read the private project's merge requests.
    assert.equal((await todosOf(stranger.client)).length, 0);
  });

  test('a note mentioning someone makes a todo pointing at it; closing ends every pending todo on it', async () => {
    const project = await freshWorld(['developer', 'reporter']);
    const { developer, reporter } = project;
    const mr = await opened(project, { assignee_id: developer.user.id });
    const note = (
      await project.owner.client.post(`/projects/${project.id}/merge_requests/${mr.id}/notes`, {
        body: `@${reporter.user.username} have a look`,
      })
    ).body;
    const [fromNote] = await todosOf(reporter.client, { type: 'MergeRequest', project_id: project.id });
    assert.equal(fromNote.action_name, 'mentioned');
    assert.equal(fromNote.body, `@${reporter.user.username} have a look`);
    assert.equal(fromNote.target_url, `${mr.web_url}#note_${note.id}`);
    // The owner closes it: nobody is left with anything to do on it (8.12 ended only the closer's).
    await project.owner.client.put(`/projects/${project.id}/merge_requests/${mr.id}`, { state_event: 'close' });
    assert.deepEqual(await todosOf(developer.client, { project_id: project.id }), []);
    assert.deepEqual(await todosOf(reporter.client, { project_id: project.id }), []);
    assert.equal((await todosOf(developer.client, { state: 'done', project_id: project.id })).length, 1);
  });

  test('POST …/todo marks it for the caller: 201, then 304; unknown 404', async () => {
    const project = await freshWorld(['reporter', 'stranger']);
    const mr = await opened(project);
    const path = `/projects/${project.id}/merge_requests/${mr.id}/todo`;
    const marked = await project.reporter.client.post(path);
    assert.equal(marked.status, 201);
    assert.equal(marked.body.action_name, 'marked');
    assert.equal(marked.body.target_type, 'MergeRequest');
    assert.equal(marked.body.state, 'pending');
    assert.equal(marked.body.author.id, project.reporter.user.id);
    assert.equal(marked.body.target.id, mr.id);
    assert.equal((await project.reporter.client.post(path)).status, 304);
    assert.equal((await project.reporter.client.post(`/projects/${project.id}/merge_requests/99999999/todo`)).status, 404);
    assert.equal((await project.stranger.client.post(path)).status, 404);
    const all = await todosOf(project.reporter.client, { project_id: project.id });
    assert.deepEqual(
      all.map((todo) => todo.id),
      [marked.body.id],
    );
    assert.equal((await project.reporter.client.delete(`/todos/${marked.body.id}`)).body.state, 'done');
  });
});

describe('labels', () => {
  test('open_merge_requests_count counts the open merge requests carrying the label', async () => {
    const project = await freshWorld([]);
    const first = await opened(project, { labels: 'review' });
    await opened(project, { source_branch: 'feature2', title: 'Other', labels: 'review' });
    const count = async () =>
      (await project.owner.client.get(`/projects/${project.id}/labels`)).body.find((label: any) => label.name === 'review')
        .open_merge_requests_count;
    assert.equal(await count(), 2);
    await project.owner.client.put(`/projects/${project.id}/merge_requests/${first.id}`, { state_event: 'close' });
    assert.equal(await count(), 1);
  });
});
