import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createIssue } from '../../support/create';
import { createPeople, createProjectWorld, type People, type ProjectWorld, type Role } from '../../support/project-world';
import type { SeedCommit } from '../../support/repo';
import { VISIBILITY_LEVELS } from '../../support/access-matrix';

/* Slash commands (GitLab 8.12's SlashCommands::InterpretService) in notes and descriptions, over HTTP. */

let app: TestApp;
let people: People<Role>;
let world: ProjectWorld<Role>;
let milestone: any;

const COMMITS: SeedCommit[] = [
  { files: { 'README.md': 'hello\n' }, message: 'initial\n' },
  { branch: 'feature', startRef: 'master', files: { 'a.txt': 'a\n' }, message: 'add a\n' },
  { branch: 'feature2', startRef: 'master', files: { 'b.txt': 'b\n' }, message: 'add b\n' },
  { branch: 'feature3', startRef: 'master', files: { 'c.txt': 'c\n' }, message: 'add c\n' },
];

before(async () => {
  app = await startApp();
  people = await createPeople(app);
  // Internal: a guest of a private project may not read its merge requests at all (404), and the guest rows here are about commands ignored.
  world = await createProjectWorld(app, { people, visibility: VISIBILITY_LEVELS.internal, commits: COMMITS });
  for (const name of ['a', 'b c'])
    assert.equal((await world.owner.client.post(`/projects/${world.id}/labels`, { name, color: '#FF0000' })).status, 201);
  milestone = (await world.owner.client.post(`/projects/${world.id}/milestones`, { title: 'v1' })).body;
});
after(() => app.close());

const base = () => `/projects/${world.id}`;

const newIssue = (fields: Record<string, unknown> = {}, client = world.owner.client) =>
  createIssue(client, world, { title: 'Old title', ...fields });

async function newMergeRequest(sourceBranch: string, fields: Record<string, unknown> = {}) {
  const response = await world.owner.client.post(`${base()}/merge_requests`, {
    source_branch: sourceBranch,
    target_branch: 'master',
    title: 'A change',
    ...fields,
  });
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return response.body;
}

const issue = async (id: number, client = world.owner.client) => (await client.get(`${base()}/issues/${id}`)).body;
const mergeRequest = async (id: number, client = world.owner.client) => (await client.get(`${base()}/merge_requests/${id}`)).body;

async function notesOf(kind: 'issues' | 'merge_requests', id: number) {
  const response = await world.owner.client.get(`${base()}/${kind}/${id}/notes`, { per_page: 100 });
  assert.equal(response.status, 200);
  return response.body as any[];
}
const systemNoteBodies = async (kind: 'issues' | 'merge_requests', id: number) =>
  (await notesOf(kind, id)).filter((note) => note.system).map((note) => note.body);

function note(kind: 'issues' | 'merge_requests', id: number, body: string, client = world.master.client) {
  return client.post(`${base()}/${kind}/${id}/notes`, { body });
}

