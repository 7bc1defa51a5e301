import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { nextInternalId } from '../../src/db/internal-ids';
import { inTransaction } from '../../src/db/transaction';

let app: TestApp;
before(async () => {
  app = await startApp();
});
after(async () => {
  await app.close();
});

test('per-project numbers count from 1 for each project and kind, and 20 writers at once never share one', async () => {
  const { client } = await app.createUser();
  const [first, second] = [(await client.post('/projects', { name: 'one' })).body, (await client.post('/projects', { name: 'two' })).body];
  const db = app.ctx.db;
  const numbers = await Promise.all(
    Array.from({ length: 20 }, () => inTransaction(db, (trx) => nextInternalId(trx, first.id, 'deployments'))),
  );
  assert.deepEqual(
    [...numbers].sort((a, b) => a - b),
    Array.from({ length: 20 }, (_, i) => i + 1),
  );
  assert.equal(await nextInternalId(db, second.id, 'deployments'), 1);
  assert.equal(await nextInternalId(db, first.id, 'issues'), 1);
});

test('a rolled-back transaction gives its number back', async () => {
  const { client } = await app.createUser();
  const project = (await client.post('/projects', { name: 'three' })).body;
  const db = app.ctx.db;
  await assert.rejects(
    inTransaction(db, async (trx) => {
      await nextInternalId(trx, project.id, 'deployments');
      throw new Error('the record could not be saved');
    }),
  );
  assert.equal(await nextInternalId(db, project.id, 'deployments'), 1);
});
