import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createGroupRow, grantGroupRole } from '../../support/roles';

/**
 * Every `/groups/:id/…` route declares its guard (`config: { group: … }`), as project routes do: the
 * group is found by id or path and refused in GitLab's order, 401 → 404 Group Not Found → 403 → 400.
 * Each route's own refusals are in groups, members, access-requests and issues-lists tests; these show
 * the order and the routes that had none.
 */

let app: TestApp;
let owner: Awaited<ReturnType<TestApp['createUser']>>;
let guest: Awaited<ReturnType<TestApp['createUser']>>;
let stranger: Awaited<ReturnType<TestApp['createUser']>>;
let privateGroup: number;

const groupNotFound = { message: '404 Group Not Found' };
const forbidden = { message: '403 Forbidden' };

before(async () => {
  app = await startApp();
  [owner, guest, stranger] = await Promise.all([app.createUser(), app.createUser(), app.createUser()]);
  privateGroup = await createGroupRow(app, 'guarded-group', owner.user.id, 0);
  await grantGroupRole(app, privateGroup, guest.user.id, 10);
});
after(async () => {
  await app.close();
});

describe('the group guard', () => {
  test('anonymous callers get 401 before the group is looked up', async () => {
    for (const path of ['/groups/999999', '/groups/guarded-group/issues', '/groups/guarded-group/members']) {
      const response = await app.anonymous.get(path);
      assert.equal(response.status, 401, path);
    }
  });

  test('a private group answers 404 Group Not Found to a stranger on every kind of group route, by id or by path', async () => {
    const calls: Array<[string, string, Record<string, unknown>?]> = [
      ['get', `/groups/${privateGroup}`],
      ['get', '/groups/guarded-group/issues'],
      ['get', `/groups/${privateGroup}/projects`],
      ['get', `/groups/${privateGroup}/members`],
      ['get', `/groups/${privateGroup}/access_requests`],
      ['post', `/groups/${privateGroup}/access_requests`],
      ['put', `/groups/${privateGroup}`, { name: 'Taken Over' }],
      ['delete', `/groups/${privateGroup}`],
    ];
    for (const [method, path, body] of calls) {
      const response = await (stranger.client as any)[method](path, body);
      assert.deepEqual([response.status, response.body], [404, groupNotFound], `${method} ${path}`);
    }
  });

  test('the group is found before the parameters are checked: 404 for a hidden group, 403 for a guest, then 400', async () => {
    const badBody = { visibility_level: 'not a number' };
    const hidden = await stranger.client.put(`/groups/${privateGroup}`, badBody);
    assert.deepEqual([hidden.status, hidden.body], [404, groupNotFound]);
    const refused = await guest.client.put(`/groups/${privateGroup}`, badBody);
    assert.deepEqual([refused.status, refused.body], [403, forbidden]);
    const invalid = await owner.client.put(`/groups/${privateGroup}`, badBody);
    assert.equal(invalid.status, 400);
    const badMember = await stranger.client.get(`/groups/${privateGroup}/members/not-a-number`);
    assert.deepEqual([badMember.status, badMember.body], [404, groupNotFound]);
  });

  test('a guest reads the group but may not change or remove it: 403, and the group stays', async () => {
    assert.equal((await guest.client.get('/groups/guarded-group')).status, 200);
    const removed = await guest.client.delete(`/groups/${privateGroup}`);
    assert.deepEqual([removed.status, removed.body], [403, forbidden]);
    const added = await guest.client.post(`/groups/${privateGroup}/members`, { user_id: stranger.user.id, access_level: 30 });
    assert.deepEqual([added.status, added.body], [403, forbidden]);
    assert.equal((await owner.client.get(`/groups/${privateGroup}`)).status, 200);
  });
});