describe('slash commands in notes on issues', () => {
  test('a note runs its commands, is saved without them, and the changes write what the same change through the API writes', async () => {
    const developer = world.developer.user.username;
    const target = await newIssue();
    const twin = await newIssue();
    const body = [
      'Looks good',
      '/close',
      '/title New title',
      `/assign @${developer}`,
      '/milestone %v1',
      '/label ~a ~"b c"',
      '/due 2026-12-31',
      '/todo',
    ].join('\n');
    const created = await note('issues', target.id, body);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.body, 'Looks good');

    const after = await issue(target.id);
    assert.equal(after.state, 'closed');
    assert.equal(after.title, 'New title');
    assert.equal(after.assignee.username, developer);
    assert.equal(after.milestone.id, milestone.id);
    assert.deepEqual(after.labels, ['a', 'b c']);
    assert.equal(after.due_date, '2026-12-31');
    const todos = (await world.master.client.get('/todos')).body;
    assert.ok(
      todos.some((todo: any) => todo.target_type === 'Issue' && todo.target.id === target.id && todo.action_name === 'marked'),
      JSON.stringify(todos),
    );

    // The same change through the API, on a twin issue, writes the same system notes.
    const put = await world.master.client.put(`${base()}/issues/${twin.id}`, {
      state_event: 'close',
      title: 'New title',
      assignee_id: world.developer.user.id,
      milestone_id: milestone.id,
      labels: 'a,b c',
      due_date: '2026-12-31',
    });
    assert.equal(put.status, 200);
    const notes = await notesOf('issues', target.id);
    assert.equal(notes[0].body, 'Looks good', 'the note comes before the notes of its commands');
    assert.ok(notes.filter((row) => row.system).length >= 5);
    assert.deepEqual(await systemNoteBodies('issues', target.id), await systemNoteBodies('issues', twin.id));
    for (const row of notes.filter((row) => row.system)) assert.equal(row.author.username, world.master.user.username);
    // The closing is an event, as through the API.
    const events = (await world.owner.client.get(`${base()}/events`)).body;
    assert.ok(
      events.some((event: any) => event.action_name === 'closed' && event.target_id === target.id),
      JSON.stringify(events),
    );
  });

  test('a note of commands only makes no note and answers 202 with what changed', async () => {
    const target = await newIssue({
      assignee_id: world.developer.user.id,
      milestone_id: milestone.id,
      labels: 'a,b c',
      due_date: '2026-12-31',
    });
    await world.owner.client.put(`${base()}/issues/${target.id}`, { state_event: 'close' });
    await world.master.client.post(`${base()}/issues/${target.id}/todo`);
    const before = (await notesOf('issues', target.id)).length;
    const response = await note('issues', target.id, '/reopen\n/unassign\n/remove_milestone\n/unlabel ~a\n/remove_due_date\n/done');
    assert.equal(response.status, 202, JSON.stringify(response.body));
    const labelA = (
      await app.ctx.db
        .selectFrom('labels')
        .select('id')
        .where('project_id', '=', world.id)
        .where('title', '=', 'a')
        .executeTakeFirstOrThrow()
    ).id;
    assert.deepEqual(response.body.commands_changes, {
      state_event: 'reopen',
      assignee_id: null,
      milestone_id: null,
      remove_label_ids: [labelA],
      due_date: null,
      todo_event: 'done',
    });
    assert.ok(
      Array.isArray(response.body.summary) && response.body.summary.includes('Reopened this issue.'),
      JSON.stringify(response.body),
    );
    const notes = await notesOf('issues', target.id);
    assert.equal(notes.filter((row) => !row.system).length, 0, 'no note was made');
    assert.ok(notes.length > before, 'the changes wrote their system notes');
    const after = await issue(target.id);
    assert.equal(after.state, 'reopened');
    assert.equal(after.assignee, null);
    assert.equal(after.milestone, null);
    assert.deepEqual(after.labels, ['b c']);
    assert.equal(after.due_date, null);
    const pending = (await world.master.client.get('/todos')).body;
    assert.ok(!pending.some((todo: any) => todo.target.id === target.id), 'the todo is done');

    // /relabel replaces, /unlabel alone removes them all.
    assert.equal((await note('issues', target.id, '/relabel ~a')).status, 202);
    assert.deepEqual((await issue(target.id)).labels, ['a']);
    assert.equal((await note('issues', target.id, '/unlabel')).status, 202);
    assert.deepEqual((await issue(target.id)).labels, []);
  });

  test('/subscribe and /unsubscribe, for anyone who reads the issue', async () => {
    const target = await newIssue();
    const reporter = world.reporter.client;
    const subscribed = await note('issues', target.id, '/subscribe', reporter);
    assert.equal(subscribed.status, 202);
    assert.deepEqual(subscribed.body.commands_changes, { subscription_event: 'subscribe' });
    assert.equal((await issue(target.id, reporter)).subscribed, true);
    assert.equal((await note('issues', target.id, '/unsubscribe', reporter)).status, 202);
    assert.equal((await issue(target.id, reporter)).subscribed, false);
  });

  test("a guest's commands on someone else's issue are ignored, but taken out of the note; their own todo runs", async () => {
    const target = await newIssue();
    const guest = world.guest.client;
    const body = [
      'please',
      '/close',
      '/title Mine now',
      `/assign @${world.guest.user.username}`,
      '/label ~a',
      '/milestone %v1',
      '/due tomorrow',
    ].join('\n');
    const created = await note('issues', target.id, body, guest);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.body, 'please');
    const after = await issue(target.id);
    assert.equal(after.state, 'opened');
    assert.equal(after.title, 'Old title');
    assert.equal(after.assignee, null);
    assert.deepEqual(after.labels, []);
    assert.equal(after.milestone, null);
    assert.equal(after.due_date, null);
    assert.deepEqual(await systemNoteBodies('issues', target.id), []);
    // Commands only, none allowed: 202 and nothing changed.
    const refused = await note('issues', target.id, '/close', guest);
    assert.equal(refused.status, 202);
    assert.deepEqual(refused.body.commands_changes, {});
    assert.equal((await issue(target.id)).state, 'opened');
    const todo = await note('issues', target.id, '/todo', guest);
    assert.deepEqual(todo.body.commands_changes, { todo_event: 'add' });
    assert.equal((await world.guest.client.get('/todos')).body.filter((row: any) => row.target.id === target.id).length, 1);
  });

  test('an issue author below reporter may close and retitle their own issue', async () => {
    const own = await newIssue({}, world.guest.client);
    assert.equal((await note('issues', own.id, '/close\n/title Done', world.guest.client)).status, 202);
    const after = await issue(own.id);
    assert.equal(after.state, 'closed');
    assert.equal(after.title, 'Done');
  });

  test('a command in a code block, a quote, mid-line or in another case is text', async () => {
    const target = await newIssue();
    const body = '```\n/close\n```\n>>>\n/close\n>>>\nthen /close\n/Close';
    const created = await note('issues', target.id, body);
    assert.equal(created.status, 201);
    assert.equal(created.body.body, body);
    assert.equal((await issue(target.id)).state, 'opened');
  });

  test('a confidential issue the caller may not read answers as the notes do, and nothing runs', async () => {
    const target = await newIssue({ confidential: true });
    const response = await note('issues', target.id, '/close', world.guest.client);
    assert.equal(response.status, 404);
    assert.equal((await issue(target.id)).state, 'opened');
  });
});

