import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { grantGroupRole } from '../../support/roles';

let app: TestApp;
before(async () => {
  app = await startApp();
});
after(() => app.close());

let seq = 0;

async function createGroup(attributes: Record<string, unknown> = {}) {
  const n = ++seq;
  const response = await app.root.post('/groups', { name: `Space ${n}`, path: `space-${n}`, ...attributes });
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return response.body;
}

async function namespaceOf(userId: number) {
  return app.ctx.db
    .selectFrom('namespaces')
    .select(['id', 'path'])
    .where('kind', '=', 'user')
    .where('owner_id', '=', userId)
    .executeTakeFirstOrThrow();
}

describe('GET /namespaces', () => {
  test('an anonymous caller gets 401', async () => {
    const response = await app.anonymous.get('/namespaces');
    assert.deepEqual([response.status, response.body], [401, { message: '401 Unauthorized' }]);
  });

  test('a user sees their own namespace only, as id, path and kind', async () => {
    const { client, user } = await app.createUser();
    await createGroup({ visibility_level: 20 });
    const own = await namespaceOf(user.id);
    const response = await client.get('/namespaces');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, [{ id: own.id, path: user.username, kind: 'user' }]);
  });

  test('a user also sees the groups they are a member of, but not those they only asked to join', async () => {
    const { client, user } = await app.createUser();
    const joined = await createGroup();
    const requested = await createGroup({ visibility_level: 20 });
    await grantGroupRole(app, joined.id, user.id, 10);
    const time = new Date().toISOString();
    await app.ctx.db
      .insertInto('members')
      .values({
        source_type: 'Namespace',
        source_id: requested.id,
        user_id: user.id,
        access_level: 30,
        notification_level: 3,
        requested_at: time,
        created_at: time,
        updated_at: time,
      })
      .execute();
    const own = await namespaceOf(user.id);
    const response = await client.get('/namespaces');
    assert.deepEqual(response.body, [
      { id: own.id, path: user.username, kind: 'user' },
      { id: joined.id, path: joined.path, kind: 'group' },
    ]);
  });

  test('an administrator sees every namespace', async () => {
    await app.createUser();
    await createGroup();
    const response = await app.root.get('/namespaces', { per_page: 100 });
    const total = await app.ctx.db
      .selectFrom('namespaces')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(response.body.length, Number(total.n));
    assert.equal(response.headers.get('x-total'), String(total.n));
    assert.ok(response.body.some((namespace: any) => namespace.kind === 'user' && namespace.path === 'root'));
    assert.ok(response.body.some((namespace: any) => namespace.kind === 'group'));
  });

  test('search matches the name or the path, ignoring case', async () => {
    const group = await createGroup({ name: 'Unique Searchable Name', path: 'plain-path' });
    const byName = await app.root.get('/namespaces', { search: 'unique SEARCHABLE' });
    assert.deepEqual(byName.body, [{ id: group.id, path: 'plain-path', kind: 'group' }]);
    const byPath = await app.root.get('/namespaces', { search: 'PLAIN-pa' });
    assert.deepEqual(
      byPath.body.map((namespace: any) => namespace.id),
      [group.id],
    );
    const { client, user } = await app.createUser();
    const own = await client.get('/namespaces', { search: user.username });
    assert.deepEqual(
      own.body.map((namespace: any) => namespace.path),
      [user.username],
    );
  });

  test('the list is paginated', async () => {
    const { client, user } = await app.createUser();
    const first = await createGroup();
    const second = await createGroup();
    await grantGroupRole(app, first.id, user.id, 10);
    await grantGroupRole(app, second.id, user.id, 10);
    const response = await client.get('/namespaces', { page: 3, per_page: 1 });
    assert.deepEqual(response.body, [{ id: second.id, path: second.path, kind: 'group' }]);
    assert.deepEqual(
      [
        response.headers.get('x-total'),
        response.headers.get('x-total-pages'),
        response.headers.get('x-page'),
        response.headers.get('x-next-page'),
        response.headers.get('x-prev-page'),
      ],
      ['3', '3', '3', '', '2'],
    );
  });
});
