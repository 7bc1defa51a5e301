import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';

// The composition root (`src/app.ts`) hands the doors services and nothing else: the context that holds
// the database stays with the root (background work), so no route can reach `db` through its deps.
describe('composition root', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp();
  });
  after(async () => app.close());

  it('hands the doors services only, never the context that holds the database', () => {
    assert.equal('ctx' in app.services, false);
    for (const [name, service] of Object.entries(app.services)) assert.notEqual(service, app.ctx, name);
    assert.ok(app.ctx.db, 'the root keeps the context');
  });

  it('deletes a user with their personal projects, the users service given projects when it is made', async () => {
    const { user, client } = await app.createUser();
    const created = await client.post('/projects', { name: 'kept-until-owner-goes' });
    assert.equal(created.status, 201);
    assert.equal((await app.root.delete(`/users/${user.id}`)).status, 200);
    assert.equal((await app.root.get(`/projects/${created.body.id}`)).status, 404);
  });
});
