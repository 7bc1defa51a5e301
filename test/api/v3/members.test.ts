import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestApp } from '../../support/app';
import type { HookListener } from '../../support/hook-listener';
import {
  MEMBER_FIELDS,
  SOURCE_KINDS,
  createSource,
  grant,
  memberHookMatch,
  notFoundSource,
  populatedSource,
  rowsOf,
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

const ownerLevel = (source: Source) => (source.kind === 'projects' ? 40 : 50);
const hookTimeout = { timeout: 20_000 };

/** The system hook event for this member of this source. */
function memberHook(source: Source, action: 'add' | 'remove', userId: number) {
  return listener.waitFor(memberHookMatch(source, action, userId));
}

async function projectEvents(source: Source, action: string) {
  const events = await app.root.get(`${source.base}/events`, { per_page: 100 });
  return events.body.filter((event: any) => event.action_name === action);
}

for (const kind of SOURCE_KINDS) {
  describe(`GET /${kind}/:id/members`, () => {
    test('anonymous callers get 401', async () => {
      const source = await createSource(app, kind, cast.master);
      const response = await app.anonymous.get(`${source.base}/members`);
      assert.equal(response.status, 401);
      assert.deepEqual(response.body, { message: '401 Unauthorized' });
    });

    test('a private source answers 404 to a stranger', async () => {
      const source = await populatedSource(app, kind, cast, 0);
      const response = await cast.stranger.client.get(`${source.base}/members`);
      assert.equal(response.status, 404);
      assert.deepEqual(response.body, notFoundSource(source));
    });

    test('master, developer, access requester and stranger all get exactly the members, without requesters', async () => {
      const source = await populatedSource(app, kind, cast);
      for (const person of [cast.master, cast.developer, cast.requester, cast.stranger]) {
        const response = await person.client.get(`${source.base}/members`);
        assert.equal(response.status, 200);
        assert.deepEqual(
          response.body.map((member: any) => member.id),
          [cast.master.user.id, cast.developer.user.id],
        );
        assert.equal(response.headers.get('x-total'), '2');
      }
      const [master, developer] = (await cast.stranger.client.get(`${source.base}/members`)).body;
      assert.deepEqual(Object.keys(developer).sort(), MEMBER_FIELDS);
      assert.equal(master.access_level, ownerLevel(source));
      assert.equal(developer.access_level, 30);
      assert.equal(developer.username, cast.developer.user.username);
      assert.equal(developer.expires_at, null);
      assert.equal(developer.web_url, `${new URL(developer.web_url).origin}/u/${cast.developer.user.username}`);
    });

    test('query matches the username, name or e-mail', async () => {
      const source = await populatedSource(app, kind, cast);
      const byUsername = await cast.stranger.client.get(`${source.base}/members`, { query: cast.master.user.username });
      assert.deepEqual(
        byUsername.body.map((member: any) => member.id),
        [cast.master.user.id],
      );
      const byName = await cast.stranger.client.get(`${source.base}/members`, { query: cast.developer.user.name.toUpperCase() });
      assert.deepEqual(
        byName.body.map((member: any) => member.id),
        [cast.developer.user.id],
      );
      const byEmail = await cast.stranger.client.get(`${source.base}/members`, { query: cast.developer.user.email });
      assert.deepEqual(
        byEmail.body.map((member: any) => member.id),
        [cast.developer.user.id],
      );
      const requester = await cast.stranger.client.get(`${source.base}/members`, { query: cast.requester.user.username });
      assert.deepEqual(requester.body, []);
    });

    test('the list is paginated', async () => {
      const source = await populatedSource(app, kind, cast);
      const response = await cast.master.client.get(`${source.base}/members`, { per_page: 1, page: 2 });
      assert.deepEqual(
        response.body.map((member: any) => member.id),
        [cast.developer.user.id],
      );
      assert.equal(response.headers.get('x-total'), '2');
      assert.equal(response.headers.get('x-total-pages'), '2');
      assert.equal(response.headers.get('x-prev-page'), '1');
    });

    test(`the ${kind === 'projects' ? 'project is found by its URL-encoded path' : 'group is found by its numeric id'}`, async () => {
      const source = await populatedSource(app, kind, cast);
      const other = kind === 'projects' ? `/projects/${encodeURIComponent(source.fullPath)}` : `/groups/${source.id}`;
      const response = await cast.developer.client.get(`${other}/members`);
      assert.equal(response.status, 200);
      assert.equal(response.body.length, 2);
    });

    test('an unknown source answers 404', async () => {
      const response = await cast.master.client.get(`/${kind}/999999/members`);
      assert.equal(response.status, 404);
      assert.deepEqual(response.body, { message: kind === 'projects' ? '404 Project Not Found' : '404 Group Not Found' });
    });
  });

  describe(`GET /${kind}/:id/members/:user_id`, () => {
    test('the access requester and a stranger get a member with access_level', async () => {
      const source = await populatedSource(app, kind, cast);
      for (const person of [cast.requester, cast.stranger]) {
        const response = await person.client.get(`${source.base}/members/${cast.developer.user.id}`);
        assert.equal(response.status, 200);
        assert.deepEqual(Object.keys(response.body).sort(), MEMBER_FIELDS);
        assert.equal(response.body.id, cast.developer.user.id);
        assert.equal(response.body.username, cast.developer.user.username);
        assert.equal(response.body.state, 'active');
        assert.equal(response.body.access_level, 30);
      }
    });

    test('a user who is not a member (an access requester, an unknown id) answers 404 Not found', async () => {
      const source = await populatedSource(app, kind, cast);
      for (const userId of [cast.requester.user.id, cast.stranger.user.id, 999999]) {
        const response = await cast.master.client.get(`${source.base}/members/${userId}`);
        assert.equal(response.status, 404);
        assert.deepEqual(response.body, { message: '404 Not found' });
      }
    });

    test('a private source answers 404 to a stranger', async () => {
      const source = await populatedSource(app, kind, cast, 0);
      const response = await cast.stranger.client.get(`${source.base}/members/${cast.developer.user.id}`);
      assert.equal(response.status, 404);
      assert.deepEqual(response.body, notFoundSource(source));
    });
  });

  describe(`POST /${kind}/:id/members`, () => {
    test('the access requester, a stranger and a developer get 403, checked before the parameters', async () => {
      const source = await populatedSource(app, kind, cast);
      for (const person of [cast.requester, cast.stranger, cast.developer]) {
        const withParams = await person.client.post(`${source.base}/members`, { user_id: cast.stranger.user.id, access_level: 30 });
        assert.equal(withParams.status, 403);
        assert.deepEqual(withParams.body, { message: '403 Forbidden' });
        const without = await person.client.post(`${source.base}/members`, {});
        assert.equal(without.status, 403);
      }
      assert.equal((await rowsOf(app, source)).length, 3);
    });

    test('a private source answers 404 to a stranger', async () => {
      const source = await populatedSource(app, kind, cast, 0);
      const response = await cast.stranger.client.post(`${source.base}/members`, { user_id: cast.stranger.user.id, access_level: 30 });
      assert.equal(response.status, 404);
      assert.deepEqual(response.body, notFoundSource(source));
    });

    test('adding an access requester discards the request and makes them a member', async () => {
      const source = await populatedSource(app, kind, cast);
      const response = await cast.master.client.post(`${source.base}/members`, { user_id: cast.requester.user.id, access_level: 20 });
      assert.equal(response.status, 201);
      assert.deepEqual(Object.keys(response.body).sort(), MEMBER_FIELDS);
      assert.equal(response.body.id, cast.requester.user.id);
      assert.equal(response.body.access_level, 20);
      const rows = await rowsOf(app, source);
      assert.equal(rows.filter((row) => row.requested_at !== null).length, 0);
      const row = rows.find((r) => r.user_id === cast.requester.user.id)!;
      assert.equal(row.access_level, 20);
      assert.equal(row.created_by_id, cast.master.user.id);
    });

    test('adding a stranger with expires_at answers the member with that date', async () => {
      const source = await populatedSource(app, kind, cast);
      const response = await cast.master.client.post(`${source.base}/members`, {
        user_id: cast.stranger.user.id,
        access_level: 30,
        expires_at: '2016-08-05',
      });
      assert.equal(response.status, 201);
      assert.equal(response.body.id, cast.stranger.user.id);
      assert.equal(response.body.access_level, 30);
      assert.equal(response.body.expires_at, '2016-08-05');
      const list = await cast.master.client.get(`${source.base}/members`);
      assert.equal(list.body.length, 3);
    });

    test('a form-encoded request works as JSON does', async () => {
      const source = await populatedSource(app, kind, cast);
      const response = await cast.master.client.form('POST', `/api/v3${source.base}/members`, {
        user_id: cast.stranger.user.id,
        access_level: '10',
      });
      assert.equal(response.status, 201);
      assert.equal(response.body.access_level, 10);
    });

    if (kind === 'projects') {
      test('adding an existing member answers 201 with the member unchanged', async () => {
        const source = await populatedSource(app, kind, cast);
        const response = await cast.master.client.post(`${source.base}/members`, { user_id: cast.developer.user.id, access_level: 40 });
        assert.equal(response.status, 201);
        assert.equal(response.body.id, cast.developer.user.id);
        assert.equal(response.body.access_level, 30);
        assert.equal((await rowsOf(app, source)).find((row) => row.user_id === cast.developer.user.id)!.access_level, 30);
      });
    } else {
      test('adding an existing member answers 409 Member already exists', async () => {
        const source = await populatedSource(app, kind, cast);
        const response = await cast.master.client.post(`${source.base}/members`, { user_id: cast.developer.user.id, access_level: 40 });
        assert.equal(response.status, 409);
        assert.deepEqual(response.body, { message: 'Member already exists' });
        assert.equal((await rowsOf(app, source)).find((row) => row.user_id === cast.developer.user.id)!.access_level, 30);
      });
    }

    test('a missing or blank user_id or access_level answers 400', async () => {
      const source = await populatedSource(app, kind, cast);
      const noUser = await cast.master.client.post(`${source.base}/members`, { access_level: 30 });
      assert.equal(noUser.status, 400);
      assert.deepEqual(noUser.body, { message: '400 (Bad request) "user_id" not given' });
      const noLevel = await cast.master.client.post(`${source.base}/members`, { user_id: cast.stranger.user.id });
      assert.equal(noLevel.status, 400);
      assert.deepEqual(noLevel.body, { message: '400 (Bad request) "access_level" not given' });
      const blank = await cast.master.client.post(`${source.base}/members`, { user_id: cast.stranger.user.id, access_level: '' });
      assert.deepEqual(blank.body, { message: '400 (Bad request) "access_level" not given' });
      const nothing = await cast.master.client.post(`${source.base}/members`);
      assert.deepEqual(nothing.body, { message: '400 (Bad request) "user_id" not given' });
    });

    test('an unknown access level answers 422 Access level is not known', async () => {
      const source = await populatedSource(app, kind, cast);
      const invalid = kind === 'projects' ? [1234, 50, 'master'] : [1234, 60, 'owner'];
      for (const level of invalid) {
        const response = await cast.master.client.post(`${source.base}/members`, { user_id: cast.stranger.user.id, access_level: level });
        assert.equal(response.status, 422);
        assert.deepEqual(response.body, { message: 'Access level is not known' });
      }
      assert.equal((await rowsOf(app, source)).length, 3);
    });

    test('an invalid access level leaves a pending access request in place', async () => {
      const source = await populatedSource(app, kind, cast);
      const response = await cast.master.client.post(`${source.base}/members`, { user_id: cast.requester.user.id, access_level: 1234 });
      assert.equal(response.status, 422);
      const request = (await rowsOf(app, source)).find((row) => row.user_id === cast.requester.user.id)!;
      assert.notEqual(request.requested_at, null);
    });

    test('an unknown user answers 400 with the validation message', async () => {
      const source = await populatedSource(app, kind, cast);
      const response = await cast.master.client.post(`${source.base}/members`, { user_id: 999999, access_level: 30 });
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, { message: { user: ["can't be blank"] } });
    });

    test('an expires_at that is not a date answers 400', async () => {
      const source = await populatedSource(app, kind, cast);
      for (const expiresAt of ['tomorrow', '2016-02-30']) {
        const response = await cast.master.client.post(`${source.base}/members`, {
          user_id: cast.stranger.user.id,
          access_level: 30,
          expires_at: expiresAt,
        });
        assert.equal(response.status, 400);
        assert.deepEqual(response.body, { message: '400 (Bad request) "expires_at" is invalid' });
      }
    });

    test('an administrator who is not a member may add members', async () => {
      const source = await populatedSource(app, kind, cast);
      const response = await app.root.post(`${source.base}/members`, { user_id: cast.stranger.user.id, access_level: 30 });
      assert.equal(response.status, 201);
    });

    if (kind === 'groups') {
      test('a group accepts the owner level', async () => {
        const source = await populatedSource(app, kind, cast);
        const response = await cast.master.client.post(`${source.base}/members`, { user_id: cast.stranger.user.id, access_level: 50 });
        assert.equal(response.status, 201);
        assert.equal(response.body.access_level, 50);
      });
    }

    test(
      `the new member is announced to system hooks with ${kind === 'projects' ? 'user_add_to_team' : 'user_add_to_group'}`,
      hookTimeout,
      async () => {
        const source = await populatedSource(app, kind, cast);
        const response = await cast.master.client.post(`${source.base}/members`, { user_id: cast.stranger.user.id, access_level: 30 });
        assert.equal(response.status, 201);
        const hook = await memberHook(source, 'add', cast.stranger.user.id);
        const user = cast.stranger.user;
        const common = { user_username: user.username, user_name: user.name, user_email: user.email, user_id: user.id };
        if (kind === 'projects') {
          const { project_name, project_path, project_path_with_namespace, project_visibility, access_level, event_name } = hook.body;
          assert.deepEqual(
            { event_name, project_name, project_path, project_path_with_namespace, project_visibility, access_level },
            {
              event_name: 'user_add_to_team',
              project_name: source.fullPath.split('/')[1],
              project_path: source.fullPath.split('/')[1],
              project_path_with_namespace: source.fullPath,
              project_visibility: 'public',
              access_level: 'Developer',
            },
          );
        } else {
          const { group_name, group_path, group_access, event_name } = hook.body;
          assert.deepEqual(
            { event_name, group_name, group_path, group_access },
            { event_name: 'user_add_to_group', group_name: source.fullPath, group_path: source.fullPath, group_access: 'Developer' },
          );
        }
        for (const [key, value] of Object.entries(common)) assert.equal(hook.body[key], value);
        assert.match(hook.body.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      },
    );

    if (kind === 'projects') {
      test('the new member is recorded as a joined event authored by them', async () => {
        const source = await populatedSource(app, kind, cast);
        await cast.master.client.post(`${source.base}/members`, { user_id: cast.stranger.user.id, access_level: 30 });
        const joined = await projectEvents(source, 'joined');
        assert.deepEqual(
          joined.map((event: any) => event.author_id),
          [cast.stranger.user.id],
        );
        assert.equal(joined[0].project_id, source.id);
      });
    }
  });

  describe(`PUT /${kind}/:id/members/:user_id`, () => {
    test('the access requester, a stranger and the developer get 403', async () => {
      const source = await populatedSource(app, kind, cast);
      for (const person of [cast.requester, cast.stranger, cast.developer]) {
        const response = await person.client.put(`${source.base}/members/${cast.developer.user.id}`, { access_level: 40 });
        assert.equal(response.status, 403);
        assert.deepEqual(response.body, { message: '403 Forbidden' });
      }
    });

    test('a private source answers 404 to a stranger', async () => {
      const source = await populatedSource(app, kind, cast, 0);
      const response = await cast.stranger.client.put(`${source.base}/members/${cast.developer.user.id}`, { access_level: 40 });
      assert.equal(response.status, 404);
      assert.deepEqual(response.body, notFoundSource(source));
    });

    test('the master changes access_level and expires_at', async () => {
      const source = await populatedSource(app, kind, cast);
      const response = await cast.master.client.put(`${source.base}/members/${cast.developer.user.id}`, {
        access_level: 40,
        expires_at: '2016-08-05',
      });
      assert.equal(response.status, 200);
      assert.deepEqual(Object.keys(response.body).sort(), MEMBER_FIELDS);
      assert.equal(response.body.id, cast.developer.user.id);
      assert.equal(response.body.access_level, 40);
      assert.equal(response.body.expires_at, '2016-08-05');
    });

    test('a blank expires_at keeps the date', async () => {
      const source = await populatedSource(app, kind, cast);
      await cast.master.client.put(`${source.base}/members/${cast.developer.user.id}`, { access_level: 40, expires_at: '2016-08-05' });
      const response = await cast.master.client.put(`${source.base}/members/${cast.developer.user.id}`, {
        access_level: 20,
        expires_at: '',
      });
      assert.equal(response.body.access_level, 20);
      assert.equal(response.body.expires_at, '2016-08-05');
    });

    test('a user who is not a member answers 404 Not found', async () => {
      const source = await populatedSource(app, kind, cast);
      for (const userId of [cast.requester.user.id, 999999]) {
        const response = await cast.master.client.put(`${source.base}/members/${userId}`, { access_level: 40 });
        assert.equal(response.status, 404);
        assert.deepEqual(response.body, { message: '404 Not found' });
      }
    });

    test('a missing access_level answers 400', async () => {
      const source = await populatedSource(app, kind, cast);
      const response = await cast.master.client.put(`${source.base}/members/${cast.developer.user.id}`, { expires_at: '2016-08-05' });
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, { message: '400 (Bad request) "access_level" not given' });
    });

    test('an unknown access level answers 422', async () => {
      const source = await populatedSource(app, kind, cast);
      const response = await cast.master.client.put(`${source.base}/members/${cast.developer.user.id}`, { access_level: 1234 });
      assert.equal(response.status, 422);
      assert.deepEqual(response.body, { message: 'Access level is not known' });
    });

    if (kind === 'groups') {
      test('the last owner cannot be demoted: 403', async () => {
        const source = await populatedSource(app, kind, cast);
        const response = await cast.master.client.put(`${source.base}/members/${cast.master.user.id}`, { access_level: 40 });
        assert.equal(response.status, 403);
        assert.deepEqual(response.body, { message: '403 Forbidden' });
        const admin = await app.root.put(`${source.base}/members/${cast.master.user.id}`, { access_level: 40 });
        assert.equal(admin.status, 403);
      });

      test('two owners demoting or removing each other at once: exactly one succeeds, one owner remains', async () => {
        for (let round = 0; round < 5; round++) {
          const source = await createSource(app, kind, cast.master);
          await grant(app, source, cast.stranger.user.id, 50);
          const [first, second] = await Promise.all([
            cast.master.client.put(`${source.base}/members/${cast.stranger.user.id}`, { access_level: 40 }),
            round % 2 === 0
              ? cast.stranger.client.put(`${source.base}/members/${cast.master.user.id}`, { access_level: 40 })
              : cast.stranger.client.delete(`${source.base}/members/${cast.master.user.id}`),
          ]);
          assert.deepEqual([first.status, second.status].sort(), [200, 403]);
          const owners = (await app.root.get(`${source.base}/members`)).body.filter((member: any) => member.access_level === 50);
          assert.equal(owners.length, 1);
        }
      });

      test('an owner can be demoted while another owner remains', async () => {
        const source = await populatedSource(app, kind, cast);
        await grant(app, source, cast.stranger.user.id, 50);
        const response = await cast.master.client.put(`${source.base}/members/${cast.master.user.id}`, { access_level: 40 });
        assert.equal(response.status, 200);
        assert.equal(response.body.access_level, 40);
      });
    }
  });

  describe(`DELETE /${kind}/:id/members/:user_id`, () => {
    test('the access requester and a stranger get 403 removing the developer', async () => {
      const source = await populatedSource(app, kind, cast);
      for (const person of [cast.requester, cast.stranger]) {
        const response = await person.client.delete(`${source.base}/members/${cast.developer.user.id}`);
        assert.equal(response.status, 403);
        assert.deepEqual(response.body, { message: '403 Forbidden' });
      }
      assert.equal((await cast.master.client.get(`${source.base}/members`)).body.length, 2);
    });

    test('a private source answers 404 to a stranger', async () => {
      const source = await populatedSource(app, kind, cast, 0);
      const response = await cast.stranger.client.delete(`${source.base}/members/${cast.developer.user.id}`);
      assert.equal(response.status, 404);
      assert.deepEqual(response.body, notFoundSource(source));
    });

    test('the developer may remove themself', async () => {
      const source = await populatedSource(app, kind, cast);
      const response = await cast.developer.client.delete(`${source.base}/members/${cast.developer.user.id}`);
      assert.equal(response.status, 200);
      assert.deepEqual(Object.keys(response.body).sort(), MEMBER_FIELDS);
      assert.equal(response.body.id, cast.developer.user.id);
      assert.equal(response.body.access_level, 30);
      assert.deepEqual(
        (await cast.master.client.get(`${source.base}/members`)).body.map((m: any) => m.id),
        [cast.master.user.id],
      );
    });

    test('removing the same member twice at once: never a 500, and one removal is recorded', async () => {
      const source = await populatedSource(app, kind, cast);
      const answers = await Promise.all([1, 2, 3].map(() => cast.master.client.delete(`${source.base}/members/${cast.developer.user.id}`)));
      for (const answer of answers)
        assert.ok(answer.status === 200 || answer.status === 404, `${answer.status} ${JSON.stringify(answer.body)}`);
      assert.ok(answers.some((answer) => answer.status === 200 && answer.body.id === cast.developer.user.id));
      if (kind === 'projects') {
        const left = await app.ctx.db
          .selectFrom('events')
          .select('id')
          .where('action', '=', 'left')
          .where('project_id', '=', source.id)
          .execute();
        assert.equal(left.length, 1);
      }
    });

    test('the master removes the developer and gets the removed member', async () => {
      const source = await populatedSource(app, kind, cast);
      const response = await cast.master.client.delete(`${source.base}/members/${cast.developer.user.id}`);
      assert.equal(response.status, 200);
      assert.equal(response.body.id, cast.developer.user.id);
      assert.equal(response.body.access_level, 30);
      assert.equal((await cast.master.client.get(`${source.base}/members`)).body.length, 1);
    });

    if (kind === 'projects') {
      test('removing an access requester or an unknown user answers 200 Access revoked and changes nothing', async () => {
        const source = await populatedSource(app, kind, cast);
        for (const userId of [cast.requester.user.id, 999999]) {
          const response = await cast.master.client.delete(`${source.base}/members/${userId}`);
          assert.equal(response.status, 200);
          assert.deepEqual(response.body, { message: 'Access revoked', id: userId });
        }
        const rows = await rowsOf(app, source);
        assert.equal(rows.length, 3);
        assert.notEqual(rows.find((row) => row.user_id === cast.requester.user.id)!.requested_at, null);
      });

      test("the personal project's owner cannot be removed, not even by themself or an administrator", async () => {
        const source = await populatedSource(app, kind, cast);
        for (const client of [cast.master.client, app.root]) {
          const response = await client.delete(`${source.base}/members/${cast.master.user.id}`);
          assert.equal(response.status, 403);
          assert.deepEqual(response.body, { message: '403 Forbidden' });
        }
      });

      test('another master may be removed by a master', async () => {
        const source = await populatedSource(app, kind, cast);
        await grant(app, source, cast.stranger.user.id, 40);
        const response = await cast.developer.client.delete(`${source.base}/members/${cast.stranger.user.id}`);
        assert.equal(response.status, 403);
        const removed = await cast.master.client.delete(`${source.base}/members/${cast.stranger.user.id}`);
        assert.equal(removed.status, 200);
      });

      test('the removal is recorded as a left event authored by the removed user', async () => {
        const source = await populatedSource(app, kind, cast);
        await cast.master.client.delete(`${source.base}/members/${cast.developer.user.id}`);
        const left = await projectEvents(source, 'left');
        assert.deepEqual(
          left.map((event: any) => event.author_id),
          [cast.developer.user.id],
        );
      });
    } else {
      test('removing an access requester or an unknown user answers 404 Member Not Found and changes nothing', async () => {
        const source = await populatedSource(app, kind, cast);
        for (const userId of [cast.requester.user.id, 999999]) {
          const response = await cast.master.client.delete(`${source.base}/members/${userId}`);
          assert.equal(response.status, 404);
          assert.deepEqual(response.body, { message: `404 Member: user_id:${userId} Not Found` });
        }
        const rows = await rowsOf(app, source);
        assert.equal(rows.length, 3);
        assert.notEqual(rows.find((row) => row.user_id === cast.requester.user.id)!.requested_at, null);
      });

      test('the last owner cannot be removed, not even by themself or an administrator', async () => {
        const source = await populatedSource(app, kind, cast);
        for (const client of [cast.master.client, app.root]) {
          const response = await client.delete(`${source.base}/members/${cast.master.user.id}`);
          assert.equal(response.status, 403);
          assert.deepEqual(response.body, { message: '403 Forbidden' });
        }
      });

      test('an owner may leave while another owner remains', async () => {
        const source = await populatedSource(app, kind, cast);
        await grant(app, source, cast.stranger.user.id, 50);
        const response = await cast.master.client.delete(`${source.base}/members/${cast.master.user.id}`);
        assert.equal(response.status, 200);
        assert.equal(response.body.access_level, 50);
      });
    }

    test(
      `the removal is announced to system hooks with ${kind === 'projects' ? 'user_remove_from_team' : 'user_remove_from_group'}`,
      hookTimeout,
      async () => {
        const source = await populatedSource(app, kind, cast);
        await cast.master.client.delete(`${source.base}/members/${cast.developer.user.id}`);
        const hook = await memberHook(source, 'remove', cast.developer.user.id);
        assert.equal(hook.body.user_username, cast.developer.user.username);
        assert.equal(hook.body[kind === 'projects' ? 'access_level' : 'group_access'], 'Developer');
      },
    );
  });
}
