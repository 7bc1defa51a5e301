import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import type { ApiClient } from '../../support/client';

let app: TestApp;
let alice: { user: any; client: ApiClient };
let bob: { user: any; client: ApiClient };

before(async () => {
  app = await startApp();
  alice = await app.createUser();
  bob = await app.createUser();
});
after(() => app.close());

let addresses = 0;
const freshAddress = () => `secondary${++addresses}@example.com`;

async function addEmail(client: ApiClient, email = freshAddress()) {
  const response = await client.post('/user/emails', { email });
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return response.body;
}

describe('GET /user/emails', () => {
  test('lists the e-mails of the caller only', async () => {
    const { client } = await app.createUser();
    const first = await addEmail(client);
    const second = await addEmail(client);
    await addEmail(bob.client);
    const response = await client.get('/user/emails');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, [first, second]);
  });

  test('anonymous callers get 401', async () => {
    const response = await app.anonymous.get('/user/emails');
    assert.equal(response.status, 401);
    assert.deepEqual(response.body, { message: '401 Unauthorized' });
  });
});

describe('GET /user/emails/:id', () => {
  test("shows one of the caller's e-mails", async () => {
    const email = await addEmail(alice.client);
    const response = await alice.client.get(`/user/emails/${email.id}`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, email);
  });

  test('an unknown id answers 404 Not found', async () => {
    for (const id of ['999999', 'abc', '99999999999999999999']) {
      const response = await alice.client.get(`/user/emails/${id}`);
      assert.equal(response.status, 404, id);
      assert.deepEqual(response.body, { message: '404 Not found' });
    }
  });

  test("another user's e-mail answers 404 Not found, even for an administrator", async () => {
    const email = await addEmail(bob.client);
    for (const client of [alice.client, app.root]) {
      const response = await client.get(`/user/emails/${email.id}`);
      assert.equal(response.status, 404);
      assert.deepEqual(response.body, { message: '404 Not found' });
    }
  });

  test('anonymous callers get 401', async () => {
    const response = await app.anonymous.get('/user/emails/1');
    assert.equal(response.status, 401);
  });
});

describe('POST /user/emails', () => {
  test('adds an e-mail: 201 with id and email', async () => {
    const address = freshAddress();
    const response = await alice.client.post('/user/emails', { email: address });
    assert.equal(response.status, 201);
    assert.deepEqual(Object.keys(response.body).sort(), ['email', 'id']);
    assert.equal(response.body.email, address);
  });

  test('stores the address trimmed and lower-cased, also when sent as a form', async () => {
    const response = await alice.client.form('POST', '/user/emails', { email: '  Mixed.Case@Example.COM ' });
    assert.equal(response.status, 201);
    assert.equal(response.body.email, 'mixed.case@example.com');
  });

  test('a missing or blank email answers 400 "email" not given', async () => {
    for (const body of [{}, { email: ' ' }]) {
      const response = await alice.client.post('/user/emails', body);
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, { message: '400 (Bad request) "email" not given' });
    }
  });

  test('an address that is no e-mail answers 400: email is invalid', async () => {
    for (const email of ['not-an-email', 'two@at@example.com', 'spa ce@example.com']) {
      const response = await alice.client.post('/user/emails', { email });
      assert.equal(response.status, 400, email);
      assert.deepEqual(response.body, { message: { email: ['is invalid'] } });
    }
  });

  test("another user's secondary e-mail, in any case, answers 400: email has already been taken", async () => {
    const taken = await addEmail(bob.client);
    for (const email of [taken.email, taken.email.toUpperCase()]) {
      const response = await alice.client.post('/user/emails', { email });
      assert.equal(response.status, 400, email);
      assert.deepEqual(response.body, { message: { email: ['has already been taken'] } });
    }
  });

  test("any user's primary e-mail, the caller's own included, answers 400: email has already been taken", async () => {
    for (const email of [bob.user.email, alice.user.email, 'ADMIN@example.com']) {
      const response = await alice.client.post('/user/emails', { email });
      assert.equal(response.status, 400, email);
      assert.deepEqual(response.body, { message: { email: ['has already been taken'] } });
    }
  });

  test('anonymous callers get 401', async () => {
    const response = await app.anonymous.post('/user/emails', { email: freshAddress() });
    assert.equal(response.status, 401);
  });
});

describe('DELETE /user/emails/:id', () => {
  test("deletes one of the caller's e-mails: 200, and the address may be added again", async () => {
    const { client } = await app.createUser();
    const email = await addEmail(client);
    const response = await client.delete(`/user/emails/${email.id}`);
    assert.equal(response.status, 200);
    assert.deepEqual((await client.get('/user/emails')).body, []);
    await addEmail(client, email.email);
  });

  test('an unknown or already deleted e-mail still answers 200', async () => {
    for (const id of ['999999', 'abc']) {
      const response = await alice.client.delete(`/user/emails/${id}`);
      assert.equal(response.status, 200, id);
    }
  });

  test("another user's e-mail is left alone, with 200", async () => {
    const email = await addEmail(bob.client);
    const response = await alice.client.delete(`/user/emails/${email.id}`);
    assert.equal(response.status, 200);
    assert.equal((await bob.client.get(`/user/emails/${email.id}`)).status, 200);
  });

  test('anonymous callers get 401', async () => {
    const response = await app.anonymous.delete('/user/emails/1');
    assert.equal(response.status, 401);
  });
});

