import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createIssue } from '../../support/create';
import { createPeople, createProjectWorld, type People, type ProjectWorld, type Role } from '../../support/project-world';
import { VISIBILITY_LEVELS } from '../../support/access-matrix';

/* System notes of issue changes, written as GitLab 8.12's SystemNoteService wrote them. */

let app: TestApp;
let people: People<Role>;
let world: ProjectWorld<Role>;

before(async () => {
  app = await startApp();
  people = await createPeople(app);
  world = await createProjectWorld(app, { people, visibility: VISIBILITY_LEVELS.private });
});
after(() => app.close());

const newIssue = (fields: Record<string, unknown> = {}) => createIssue(world.owner.client, world, { title: 'Old title', ...fields });

async function systemNotes(issueId: number, projectId = world.id) {
  const response = await world.owner.client.get(`/projects/${projectId}/issues/${issueId}/notes`);
  assert.equal(response.status, 200);
  return response.body.filter((note: any) => note.system);
}

const change = (issueId: number, fields: Record<string, unknown>) =>
  world.owner.client.put(`/projects/${world.id}/issues/${issueId}`, fields);

describe('system notes', () => {
  test('state, title, labels, milestone, assignee and confidentiality, in 8.12 order, by the actor', async () => {
    const milestone = (await world.owner.client.post(`/projects/${world.id}/milestones`, { title: 'v1' })).body;
    const issue = await newIssue({ labels: 'a' });
    assert.equal(
      (
        await change(issue.id, {
          state_event: 'close',
          title: 'New title',
          labels: 'b,c',
          milestone_id: milestone.id,
          assignee_id: world.developer.user.id,
          confidential: true,
        })
      ).status,
      200,
    );
    // The labels API shows no ids; the notes name labels by id.
    const rows = await app.ctx.db.selectFrom('labels').select(['id', 'title']).where('project_id', '=', world.id).execute();
    const ids = Object.fromEntries(rows.map((label) => [label.title, label.id]));
    const notes = await systemNotes(issue.id);
    assert.deepEqual(
      notes.map((note: any) => note.body),
      [
        'Status changed to closed',
        'Changed title: **{-Old-} title** → **{+New+} title**',
        `Added ~${ids.b} ~${ids.c} and removed ~${ids.a} labels`,
        `Milestone changed to %${milestone.iid}`,
        `Reassigned to @${world.developer.user.username}`,
        'Made the issue confidential',
      ],
    );
    for (const note of notes) {
      assert.equal(note.author.username, world.owner.user.username);
      assert.equal(note.noteable_type, 'Issue');
    }
    await change(issue.id, { state_event: 'reopen', labels: '', milestone_id: 0, assignee_id: 0, confidential: false });
    assert.deepEqual(
      (await systemNotes(issue.id)).slice(6).map((note: any) => note.body),
      [
        'Status changed to reopened',
        `Removed ~${ids.b} ~${ids.c} labels`,
        'Milestone removed',
        'Assignee removed',
        'Made the issue visible',
      ],
    );
    await change(issue.id, { labels: 'a' });
    assert.equal((await systemNotes(issue.id)).at(-1).body, `Added ~${ids.a} label`);
    // A change that changes nothing writes nothing.
    await change(issue.id, { labels: 'a', title: 'New title' });
    assert.equal((await systemNotes(issue.id)).length, 12);
  });

  test('a title change marks only what differs', async () => {
    const issue = await newIssue({ title: 'abc' });
    await change(issue.id, { title: 'abcd' });
    assert.equal((await systemNotes(issue.id))[0].body, 'Changed title: **abc** → **abc{+d+}**');
  });

  test('a mention of another issue of the project, from a description or a comment, once', async () => {
    const target = await newIssue({ title: 'Target' });
    const mentioner = await newIssue({ title: 'Mentioner', description: `see #${target.iid} and #${target.iid}` });
    const commenter = await newIssue({ title: 'Commenter' });
    await world.owner.client.post(`/projects/${world.id}/issues/${commenter.id}/notes`, {
      body: `also #${target.iid}, not #${commenter.iid}`,
    });
    await change(mentioner.id, { description: `still #${target.iid}` });
    assert.deepEqual(
      (await systemNotes(target.id)).map((note: any) => note.body),
      [`mentioned in issue #${mentioner.iid}`, `mentioned in issue #${commenter.iid}`],
    );
    assert.equal((await systemNotes(commenter.id)).length, 0);
  });

  test('a mention from a confidential issue is hidden from those who may not see it', async () => {
    const target = await newIssue({ title: 'Public target' });
    const secret = await newIssue({ title: 'Secret', confidential: true, description: `about #${target.iid}` });
    const notes = (await world.reporter.client.get(`/projects/${world.id}/issues/${target.id}/notes`)).body;
    const reference = notes.find((note: any) => note.body === `mentioned in issue #${secret.iid}`);
    assert.ok(reference);
    assert.equal((await world.guest.client.get(`/projects/${world.id}/issues/${target.id}/notes`)).body.length, 0);
    const one = await world.guest.client.get(`/projects/${world.id}/issues/${target.id}/notes/${reference.id}`);
    assert.equal(one.status, 404);
    assert.deepEqual(one.body, { message: '404 Note Not Found' });
  });

  test('a move copies the notes and writes Moved to and Moved from', async () => {
    const elsewhere = await createProjectWorld(app, { people, roles: [] });
    const issue = await newIssue({ title: 'Moving' });
    await world.owner.client.post(`/projects/${world.id}/issues/${issue.id}/notes`, { body: 'before the move' });
    const moved = (await world.owner.client.post(`/projects/${world.id}/issues/${issue.id}/move`, { to_project_id: elsewhere.id })).body;
    const copied = (await world.owner.client.get(`/projects/${elsewhere.id}/issues/${moved.id}/notes`)).body;
    assert.deepEqual(
      copied.map((note: any) => [note.body, note.system]),
      [
        ['before the move', false],
        [`Moved from ${world.path}#${issue.iid}`, true],
      ],
    );
    assert.deepEqual(
      (await systemNotes(issue.id)).map((note: any) => note.body),
      [`Moved to ${elsewhere.path}#${moved.iid}`],
    );
  });

  test('system notes record no event', async () => {
    const issue = await newIssue({ title: 'Quiet' });
    await change(issue.id, { title: 'Quieter' });
    const events = (await world.owner.client.get(`/projects/${world.id}/events`)).body;
    assert.equal(events.filter((event: any) => event.action_name === 'commented on' && event.note?.noteable_id === issue.id).length, 0);
  });
});
