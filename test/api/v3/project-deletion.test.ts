import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createPeople, type People } from '../../support/project-world';
import type { ApiResponse } from '../../support/client';

let app: TestApp;
before(async () => {
  app = await startApp();
});
after(() => app.close());

const db = () => app.ctx.db;

function created(response: ApiResponse): any {
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return response.body;
}

/**
 * A project holding one of each collaboration record: a labelled, milestoned, assigned issue with a
 * note, award emoji on both, the developer's subscriptions and todos, and a snippet with a note and awards.
 */
async function seedCollaboration(people: People<'developer' | 'reporter'>, name: string): Promise<number> {
  const { owner, developer, reporter } = people;
  const id = created(await owner.client.post('/projects', { name })).id as number;
  created(await owner.client.post(`/projects/${id}/members`, { user_id: developer.user.id, access_level: 30 }));
  created(await owner.client.post(`/projects/${id}/members`, { user_id: reporter.user.id, access_level: 20 }));
  created(await owner.client.post(`/projects/${id}/labels`, { name: 'bug', color: '#FF0000' }));
  const milestone = created(await owner.client.post(`/projects/${id}/milestones`, { title: 'v1' }));
  // Assigning gives the developer an "assigned" todo, the mention in the note the reporter a "mentioned"
  // one (tied to the note), and the owner marks the issue as a todo of their own.
  const issue = created(
    await owner.client.post(`/projects/${id}/issues`, {
      title: 'Broken',
      labels: 'bug',
      milestone_id: milestone.id,
      assignee_id: developer.user.id,
    }),
  );
  const note = created(
    await owner.client.post(`/projects/${id}/issues/${issue.id}/notes`, { body: `please look, @${reporter.user.username}` }),
  );
  created(await developer.client.post(`/projects/${id}/issues/${issue.id}/notes/${note.id}/award_emoji`, { name: 'thumbsup' }));
  created(await developer.client.post(`/projects/${id}/issues/${issue.id}/award_emoji`, { name: 'tada' }));
  created(await developer.client.post(`/projects/${id}/labels/bug/subscription`));
  created(await owner.client.post(`/projects/${id}/issues/${issue.id}/todo`));
  // The assignee follows the issue as a participant: opting out is what leaves a subscription row.
  assert.equal((await developer.client.delete(`/projects/${id}/issues/${issue.id}/subscription`)).status, 200);

  const snippet = created(
    await owner.client.post(`/projects/${id}/snippets`, { title: 'Hello', file_name: 'hello.rb', code: 'puts 1', visibility_level: 0 }),
  );
  const snippetNote = created(await developer.client.post(`/projects/${id}/snippets/${snippet.id}/notes`, { body: 'nice' }));
  created(await developer.client.post(`/projects/${id}/snippets/${snippet.id}/award_emoji`, { name: 'heart' }));
  created(await owner.client.post(`/projects/${id}/snippets/${snippet.id}/notes/${snippetNote.id}/award_emoji`, { name: 'thumbsup' }));
  return id;
}

interface Owned {
  issues: number[];
  snippets: number[];
  labels: number[];
  notes: number[];
}

/** The ids of the records a project owns, read before its deletion so their traces can be looked for after it. */
async function ownedBy(projectId: number): Promise<Owned> {
  const ids = async (table: 'issues' | 'snippets' | 'labels') =>
    (await db().selectFrom(table).select('id').where('project_id', '=', projectId).execute()).map((row) => row.id);
  const [issues, snippets, labels] = [await ids('issues'), await ids('snippets'), await ids('labels')];
  const notes = await db()
    .selectFrom('notes')
    .select('id')
    .where((eb) =>
      eb.or([
        eb('project_id', '=', projectId),
        eb.and([eb('noteable_type', '=', 'Issue'), eb('noteable_id', 'in', [0, ...issues])]),
        eb.and([eb('noteable_type', '=', 'Snippet'), eb('noteable_id', 'in', [0, ...snippets])]),
      ]),
    )
    .execute();
  return { issues, snippets, labels, notes: notes.map((row) => row.id) };
}