describe('GET /users/:uid/emails', () => {
  test("an administrator lists a user's e-mails", async () => {
    const { user, client } = await app.createUser();
    const email = await addEmail(client);
    const response = await app.root.get(`/users/${user.id}/emails`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, [email]);
  });

  test('an unknown user answers 404 User Not Found', async () => {
    for (const id of ['999999', '99999999999999999999']) {
      const response = await app.root.get(`/users/${id}/emails`);
      assert.equal(response.status, 404, id);
      assert.deepEqual(response.body, { message: '404 User Not Found' });
    }
  });

  test('a user id that is not a number matches no route: 404', async () => {
    const response = await app.root.get('/users/ASDF/emails');
    assert.equal(response.status, 404);
  });

  test('administrator only: normal users get 403, anonymous callers 401', async () => {
    const forbidden = await alice.client.get(`/users/${alice.user.id}/emails`);
    assert.equal(forbidden.status, 403);
    assert.deepEqual(forbidden.body, { message: '403 Forbidden' });
    assert.equal((await app.anonymous.get(`/users/${alice.user.id}/emails`)).status, 401);
  });
});

describe('POST /users/:id/emails', () => {
  test('an administrator adds an e-mail to a user: 201 with the e-mail', async () => {
    const { user, client } = await app.createUser();
    const address = freshAddress();
    const response = await app.root.post(`/users/${user.id}/emails`, { email: address });
    assert.equal(response.status, 201);
    assert.equal(response.body.email, address);
    assert.deepEqual((await client.get('/user/emails')).body, [response.body]);
  });

  test('a missing email answers 400 "email" not given, checked before the user', async () => {
    for (const id of [alice.user.id, 999999]) {
      const response = await app.root.post(`/users/${id}/emails`, {});
      assert.equal(response.status, 400, String(id));
      assert.deepEqual(response.body, { message: '400 (Bad request) "email" not given' });
    }
  });

  test('an unknown user answers 404 Not found', async () => {
    const response = await app.root.post('/users/999999/emails', { email: freshAddress() });
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 Not found' });
  });

  test('an invalid or taken address answers 400 with the email messages', async () => {
    const invalid = await app.root.post(`/users/${alice.user.id}/emails`, { email: 'nope' });
    assert.equal(invalid.status, 400);
    assert.deepEqual(invalid.body, { message: { email: ['is invalid'] } });
    const taken = await app.root.post(`/users/${alice.user.id}/emails`, { email: bob.user.email });
    assert.equal(taken.status, 400);
    assert.deepEqual(taken.body, { message: { email: ['has already been taken'] } });
  });

  test('administrator only: normal users get 403, anonymous callers 401', async () => {
    const forbidden = await alice.client.post(`/users/${alice.user.id}/emails`, { email: freshAddress() });
    assert.equal(forbidden.status, 403);
    assert.deepEqual(forbidden.body, { message: '403 Forbidden' });
    assert.equal((await app.anonymous.post(`/users/${alice.user.id}/emails`, {})).status, 401);
  });
});

describe('DELETE /users/:uid/emails/:id', () => {
  test("an administrator deletes a user's e-mail: 200", async () => {
    const { user, client } = await app.createUser();
    const email = await addEmail(client);
    const response = await app.root.delete(`/users/${user.id}/emails/${email.id}`);
    assert.equal(response.status, 200);
    assert.deepEqual((await client.get('/user/emails')).body, []);
  });

  test('an unknown user answers 404 User Not Found', async () => {
    const email = await addEmail(alice.client);
    const response = await app.root.delete(`/users/999999/emails/${email.id}`);
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 User Not Found' });
  });

  test("an unknown e-mail, or another user's, answers 404 Email Not Found", async () => {
    const email = await addEmail(bob.client);
    for (const id of ['999999', String(email.id)]) {
      const response = await app.root.delete(`/users/${alice.user.id}/emails/${id}`);
      assert.equal(response.status, 404, id);
      assert.deepEqual(response.body, { message: '404 Email Not Found' });
    }
    assert.equal((await bob.client.get(`/user/emails/${email.id}`)).status, 200);
  });

  test('administrator only: normal users get 403, anonymous callers 401', async () => {
    const email = await addEmail(alice.client);
    const forbidden = await alice.client.delete(`/users/${alice.user.id}/emails/${email.id}`);
    assert.equal(forbidden.status, 403);
    assert.deepEqual(forbidden.body, { message: '403 Forbidden' });
    assert.equal((await app.anonymous.delete(`/users/${alice.user.id}/emails/${email.id}`)).status, 401);
    assert.equal((await alice.client.get(`/user/emails/${email.id}`)).status, 200);
  });
});