describe('slash commands in issue descriptions', () => {
  test('on create: /assign, /milestone, /label and /due run; the others are taken out and ignored', async () => {
    const developer = world.developer.user.username;
    const description = ['The body', `/assign @${developer}`, '/milestone %"v1"', '/label ~a', '/due 2026-12-31', '/close', '/todo'].join(
      '\n',
    );
    const created = await newIssue({ description }, world.master.client);
    assert.equal(created.description, 'The body');
    assert.equal(created.assignee.username, developer);
    assert.equal(created.milestone.id, milestone.id);
    assert.deepEqual(created.labels, ['a']);
    assert.equal(created.due_date, '2026-12-31');
    assert.equal(created.state, 'opened');
  });

  test('on update: the commands join the change', async () => {
    const target = await newIssue({ labels: 'a' });
    const response = await world.master.client.put(`${base()}/issues/${target.id}`, {
      description: 'New body\n/close\n/title T2\n/unlabel\n/subscribe',
    });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.equal(response.body.description, 'New body');
    assert.equal(response.body.state, 'closed');
    assert.equal(response.body.title, 'T2');
    assert.deepEqual(response.body.labels, []);
    assert.equal(response.body.subscribed, true);
    const notes = await systemNoteBodies('issues', target.id);
    assert.ok(notes.includes('Status changed to closed') && notes.some((body) => body.startsWith('Changed title:')), JSON.stringify(notes));
  });

  test("a guest's description commands on create are ignored", async () => {
    const created = await newIssue({ description: `Mine\n/assign @${world.guest.user.username}\n/label ~a` }, world.guest.client);
    assert.equal(created.description, 'Mine');
    assert.equal(created.assignee, null);
    assert.deepEqual(created.labels, []);
  });
});