/** Every row of the collaboration tables that refers to the project or to what it owned, by table. */
async function rowsReferringTo(projectId: number, owned: Owned): Promise<Record<string, unknown[]>> {
  // `in` needs a non-empty list; 0 is no row's id.
  const issues = [0, ...owned.issues];
  const snippets = [0, ...owned.snippets];
  const labels = [0, ...owned.labels];
  const notes = [0, ...owned.notes];
  const byProject = (table: 'issues' | 'snippets' | 'labels' | 'milestones') =>
    db().selectFrom(table).selectAll().where('project_id', '=', projectId).orderBy('id').execute();
  return {
    issues: await byProject('issues'),
    snippets: await byProject('snippets'),
    labels: await byProject('labels'),
    milestones: await byProject('milestones'),
    notes: await db()
      .selectFrom('notes')
      .selectAll()
      .where((eb) => eb.or([eb('project_id', '=', projectId), eb('id', 'in', notes)]))
      .orderBy('id')
      .execute(),
    label_links: await db()
      .selectFrom('label_links')
      .selectAll()
      .where((eb) => eb.or([eb('label_id', 'in', labels), eb.and([eb('target_type', '=', 'Issue'), eb('target_id', 'in', issues)])]))
      .orderBy('id')
      .execute(),
    award_emoji: await db()
      .selectFrom('award_emoji')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb.and([eb('awardable_type', '=', 'Issue'), eb('awardable_id', 'in', issues)]),
          eb.and([eb('awardable_type', '=', 'Snippet'), eb('awardable_id', 'in', snippets)]),
          eb.and([eb('awardable_type', '=', 'Note'), eb('awardable_id', 'in', notes)]),
        ]),
      )
      .orderBy('id')
      .execute(),
    subscriptions: await db()
      .selectFrom('subscriptions')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb.and([eb('subscribable_type', '=', 'Issue'), eb('subscribable_id', 'in', issues)]),
          eb.and([eb('subscribable_type', '=', 'Label'), eb('subscribable_id', 'in', labels)]),
        ]),
      )
      .orderBy('id')
      .execute(),
    todos: await db()
      .selectFrom('todos')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb('project_id', '=', projectId),
          eb.and([eb('target_type', '=', 'Issue'), eb('target_id', 'in', issues)]),
          eb('note_id', 'in', notes),
        ]),
      )
      .orderBy('id')
      .execute(),
  };
}

const counts = (rows: Record<string, unknown[]>) => Object.fromEntries(Object.entries(rows).map(([table, list]) => [table, list.length]));

describe('DELETE /projects/:id of a project with issues and snippets', () => {
  test('removes every issue, note, snippet, label, milestone, award, subscription and todo of it; another project keeps its own', async () => {
    const people = await createPeople(app, ['developer', 'reporter']);
    const doomed = await seedCollaboration(people, 'doomed');
    const kept = await seedCollaboration(people, 'kept');
    const doomedOwned = await ownedBy(doomed);
    const keptOwned = await ownedBy(kept);
    const keptBefore = await rowsReferringTo(kept, keptOwned);

    // What the seeding made, so that the emptiness below means something.
    const before = counts(await rowsReferringTo(doomed, doomedOwned));
    for (const [table, count] of Object.entries(before)) assert.ok(count > 0, `${table} has no row before the deletion`);
    assert.deepEqual(before, counts(keptBefore));
    assert.equal(before.award_emoji, 4);
    assert.equal(before.todos, 3);

    const response = await people.owner.client.delete(`/projects/${doomed}`);
    assert.deepEqual([response.status, response.body], [200, true]);

    const left = await rowsReferringTo(doomed, doomedOwned);
    assert.deepEqual(counts(left), Object.fromEntries(Object.keys(left).map((table) => [table, 0])));
    assert.deepEqual(await rowsReferringTo(kept, keptOwned), keptBefore);
    for (const person of [people.owner, people.developer, people.reporter]) {
      assert.deepEqual(
        (await person.client.get('/todos')).body.map((todo: any) => todo.project.id),
        [kept],
      );
    }
  });
});
