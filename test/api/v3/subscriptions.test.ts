import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createIssue } from '../../support/create';
import { createPeople, createProjectWorld, type People, type ProjectWorld, type Role } from '../../support/project-world';
import { assertRouteAccess, expectedStatus } from '../../support/access-matrix';
import type { ApiClient } from '../../support/client';

/* Subscriptions to issues and labels (GitLab 8.12's `subscriptions.rb` and `Subscribable#subscribed?`). */

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
  world = await createProjectWorld(app, { people, name: 'subscriptions' });
  open = await createProjectWorld(app, { people, name: 'open-subscriptions', visibility: 20 });
});
after(() => app.close());

const db = () => app.ctx.db;

async function answer(pending: Promise<{ status: number; body: any }>): Promise<[number, unknown]> {
  const response = await pending;
  return [response.status, response.body];
}

const subscription = (project: { id: number }, issueId: number) => `/projects/${project.id}/issues/${issueId}/subscription`;
const subscribedFor = async (client: ApiClient, project: { id: number }, issueId: number) =>
  (await client.get(`/projects/${project.id}/issues/${issueId}`)).body.subscribed as boolean;

describe('issue subscriptions', () => {
  test('the author takes part: subscribed with no row; an unsubscription wins, and a subscription again', async () => {
    const issue = await createIssue(people.developer.client, world);
    const path = subscription(world, issue.id);
    assert.equal(await subscribedFor(people.developer.client, world, issue.id), true);
    assert.deepEqual(await answer(people.developer.client.post(path)), [304, undefined]);
    const left = await people.developer.client.delete(path);
    assert.equal(left.status, 200);
    assert.equal(left.body.id, issue.id);
    assert.equal(left.body.subscribed, false);
    assert.equal(await subscribedFor(people.developer.client, world, issue.id), false);
    assert.deepEqual(await answer(people.developer.client.delete(path)), [304, undefined]);
    const back = await people.developer.client.post(path);
    assert.deepEqual([back.status, back.body.subscribed, back.body.title], [201, true, 'an issue']);
    assert.equal(await subscribedFor(people.developer.client, world, issue.id), true);
  });

  test('the assignee and a commenter take part; anyone else subscribes explicitly', async () => {
    const issue = await createIssue(people.owner.client, world, { assignee_id: people.guest.user.id });
    assert.equal(await subscribedFor(people.guest.client, world, issue.id), true);
    assert.deepEqual(await answer(people.guest.client.post(subscription(world, issue.id))), [304, undefined]);

    assert.equal(await subscribedFor(people.reporter.client, world, issue.id), false);
    // The notes API is built elsewhere: the comment is a row written straight into the database.
    const time = new Date().toISOString();
    await db()
      .insertInto('notes')
      .values({
        project_id: world.id,
        noteable_type: 'Issue',
        noteable_id: issue.id,
        author_id: people.reporter.user.id,
        note: 'me too',
        system: 0,
        created_at: time,
        updated_at: time,
        commit_id: null,
        path: null,
        line: null,
        line_type: null,
        attachment: null,
      })
      .execute();
    assert.equal(await subscribedFor(people.reporter.client, world, issue.id), true);

    assert.equal(await subscribedFor(people.master.client, world, issue.id), false);
    const joined = await people.master.client.post(subscription(world, issue.id));
    assert.deepEqual([joined.status, joined.body.subscribed], [201, true]);
    assert.deepEqual(await answer(people.master.client.post(subscription(world, issue.id))), [304, undefined]);
    // Each caller sees their own state, in lists too.
    const listed = (await people.master.client.get(`/projects/${world.id}/issues`, { per_page: 100 })).body.find(
      (each: any) => each.id === issue.id,
    );
    assert.equal(listed.subscribed, true);
    const forOthers = (await people.developer.client.get(`/projects/${world.id}/issues`, { per_page: 100 })).body.find(
      (each: any) => each.id === issue.id,
    );
    assert.equal(forOthers.subscribed, false);
    assert.deepEqual(await answer(people.developer.client.delete(subscription(world, issue.id))), [304, undefined]);
  });

  test('an unknown issue, or one of another project, is 404; a confidential one is 404 to those who may not read it', async () => {
    assert.deepEqual(await answer(people.master.client.post(subscription(world, 99999))), [404, { message: '404 Not found' }]);
    assert.deepEqual(await answer(people.master.client.delete(subscription(world, 99999))), [404, { message: '404 Not found' }]);
    const elsewhere = await createIssue(people.owner.client, open);
    assert.deepEqual(await answer(people.master.client.post(subscription(world, elsewhere.id))), [404, { message: '404 Not found' }]);
    const secret = await createIssue(people.owner.client, open, { confidential: true });
    for (const client of [people.stranger.client, people.guest.client]) {
      assert.deepEqual(await answer(client.post(subscription(open, secret.id))), [404, { message: '404 Not Found' }]);
      assert.deepEqual(await answer(client.delete(subscription(open, secret.id))), [404, { message: '404 Not Found' }]);
    }
    assert.equal((await people.reporter.client.post(subscription(open, secret.id))).status, 201);
  });

  test('the access table: anyone who sees the project subscribes (its author is already subscribed)', async () => {
    const issues: Record<number, number> = {};
    for (const project of [world, open]) issues[project.id] = (await createIssue(people.developer.client, project)).id;
    await assertRouteAccess(
      { private: world, public: open },
      (client, id) => client.post(subscription({ id }, issues[id])),
      (visibility, caller) => {
        const status = expectedStatus(visibility, caller, { success: 201 });
        return caller === 'developer' && status === 201 ? 304 : status;
      },
    );
    await assertRouteAccess(
      { private: world, public: open },
      (client, id) => client.delete(subscription({ id }, issues[id])),
      (visibility, caller) => expectedStatus(visibility, caller),
    );
  });
});

