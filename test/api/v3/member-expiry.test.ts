import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestApp } from '../../support/app';
import type { HookListener } from '../../support/hook-listener';
import { SOURCE_KINDS, createSource, memberHookMatch, startMembersWorld, type Cast, type MembersWorld } from '../../support/member-sources';

// Its own server: the sweep removes every expired membership, those of other tests included.
let app: TestApp;
let cast: Cast;
let listener: HookListener;
let world: MembersWorld;
before(async () => {
  world = await startMembersWorld();
  ({ app, cast, listener } = world);
});
after(() => world.close());

const today = () => new Date().toISOString().slice(0, 10);
const tomorrow = () => new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

describe('expired memberships', () => {
  for (const kind of SOURCE_KINDS) {
    test(`${kind}: the sweep removes members whose expires_at day has come, announced as removals, and keeps the others`, async () => {
      const source = await createSource(app, kind, cast.master, 0);
      for (const [person, expiresAt] of [
        [cast.developer, '2016-08-05'],
        [cast.requester, today()],
        [cast.stranger, tomorrow()],
      ] as const) {
        const added = await cast.master.client.post(`${source.base}/members`, {
          user_id: person.user.id,
          access_level: 30,
          expires_at: expiresAt,
        });
        assert.equal(added.status, 201);
      }
      assert.equal((await cast.developer.client.get(source.base)).status, 200);

      assert.equal(await app.services.members.removeExpired(), 2);
      const members = await cast.master.client.get(`${source.base}/members`);
      assert.deepEqual(
        members.body.map((member: any) => member.id),
        [cast.master.user.id, cast.stranger.user.id],
      );
      assert.equal((await cast.developer.client.get(source.base)).status, 404);
      for (const person of [cast.developer, cast.requester]) await listener.waitFor(memberHookMatch(source, 'remove', person.user.id));
      // A second sweep finds nothing left to do.
      assert.equal(await app.services.members.removeExpired(), 0);
    });
  }
});
