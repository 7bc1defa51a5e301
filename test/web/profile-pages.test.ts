import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { WebClient } from '../support/web';
import { publicKeys } from '../fixtures/ssh-keys';

/**
 * The signed-in user's own pages (GitLab 8.12's `/profile`, `/profile/keys`, `/profile/account`):
 * the same services and validation messages as the API, shown beside the fields with what was
 * typed kept; every change a CSRF-protected form.
 */
type Account = Awaited<ReturnType<TestApp['createUser']>>;
let app: TestApp;

async function signedIn(account: Account, password = account.password): Promise<WebClient> {
  const client = new WebClient(app.url);
  assert.equal((await client.signIn(account.user.username, password)).status, 303);
  return client;
}

/** Posts a form of `page` with its CSRF token. */
async function submit(client: WebClient, page: string, action: string, form: Record<string, string>) {
  const shown = await client.get(page);
  return client.post(action, { ...form, authenticity_token: WebClient.csrfToken(shown.text) });
}

before(async () => {
  app = await startApp();
});
after(() => app?.close());

describe('GET /profile', () => {
  test('sends an anonymous visitor to sign in, and back', async () => {
    for (const path of ['/profile', '/profile/keys', '/profile/account']) {
      const response = await new WebClient(app.url).get(path);
      assert.equal(response.status, 303, path);
      assert.equal(response.headers.get('location'), `/users/sign_in?redirect_to=${encodeURIComponent(path)}`);
    }
  });

  test('shows the name and e-mail in labelled fields, escaped', async () => {
    const account = await app.createUser({ name: 'Ada <b>Lovelace</b>' });
    const page = await (await signedIn(account)).get('/profile');
    assert.equal(page.status, 200);
    assert.match(page.text, /<label for="field-name">Name<\/label>/);
    assert.match(page.text, /id="field-name" name="name" value="Ada &lt;b&gt;Lovelace&lt;\/b&gt;"/);
    assert.ok(page.text.includes(`value="${account.user.email}"`));
  });
});

describe('POST /profile', () => {
  test('changes the name and e-mail through the users service', async () => {
    const account = await app.createUser();
    const web = await signedIn(account);
    const done = await submit(web, '/profile', '/profile', { name: 'Grace Hopper', email: 'grace@example.com' });
    assert.equal(done.status, 200);
    assert.match(done.text, /Profile was successfully updated/);
    const me = await account.client.get('/user');
    assert.equal(me.body.name, 'Grace Hopper');
    assert.equal(me.body.email, 'grace@example.com');
  });

  test('shows the validation message beside the field, keeping what was typed', async () => {
    const account = await app.createUser();
    const web = await signedIn(account);
    const refused = await submit(web, '/profile', '/profile', { name: 'Still <Me>', email: 'not an e-mail' });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /<p class="field-error" id="field-email-error">Email is invalid<\/p>/);
    assert.match(refused.text, /name="email" value="not an e-mail" [^>]*aria-invalid="true"/);
    assert.match(refused.text, /name="name" value="Still &lt;Me&gt;"/);
    assert.equal((await account.client.get('/user')).body.email, account.user.email);
  });

  test("another user's e-mail is refused beside the field", async () => {
    const other = await app.createUser();
    const account = await app.createUser();
    const refused = await submit(await signedIn(account), '/profile', '/profile', { name: 'x', email: other.user.email });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /id="field-email-error">Email has already been taken</);
  });

  test('a POST without the CSRF token is refused and changes nothing', async () => {
    const account = await app.createUser();
    const web = await signedIn(account);
    const refused = await web.post('/profile', { name: 'Forged', email: 'forged@example.com' });
    assert.equal(refused.status, 403);
    assert.equal((await account.client.get('/user')).body.name, account.user.name);
  });
});