describe('label subscriptions', () => {
  let label: { id: number; name: string };
  before(async () => {
    const created = await people.owner.client.post(`/projects/${world.id}/labels`, { name: 'bug', color: '#FF0000' });
    assert.equal(created.status, 201);
    const row = await db()
      .selectFrom('labels')
      .select(['id', 'title'])
      .where('project_id', '=', world.id)
      .where('title', '=', 'bug')
      .executeTakeFirstOrThrow();
    label = { id: row.id, name: row.title };
  });

  test("by title or by id: 201 then 304; unsubscribing 200 then 304; the list shows the caller's state", async () => {
    const byTitle = `/projects/${world.id}/labels/${label.name}/subscription`;
    const byId = `/projects/${world.id}/labels/${label.id}/subscription`;
    const subscribed = await people.guest.client.post(byTitle);
    assert.equal(subscribed.status, 201);
    assert.deepEqual([subscribed.body.name, subscribed.body.color, subscribed.body.subscribed], ['bug', '#FF0000', true]);
    assert.deepEqual(await answer(people.guest.client.post(byId)), [304, undefined]);
    const listed = (await people.guest.client.get(`/projects/${world.id}/labels`)).body;
    assert.equal(listed.find((each: any) => each.name === 'bug').subscribed, true);
    assert.equal(
      (await people.reporter.client.get(`/projects/${world.id}/labels`)).body.find((each: any) => each.name === 'bug').subscribed,
      false,
    );
    const left = await people.guest.client.delete(byId);
    assert.deepEqual([left.status, left.body.name, left.body.subscribed], [200, 'bug', false]);
    assert.deepEqual(await answer(people.guest.client.delete(byTitle)), [304, undefined]);
    assert.equal(
      (await people.guest.client.get(`/projects/${world.id}/labels`)).body.find((each: any) => each.name === 'bug').subscribed,
      false,
    );
  });

  test('an unknown label, or one of another project, is 404 Label Not Found', async () => {
    for (const name of ['99999', 'nothing']) {
      assert.deepEqual(await answer(people.guest.client.post(`/projects/${world.id}/labels/${name}/subscription`)), [
        404,
        { message: '404 Label Not Found' },
      ]);
      assert.deepEqual(await answer(people.guest.client.delete(`/projects/${world.id}/labels/${name}/subscription`)), [
        404,
        { message: '404 Label Not Found' },
      ]);
    }
    assert.deepEqual(await answer(people.guest.client.post(`/projects/${open.id}/labels/${label.id}/subscription`)), [
      404,
      { message: '404 Label Not Found' },
    ]);
  });

  test('the access table: anyone who sees the project', async () => {
    const created = await people.owner.client.post(`/projects/${open.id}/labels`, { name: 'bug', color: '#00FF00' });
    assert.equal(created.status, 201);
    await assertRouteAccess(
      { private: world, public: open },
      (client, id) => client.post(`/projects/${id}/labels/bug/subscription`),
      (visibility, caller) => expectedStatus(visibility, caller, { success: 201 }),
    );
    await assertRouteAccess(
      { private: world, public: open },
      (client, id) => client.delete(`/projects/${id}/labels/bug/subscription`),
      (visibility, caller) => expectedStatus(visibility, caller),
    );
  });

  test("a project's removal takes its label and issue subscriptions", async () => {
    const doomed = await createProjectWorld(app, { people, name: 'doomed-subscriptions', roles: [] });
    assert.equal((await doomed.owner.client.post(`/projects/${doomed.id}/labels`, { name: 'gone', color: '#000000' })).status, 201);
    const issue = await createIssue(app.root, doomed);
    assert.equal((await doomed.owner.client.post(`/projects/${doomed.id}/labels/gone/subscription`)).status, 201);
    assert.equal((await doomed.owner.client.post(subscription(doomed, issue.id))).status, 201);
    const labelRow = await db().selectFrom('labels').select('id').where('project_id', '=', doomed.id).executeTakeFirstOrThrow();
    const rows = () =>
      db()
        .selectFrom('subscriptions')
        .select('id')
        .where((eb) =>
          eb.or([
            eb.and([eb('subscribable_type', '=', 'Label'), eb('subscribable_id', '=', labelRow.id)]),
            eb.and([eb('subscribable_type', '=', 'Issue'), eb('subscribable_id', '=', issue.id)]),
          ]),
        )
        .execute();
    assert.equal((await rows()).length, 2);
    assert.equal((await doomed.owner.client.delete(`/projects/${doomed.id}`)).status, 200);
    assert.deepEqual(await rows(), []);
  });
});
