import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createIssue, createSnippet } from '../../support/create';
import { createPeople, createProjectWorld, type People, type ProjectWorld, type Role } from '../../support/project-world';
import { assertRouteAccess, expectedStatus } from '../../support/access-matrix';

/* Award emoji on issues, snippets and their notes (GitLab 8.12's `award_emoji.rb`). */

let app: TestApp;
let people: People<Role>;
/** A private project with a member of each role. */
let world: ProjectWorld<Role>;
/** A public project with the same people. */
let open: ProjectWorld<Role>;

before(async () => {
  app = await startApp();
  people = await createPeople(app);
  assert.equal((await app.root.put(`/users/${people.owner.user.id}`, { projects_limit: 100 })).status, 200);
  world = await createProjectWorld(app, { people, name: 'awards' });
  open = await createProjectWorld(app, { people, name: 'open-awards', visibility: 20 });
});
after(() => app.close());

const db = () => app.ctx.db;
const NOT_FOUND = { message: '404 Not found' };
const AWARD_NOT_FOUND = { message: '404 Award Emoji Not Found' };
const TAKEN = { message: '404 Award Emoji {:name=>["has already been taken"]} Not Found' };

/** The notes API is built elsewhere: notes are rows written straight into the database. */
async function insertNote(projectId: number, noteableType: 'Issue' | 'Snippet', noteableId: number, authorId: number): Promise<number> {
  const time = new Date().toISOString();
  const note = await db()
    .insertInto('notes')
    .values({
      project_id: projectId,
      noteable_type: noteableType,
      noteable_id: noteableId,
      author_id: authorId,
      note: 'a comment',
      system: 0,
      created_at: time,
      updated_at: time,
      commit_id: null,
      path: null,
      line: null,
      line_type: null,
      attachment: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return note.id;
}

describe('award emoji on an issue', () => {
  let issue: any;
  let base: string;
  before(async () => {
    issue = await createIssue(people.developer.client, world);
    base = `/projects/${world.id}/issues/${issue.id}/award_emoji`;
  });

  test('an award is created, listed oldest first with page headers, and read by id', async () => {
    const created = await people.reporter.client.post(base, { name: 'blowfish' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.name, 'blowfish');
    assert.equal(created.body.user.username, people.reporter.user.username);
    assert.equal(created.body.awardable_id, issue.id);
    assert.equal(created.body.awardable_type, 'Issue');
    assert.match(created.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const second = await people.guest.client.post(base, { name: 'tada' });
    assert.equal(second.status, 201);

    const list = await people.guest.client.get(base);
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.map((award: any) => award.name),
      ['blowfish', 'tada'],
    );
    assert.equal(list.headers.get('x-total'), '2');
    const paged = await people.guest.client.get(base, { per_page: 1, page: 2 });
    assert.deepEqual(
      paged.body.map((award: any) => award.name),
      ['tada'],
    );

    const one = await people.guest.client.get(`${base}/${created.body.id}`);
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, created.body);
  });

  test("aliases are stored under 8.12's names, and votes are counted on the issue", async () => {
    const up = await people.reporter.client.post(base, { name: '+1' });
    assert.equal(up.status, 201);
    assert.equal(up.body.name, 'thumbsup');
    // `+1` and `thumbsup` are one vote.
    assert.deepEqual([(await people.reporter.client.post(base, { name: 'thumbsup' })).body], [TAKEN]);
    assert.equal((await people.guest.client.post(base, { name: '-1' })).body.name, 'thumbsdown');
    assert.equal((await people.master.client.post(base, { name: 'thumbsup' })).status, 201);
    const shown = await people.guest.client.get(`/projects/${world.id}/issues/${issue.id}`);
    assert.deepEqual([shown.body.upvotes, shown.body.downvotes], [2, 1]);
    const listed = await people.guest.client.get(`/projects/${world.id}/issues`);
    const inList = listed.body.find((each: any) => each.id === issue.id);
    assert.deepEqual([inList.upvotes, inList.downvotes], [2, 1]);
  });

  test("the issue's author may not vote on it, but may give any other emoji", async () => {
    for (const name of ['thumbsup', '+1', 'thumbsdown', '-1']) {
      const refused = await people.developer.client.post(base, { name });
      assert.deepEqual([refused.status, refused.body], [404, AWARD_NOT_FOUND], name);
    }
    assert.equal((await people.developer.client.post(base, { name: 'heart' })).status, 201);
  });

  test("8.12's messages: a missing name, a blank or unknown one, a duplicate, unknown ids", async () => {
    const client = people.master.client;
    assert.deepEqual(await status(client.post(base, {})), [400, { message: '400 (Bad request) "name" not given' }]);
    assert.deepEqual(await status(client.post(base, { name: 'not_an_emoji' })), [
      404,
      { message: '404 Award Emoji {:name=>["is not included in the list"]} Not Found' },
    ]);
    // 8.12's `required_attributes!` took a blank value (spaces too) for a missing one.
    assert.deepEqual(await status(client.post(base, { name: '' })), [400, { message: '400 (Bad request) "name" not given' }]);
    assert.deepEqual(await status(client.post(base, { name: '  ' })), [400, { message: '400 (Bad request) "name" not given' }]);
    assert.deepEqual(await status(client.post(base, { name: ':smile:' })), [
      404,
      { message: '404 Award Emoji {:name=>["is not included in the list"]} Not Found' },
    ]);
    assert.equal((await client.post(base, { name: 'smile' })).status, 201);
    assert.deepEqual(await status(client.post(base, { name: 'smile' })), [404, TAKEN]);
    assert.deepEqual(await status(client.get(`/projects/${world.id}/issues/99999/award_emoji`)), [404, NOT_FOUND]);
    assert.deepEqual(await status(client.post(`/projects/${world.id}/issues/99999/award_emoji`, { name: 'smile' })), [404, NOT_FOUND]);
    assert.deepEqual(await status(client.get(`${base}/99999`)), [404, NOT_FOUND]);
    assert.deepEqual(await status(client.delete(`${base}/99999`)), [404, NOT_FOUND]);
    // An issue of another project is not this project's.
    const elsewhere = await createIssue(people.owner.client, open);
    assert.deepEqual(await status(client.get(`/projects/${world.id}/issues/${elsewhere.id}/award_emoji`)), [404, NOT_FOUND]);
    // An award of another issue is not this issue's.
    const other = await client.post(`/projects/${open.id}/issues/${elsewhere.id}/award_emoji`, { name: 'smile' });
    assert.deepEqual(await status(client.get(`${base}/${other.body.id}`)), [404, NOT_FOUND]);
  });

  test('two identical awards at once: one is created, the other has already been taken', async () => {
    const [first, second] = await Promise.all([
      people.guest.client.post(base, { name: 'rocket' }),
      people.guest.client.post(base, { name: 'rocket' }),
    ]);
    assert.deepEqual([first.status, second.status].sort(), [201, 404]);
    assert.deepEqual((first.status === 404 ? first : second).body, TAKEN);
    const rockets = (await people.guest.client.get(base, { per_page: 100 })).body.filter((award: any) => award.name === 'rocket');
    assert.equal(rockets.length, 1);
  });

  test('an award is removed by its owner or an administrator; anyone else is 401', async () => {
    const award = (await people.reporter.client.post(base, { name: 'cat' })).body;
    assert.deepEqual(await status(people.master.client.delete(`${base}/${award.id}`)), [401, { message: '401 Unauthorized' }]);
    assert.deepEqual(await status(people.owner.client.delete(`${base}/${award.id}`)), [401, { message: '401 Unauthorized' }]);
    const removed = await people.reporter.client.delete(`${base}/${award.id}`);
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.body, award);
    assert.deepEqual(await status(people.reporter.client.get(`${base}/${award.id}`)), [404, NOT_FOUND]);
    assert.deepEqual(await status(people.reporter.client.delete(`${base}/${award.id}`)), [404, NOT_FOUND]);
    const another = (await people.reporter.client.post(base, { name: 'dog' })).body;
    assert.equal((await app.root.delete(`${base}/${another.id}`)).status, 200);
  });
});

describe('award emoji on a confidential issue', () => {
  test('only those who read the issue see or give awards: others get 404 Award Emoji Not Found', async () => {
    const secret = await createIssue(people.owner.client, open, { confidential: true, assignee_id: people.guest.user.id });
    const base = `/projects/${open.id}/issues/${secret.id}/award_emoji`;
    const award = (await people.reporter.client.post(base, { name: 'eyes' })).body;
    // The assignee reads it, though a guest.
    assert.equal((await people.guest.client.get(base)).status, 200);
    for (const call of [
      () => people.stranger.client.get(base),
      () => people.stranger.client.get(`${base}/${award.id}`),
      () => people.stranger.client.post(base, { name: 'eyes' }),
      () => people.stranger.client.delete(`${base}/${award.id}`),
    ]) {
      assert.deepEqual(await status(call()), [404, AWARD_NOT_FOUND]);
    }
  });
});

describe('award emoji on a snippet', () => {
  test("work as on issues, with the snippet's author refused a vote", async () => {
    const snippet = await createSnippet(people.reporter.client, world);
    const base = `/projects/${world.id}/snippets/${snippet.id}/award_emoji`;
    const created = await people.guest.client.post(base, { name: '+1' });
    assert.equal(created.status, 201);
    assert.deepEqual([created.body.name, created.body.awardable_type, created.body.awardable_id], ['thumbsup', 'Snippet', snippet.id]);
    assert.deepEqual(await status(people.reporter.client.post(base, { name: 'thumbsup' })), [404, AWARD_NOT_FOUND]);
    assert.deepEqual(
      (await people.guest.client.get(base)).body.map((award: any) => award.id),
      [created.body.id],
    );
    assert.equal((await people.guest.client.delete(`${base}/${created.body.id}`)).status, 200);
    assert.deepEqual((await people.guest.client.get(base)).body, []);
    assert.deepEqual(await status(people.guest.client.get(`/projects/${world.id}/snippets/99999/award_emoji`)), [404, NOT_FOUND]);
  });

  test('a private snippet of a public project is hidden from non-members: 404 Award Emoji Not Found', async () => {
    const hidden = await createSnippet(people.owner.client, open, { visibility_level: 0 });
    const base = `/projects/${open.id}/snippets/${hidden.id}/award_emoji`;
    assert.equal((await people.guest.client.post(base, { name: 'smile' })).status, 201);
    assert.deepEqual(await status(people.stranger.client.get(base)), [404, AWARD_NOT_FOUND]);
    assert.deepEqual(await status(people.stranger.client.post(base, { name: 'smile' })), [404, AWARD_NOT_FOUND]);
    const shown = await createSnippet(people.owner.client, open, { visibility_level: 20 });
    assert.equal(
      (await people.stranger.client.post(`/projects/${open.id}/snippets/${shown.id}/award_emoji`, { name: 'smile' })).status,
      201,
    );
  });
});

describe('award emoji on notes', () => {
  test("on an issue's note: list, give (the note's author refused a vote), read and remove", async () => {
    const issue = await createIssue(people.owner.client, world);
    const noteId = await insertNote(world.id, 'Issue', issue.id, people.developer.user.id);
    const base = `/projects/${world.id}/issues/${issue.id}/notes/${noteId}/award_emoji`;
    assert.deepEqual((await people.guest.client.get(base)).body, []);
    const created = await people.guest.client.post(base, { name: '+1' });
    assert.equal(created.status, 201);
    assert.deepEqual([created.body.name, created.body.awardable_type, created.body.awardable_id], ['thumbsup', 'Note', noteId]);
    assert.equal((await people.guest.client.get(base)).body.length, 1);
    assert.deepEqual(await status(people.guest.client.post(base, { name: 'thumbsup' })), [404, TAKEN]);
    // The note's author, not the issue's, is refused.
    assert.deepEqual(await status(people.developer.client.post(base, { name: 'thumbsdown' })), [404, AWARD_NOT_FOUND]);
    assert.equal((await people.owner.client.post(base, { name: 'thumbsup' })).status, 201);
    // A note award is no vote on the issue.
    assert.equal((await people.guest.client.get(`/projects/${world.id}/issues/${issue.id}`)).body.upvotes, 0);
    assert.deepEqual((await people.guest.client.get(`${base}/${created.body.id}`)).body, created.body);
    assert.equal((await people.guest.client.delete(`${base}/${created.body.id}`)).status, 200);
    assert.equal((await people.guest.client.get(base)).body.length, 1);
  });

  test("on a snippet's note; a note of another issue or snippet, or an unknown one, is 404", async () => {
    const snippet = await createSnippet(people.owner.client, world);
    const noteId = await insertNote(world.id, 'Snippet', snippet.id, people.owner.user.id);
    const base = `/projects/${world.id}/snippets/${snippet.id}/notes/${noteId}/award_emoji`;
    const created = await people.reporter.client.post(base, { name: 'tada' });
    assert.equal(created.status, 201);
    assert.equal(created.body.awardable_type, 'Note');
    const issue = await createIssue(people.owner.client, world);
    assert.deepEqual(await status(people.reporter.client.get(`/projects/${world.id}/issues/${issue.id}/notes/${noteId}/award_emoji`)), [
      404,
      NOT_FOUND,
    ]);
    assert.deepEqual(await status(people.reporter.client.get(`/projects/${world.id}/snippets/${snippet.id}/notes/99999/award_emoji`)), [
      404,
      NOT_FOUND,
    ]);
  });
});

describe('the access table', () => {
  const issues: Record<number, number> = {};
  const snippets: Record<number, number> = {};
  const projects = () => ({ private: world, public: open });
  before(async () => {
    for (const project of [world, open]) {
      issues[project.id] = (await createIssue(people.owner.client, project)).id;
      snippets[project.id] = (await createSnippet(people.owner.client, project, { visibility_level: project === open ? 20 : 0 })).id;
    }
  });

  test('list and give on issues: anyone who sees the project, 401 anonymous, 404 hidden', async () => {
    await assertRouteAccess(
      projects(),
      (client, id) => client.get(`/projects/${id}/issues/${issues[id]}/award_emoji`),
      (visibility, caller) => expectedStatus(visibility, caller),
    );
    await assertRouteAccess(
      projects(),
      (client, id) => client.post(`/projects/${id}/issues/${issues[id]}/award_emoji`, { name: 'star' }),
      (visibility, caller) => expectedStatus(visibility, caller, { success: 201 }),
    );
  });

  test('list and give on snippets: anyone who sees the project and the snippet', async () => {
    await assertRouteAccess(
      projects(),
      (client, id) => client.get(`/projects/${id}/snippets/${snippets[id]}/award_emoji`),
      (visibility, caller) => expectedStatus(visibility, caller),
    );
    await assertRouteAccess(
      projects(),
      (client, id) => client.post(`/projects/${id}/snippets/${snippets[id]}/award_emoji`, { name: 'star' }),
      (visibility, caller) => expectedStatus(visibility, caller, { success: 201 }),
    );
  });
});

describe("a project's removal", () => {
  test('removes the award emoji of its issues and of their notes', async () => {
    const doomed = await createProjectWorld(app, { people, name: 'doomed-awards', roles: [] });
    const issue = await createIssue(doomed.owner.client, doomed);
    const noteId = await insertNote(doomed.id, 'Issue', issue.id, doomed.owner.user.id);
    const onIssue = await app.root.post(`/projects/${doomed.id}/issues/${issue.id}/award_emoji`, { name: 'thumbsup' });
    const onNote = await app.root.post(`/projects/${doomed.id}/issues/${issue.id}/notes/${noteId}/award_emoji`, { name: 'tada' });
    assert.deepEqual([onIssue.status, onNote.status], [201, 201]);
    assert.equal((await doomed.owner.client.delete(`/projects/${doomed.id}`)).status, 200);
    const left = await db().selectFrom('award_emoji').select('id').where('id', 'in', [onIssue.body.id, onNote.body.id]).execute();
    assert.deepEqual(left, []);
  });

  test("an issue's removal takes the awards of its notes too", async () => {
    const issue = await createIssue(people.owner.client, world);
    const noteId = await insertNote(world.id, 'Issue', issue.id, people.owner.user.id);
    const onNote = await app.root.post(`/projects/${world.id}/issues/${issue.id}/notes/${noteId}/award_emoji`, { name: 'tada' });
    assert.equal((await people.owner.client.delete(`/projects/${world.id}/issues/${issue.id}`)).status, 200);
    assert.equal(await db().selectFrom('award_emoji').select('id').where('id', '=', onNote.body.id).executeTakeFirst(), undefined);
  });
});

async function status(pending: Promise<{ status: number; body: unknown }>): Promise<[number, unknown]> {
  const response = await pending;
  return [response.status, response.body];
}