describe('POST /profile/password', () => {
  test('needs the current password', async () => {
    const account = await app.createUser();
    const web = await signedIn(account);
    const refused = await submit(web, '/profile', '/profile/password', {
      current_password: 'wrong-password',
      password: 'new-password-1',
      password_confirmation: 'new-password-1',
    });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /id="field-current_password-error">Current password is invalid</);
    assert.doesNotMatch(refused.text, /new-password-1/);
    await signedIn(account);
  });

  test('needs the new password twice, alike', async () => {
    const account = await app.createUser();
    const refused = await submit(await signedIn(account), '/profile', '/profile/password', {
      current_password: account.password,
      password: 'new-password-1',
      password_confirmation: 'new-password-2',
    });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /Password confirmation doesn&#39;t match Password/);
  });

  test('changes it, ends the session, and the new password signs in', async () => {
    const account = await app.createUser();
    const web = await signedIn(account);
    const done = await submit(web, '/profile', '/profile/password', {
      current_password: account.password,
      password: 'brand-new-pass',
      password_confirmation: 'brand-new-pass',
    });
    assert.equal(done.status, 303);
    assert.equal(done.headers.get('location'), '/users/sign_in');
    assert.equal((await web.get('/profile')).status, 303, 'the old session ended');
    const again = new WebClient(app.url);
    assert.equal((await again.signIn(account.user.username, account.password)).status, 401);
    await signedIn(account, 'brand-new-pass');
  });
});

describe('/profile/keys', () => {
  test('adds a key, lists it with its fingerprint, and removes it', async () => {
    const account = await app.createUser();
    const web = await signedIn(account);
    const { key, fingerprint } = publicKeys['rsa-1'];
    const added = await submit(web, '/profile/keys', '/profile/keys', { title: 'Laptop <1>', key });
    assert.equal(added.status, 303);
    const page = await web.get('/profile/keys');
    assert.match(page.text, /<strong>Laptop &lt;1&gt;<\/strong>/);
    assert.ok(page.text.includes(fingerprint));
    const [apiKey] = (await account.client.get('/user/keys')).body;
    assert.equal(apiKey.title, 'Laptop <1>');
    const removed = await submit(web, '/profile/keys', `/profile/keys/${apiKey.id}/delete`, {});
    assert.equal(removed.status, 303);
    assert.deepEqual((await account.client.get('/user/keys')).body, []);
  });

  test('an invalid key is refused beside the field, keeping the title', async () => {
    const account = await app.createUser();
    const refused = await submit(await signedIn(account), '/profile/keys', '/profile/keys', { title: 'Work', key: 'not a key' });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /id="field-key-error">Key is invalid</);
    assert.match(refused.text, /name="title" value="Work"/);
    assert.match(refused.text, />not a key<\/textarea>/);
  });

  test("another user's key cannot be removed: 404, and it stays", async () => {
    const owner = await app.createUser();
    const created = await owner.client.post('/user/keys', { title: 'mine', key: publicKeys['ecdsa-1'].key });
    assert.equal(created.status, 201);
    const other = await app.createUser();
    const refused = await submit(await signedIn(other), '/profile/keys', `/profile/keys/${created.body.id}/delete`, {});
    assert.equal(refused.status, 404);
    assert.equal((await owner.client.get('/user/keys')).body.length, 1);
  });

  test('an anonymous form is a 404', async () => {
    const anonymous = new WebClient(app.url);
    const form = await anonymous.get('/users/sign_in');
    const refused = await anonymous.post('/profile/keys', {
      title: 'x',
      key: publicKeys['ecdsa-2'].key,
      authenticity_token: WebClient.csrfToken(form.text),
    });
    assert.equal(refused.status, 404);
  });
});

describe('/profile/account', () => {
  test('shows the private token and resets it: the old one stops working', async () => {
    const account = await app.createUser();
    const web = await signedIn(account);
    const page = await web.get('/profile/account');
    assert.ok(page.text.includes(`value="${account.token}"`));
    const reset = await submit(web, '/profile/account', '/profile/reset_private_token', {});
    assert.equal(reset.status, 200);
    const fresh = /id="private-token" readonly value="([^"]+)"/.exec(reset.text)?.[1] ?? '';
    assert.ok(fresh.length >= 20 && fresh !== account.token);
    assert.equal((await account.client.get('/user')).status, 401);
    assert.equal((await app.as(fresh).get('/user')).status, 200);
  });
});
