import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestApp } from '../../support/app';
import type { HookListener } from '../../support/hook-listener';
import {
  MEMBER_FIELDS,
  SOURCE_KINDS,
  createSource,
  memberHookMatch,
  notFoundSource,
  populatedSource,
  rowsOf,
  setRequestAccess,
  startMembersWorld,
  type Cast,
  type MembersWorld,
  type Source,
} from '../../support/member-sources';

let app: TestApp;
let cast: Cast;
let listener: HookListener;
let world: MembersWorld;
before(async () => {
  world = await startMembersWorld();
  ({ app, cast, listener } = world);
});
after(() => world.close());

const REQUESTER_FIELDS = ['avatar_url', 'created_at', 'id', 'name', 'requested_at', 'state', 'username', 'web_url'];
const hookTimeout = { timeout: 20_000 };

const requestsOf = async (source: Source) => (await rowsOf(app, source)).filter((row) => row.requested_at !== null);
const membersOf = async (source: Source) => (await rowsOf(app, source)).filter((row) => row.requested_at === null);

function memberHooks(source: Source, action: 'add' | 'remove', userId: number) {
  const match = memberHookMatch(source, action, userId);
  return { next: () => listener.waitFor(match), received: () => listener.received.filter(match) };
}

for (const kind of SOURCE_KINDS) {
  describe(`GET /${kind}/:id/access_requests`, () => {
    test('a private source answers 404 to a stranger', async () => {
      const source = await populatedSource(app, kind, cast, 0);
      const response = await cast.stranger.client.get(`${source.base}/access_requests`);
      assert.equal(response.status, 404);
      assert.deepEqual(response.body, notFoundSource(source));
    });

    test('the developer, the access requester and a stranger get 403', async () => {
      const source = await populatedSource(app, kind, cast);
      for (const person of [cast.developer, cast.requester, cast.stranger]) {
        const response = await person.client.get(`${source.base}/access_requests`);
        assert.equal(response.status, 403);
        assert.deepEqual(response.body, { message: '403 Forbidden' });
      }
    });

    test('the master/owner gets the access requesters, paginated', async () => {
      const source = await populatedSource(app, kind, cast);
      const response = await cast.master.client.get(`${source.base}/access_requests`);
      assert.equal(response.status, 200);
      assert.equal(response.body.length, 1);
      assert.equal(response.headers.get('x-total'), '1');
      assert.equal(response.headers.get('x-page'), '1');
      const [requester] = response.body;
      assert.deepEqual(Object.keys(requester).sort(), REQUESTER_FIELDS);
      assert.equal(requester.id, cast.requester.user.id);
      assert.equal(requester.username, cast.requester.user.username);
      assert.match(requester.requested_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    });

    test('an administrator gets them too', async () => {
      const source = await populatedSource(app, kind, cast);
      const response = await app.root.get(`${source.base}/access_requests`);
      assert.equal(response.status, 200);
      assert.equal(response.body.length, 1);
    });
  });

  describe(`POST /${kind}/:id/access_requests`, () => {
    test('a private source answers 404 to a stranger', async () => {
      const source = await populatedSource(app, kind, cast, 0);
      const response = await cast.stranger.client.post(`${source.base}/access_requests`);
      assert.equal(response.status, 404);
      assert.deepEqual(response.body, notFoundSource(source));
      assert.equal((await requestsOf(source)).length, 1);
    });

    test('members (developer, master) get 400 already exists in source', async () => {
      const source = await populatedSource(app, kind, cast);
      for (const person of [cast.developer, cast.master]) {
        const response = await person.client.post(`${source.base}/access_requests`);
        assert.equal(response.status, 400);
        assert.deepEqual(response.body, { message: { user_id: ['already exists in source'] } });
      }
      assert.equal((await requestsOf(source)).length, 1);
    });

    test('asking again answers 400', async () => {
      const source = await populatedSource(app, kind, cast);
      const response = await cast.requester.client.post(`${source.base}/access_requests`);
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, { message: { user_id: ['already exists in source'] } });
      assert.equal((await requestsOf(source)).length, 1);
    });

    test('when access requests are disabled a stranger gets 403', async () => {
      const source = await populatedSource(app, kind, cast);
      await setRequestAccess(app, source, false);
      const response = await cast.stranger.client.post(`${source.base}/access_requests`);
      assert.equal(response.status, 403);
      assert.deepEqual(response.body, { message: '403 Forbidden' });
      assert.equal((await requestsOf(source)).length, 1);
    });

    test('a stranger gets 201 with the access requester; the request is stored at developer level', async () => {
      const source = await populatedSource(app, kind, cast);
      const response = await cast.stranger.client.post(`${source.base}/access_requests`);
      assert.equal(response.status, 201);
      assert.deepEqual(Object.keys(response.body).sort(), REQUESTER_FIELDS);
      assert.equal(response.body.id, cast.stranger.user.id);
      assert.equal(response.body.name, cast.stranger.user.name);
      assert.equal(response.body.username, cast.stranger.user.username);
      assert.equal(response.body.state, 'active');
      assert.ok(response.body.avatar_url);
      assert.ok(response.body.web_url.endsWith(`/u/${cast.stranger.user.username}`));
      const row = (await requestsOf(source)).find((r) => r.user_id === cast.stranger.user.id)!;
      assert.equal(row.access_level, 30);
      assert.equal(response.body.requested_at, row.requested_at);
      const members = await cast.master.client.get(`${source.base}/members`);
      assert.equal(members.body.length, 2);
    });

    test(`an internal ${kind === 'projects' ? 'project' : 'group'} takes requests from signed-in users`, async () => {
      const source = await createSource(app, kind, cast.master, 10);
      const response = await cast.stranger.client.post(`${source.base}/access_requests`);
      assert.equal(response.status, 201);
    });
  });

  describe(`PUT /${kind}/:id/access_requests/:user_id/approve`, () => {
    test('a private source answers 404 to a stranger', async () => {
      const source = await populatedSource(app, kind, cast, 0);
      const response = await cast.stranger.client.put(`${source.base}/access_requests/${cast.requester.user.id}/approve`);
      assert.equal(response.status, 404);
      assert.deepEqual(response.body, notFoundSource(source));
    });

    test('the developer, the access requester and a stranger get 403', async () => {
      const source = await populatedSource(app, kind, cast);
      for (const person of [cast.developer, cast.requester, cast.stranger]) {
        const response = await person.client.put(`${source.base}/access_requests/${cast.requester.user.id}/approve`);
        assert.equal(response.status, 403);
        assert.deepEqual(response.body, { message: '403 Forbidden' });
      }
      assert.equal((await requestsOf(source)).length, 1);
    });

    test('the master approves with access_level 40: 201 with the member; members grow by one', async () => {
      const source = await populatedSource(app, kind, cast);
      const response = await cast.master.client.put(`${source.base}/access_requests/${cast.requester.user.id}/approve`, {
        access_level: 40,
      });
      assert.equal(response.status, 201);
      assert.deepEqual(Object.keys(response.body).sort(), MEMBER_FIELDS);
      assert.equal(response.body.id, cast.requester.user.id);
      assert.equal(response.body.access_level, 40);
      assert.equal((await membersOf(source)).length, 3);
      assert.equal((await requestsOf(source)).length, 0);
      const member = await cast.stranger.client.get(`${source.base}/members/${cast.requester.user.id}`);
      assert.equal(member.body.access_level, 40);
    });

    test('without access_level the member gets developer access (30)', async () => {
      const source = await populatedSource(app, kind, cast);
      const response = await cast.master.client.put(`${source.base}/access_requests/${cast.requester.user.id}/approve`);
      assert.equal(response.status, 201);
      assert.equal(response.body.access_level, 30);
    });

    test('a user without a pending request answers 404 Not found', async () => {
      const source = await populatedSource(app, kind, cast);
      for (const userId of [cast.stranger.user.id, cast.developer.user.id, 999999]) {
        const response = await cast.master.client.put(`${source.base}/access_requests/${userId}/approve`);
        assert.equal(response.status, 404);
        assert.deepEqual(response.body, { message: '404 Not found' });
      }
    });

    test('an unknown access level answers 422 and leaves the request pending', async () => {
      const source = await populatedSource(app, kind, cast);
      const level = kind === 'projects' ? 50 : 1234;
      const response = await cast.master.client.put(`${source.base}/access_requests/${cast.requester.user.id}/approve`, {
        access_level: level,
      });
      assert.equal(response.status, 422);
      assert.deepEqual(response.body, { message: 'Access level is not known' });
      assert.equal((await requestsOf(source)).length, 1);
    });

    test(
      `the approval, not the request, is announced with ${kind === 'projects' ? 'user_add_to_team' : 'user_add_to_group'}`,
      hookTimeout,
      async () => {
        const source = await createSource(app, kind, cast.master);
        const hooks = memberHooks(source, 'add', cast.stranger.user.id);
        assert.equal((await cast.stranger.client.post(`${source.base}/access_requests`)).status, 201);
        assert.equal(
          (await cast.master.client.put(`${source.base}/access_requests/${cast.stranger.user.id}/approve`, { access_level: 20 })).status,
          201,
        );
        const hook = await hooks.next();
        assert.equal(hook.body[kind === 'projects' ? 'access_level' : 'group_access'], 'Reporter');
        // A later event of the same source has arrived: an event for the request would have too.
        assert.equal((await cast.master.client.delete(`${source.base}/members/${cast.stranger.user.id}`)).status, 200);
        await memberHooks(source, 'remove', cast.stranger.user.id).next();
        assert.equal(hooks.received().length, 1);
      },
    );

    if (kind === 'projects') {
      test('the approval, not the request, is recorded as a joined event authored by the new member', async () => {
        const source = await createSource(app, kind, cast.master);
        await cast.stranger.client.post(`${source.base}/access_requests`);
        const before = await app.root.get(`${source.base}/events`);
        assert.deepEqual(
          before.body.filter((event: any) => event.action_name === 'joined'),
          [],
        );
        await cast.master.client.put(`${source.base}/access_requests/${cast.stranger.user.id}/approve`);
        const events = await app.root.get(`${source.base}/events`);
        const joined = events.body.filter((event: any) => event.action_name === 'joined');
        assert.deepEqual(
          joined.map((event: any) => event.author_id),
          [cast.stranger.user.id],
        );
      });
    }
  });

  describe(`DELETE /${kind}/:id/access_requests/:user_id`, () => {
    test('a private source answers 404 to a stranger', async () => {
      const source = await populatedSource(app, kind, cast, 0);
      const response = await cast.stranger.client.delete(`${source.base}/access_requests/${cast.requester.user.id}`);
      assert.equal(response.status, 404);
      assert.deepEqual(response.body, notFoundSource(source));
    });

    test('the developer and a stranger get 403', async () => {
      const source = await populatedSource(app, kind, cast);
      for (const person of [cast.developer, cast.stranger]) {
        const response = await person.client.delete(`${source.base}/access_requests/${cast.requester.user.id}`);
        assert.equal(response.status, 403);
        assert.deepEqual(response.body, { message: '403 Forbidden' });
      }
      assert.equal((await requestsOf(source)).length, 1);
    });

    test('the access requester withdraws their own request: 200', async () => {
      const source = await populatedSource(app, kind, cast);
      const response = await cast.requester.client.delete(`${source.base}/access_requests/${cast.requester.user.id}`);
      assert.equal(response.status, 200);
      assert.deepEqual(Object.keys(response.body).sort(), REQUESTER_FIELDS);
      assert.equal(response.body.id, cast.requester.user.id);
      assert.equal((await requestsOf(source)).length, 0);
      assert.equal((await membersOf(source)).length, 2);
    });

    test('the master denies the request: 200', async () => {
      const source = await populatedSource(app, kind, cast);
      const response = await cast.master.client.delete(`${source.base}/access_requests/${cast.requester.user.id}`);
      assert.equal(response.status, 200);
      assert.equal((await requestsOf(source)).length, 0);
    });

    test('a user without a pending request answers 404 Not found', async () => {
      const source = await populatedSource(app, kind, cast);
      for (const userId of [cast.stranger.user.id, cast.developer.user.id, 999999]) {
        const response = await cast.master.client.delete(`${source.base}/access_requests/${userId}`);
        assert.equal(response.status, 404);
        assert.deepEqual(response.body, { message: '404 Not found' });
      }
      assert.equal((await membersOf(source)).length, 2);
    });
  });
}