describe('slash commands on merge requests', () => {
  test('a note: /wip, /label, /assign, /close, with the system notes of the same change through the API', async () => {
    const developer = world.developer.user.username;
    const target = await newMergeRequest('feature');
    const twin = await newMergeRequest('feature2');
    const created = await note(
      'merge_requests',
      target.id,
      `Review\n/wip\n/label ~a\n/assign @${developer}\n/milestone %v1\n/close`,
      world.developer.client,
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.body, 'Review');
    const after = await mergeRequest(target.id);
    assert.equal(after.title, 'WIP: A change');
    assert.equal(after.work_in_progress, true);
    assert.deepEqual(after.labels, ['a']);
    assert.equal(after.assignee.username, developer);
    assert.equal(after.milestone.id, milestone.id);
    assert.equal(after.state, 'closed');
    const put = await world.developer.client.put(`${base()}/merge_requests/${twin.id}`, {
      title: 'WIP: A change',
      labels: 'a',
      assignee_id: world.developer.user.id,
      milestone_id: milestone.id,
      state_event: 'close',
    });
    assert.equal(put.status, 200);
    assert.deepEqual(await systemNoteBodies('merge_requests', target.id), await systemNoteBodies('merge_requests', twin.id));
    assert.ok((await systemNoteBodies('merge_requests', target.id)).length >= 3);

    // Commands only: /wip again takes the mark away; /due is for issues and is ignored.
    const toggled = await note('merge_requests', target.id, '/wip\n/reopen\n/due tomorrow', world.developer.client);
    assert.equal(toggled.status, 202, JSON.stringify(toggled.body));
    assert.deepEqual(toggled.body.commands_changes, { wip_event: 'unwip', state_event: 'reopen' });
    const reopened = await mergeRequest(target.id);
    assert.equal(reopened.title, 'A change');
    assert.equal(reopened.state, 'reopened');
    await world.owner.client.put(`${base()}/merge_requests/${target.id}`, { state_event: 'close' });
  });

  test("a guest's /close and /wip on a merge request are ignored", async () => {
    const target = await newMergeRequest('feature3');
    const response = await note('merge_requests', target.id, '/close\n/wip\n/label ~a', world.guest.client);
    assert.equal(response.status, 202);
    assert.deepEqual(response.body.commands_changes, {});
    const after = await mergeRequest(target.id);
    assert.equal(after.state, 'opened');
    assert.equal(after.title, 'A change');
    await world.owner.client.put(`${base()}/merge_requests/${target.id}`, { state_event: 'close' });
  });

  test('the legacy comments route runs commands too, and a comment of commands only is 202', async () => {
    const target = await newMergeRequest('feature3');
    const response = await world.developer.client.post(`${base()}/merge_requests/${target.id}/comments`, { note: '/label ~"b c"' });
    assert.equal(response.status, 202, JSON.stringify(response.body));
    assert.deepEqual((await mergeRequest(target.id)).labels, ['b c']);
    await world.owner.client.put(`${base()}/merge_requests/${target.id}`, { state_event: 'close' });
  });

  test('descriptions: commands on create and on update', async () => {
    const developer = world.developer.user.username;
    const created = await newMergeRequest('feature3', { description: `Desc\n/label ~a\n/assign @${developer}\n/wip` });
    assert.equal(created.description, 'Desc');
    assert.deepEqual(created.labels, ['a']);
    assert.equal(created.assignee.username, developer);
    assert.equal(created.title, 'A change', '/wip needs a merge request that exists');
    const updated = await world.developer.client.put(`${base()}/merge_requests/${created.id}`, {
      description: 'Desc 2\n/wip\n/relabel ~"b c"',
    });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal(updated.body.description, 'Desc 2');
    assert.equal(updated.body.title, 'WIP: A change');
    assert.deepEqual(updated.body.labels, ['b c']);
  });
});
