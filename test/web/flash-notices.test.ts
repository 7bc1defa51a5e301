import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { seedCommit } from '../support/repo';
import { WebClient } from '../support/web';
import { NoticeCodec } from '../../src/web/flash';
import { HookListener } from '../support/hook-listener';

/**
 * GitLab's flash notice: a form that succeeds redirects (303), and the page it leads to says so
 * once ("Project 'x' was successfully updated."), then never again. The notice travels in a
 * short-lived cookie signed for this browser only, and is always text.
 */
type Account = Awaited<ReturnType<TestApp['createUser']>>;
let app: TestApp;
let owner: Account;
let project: any;
let path: string;
let web: WebClient;
let admin: WebClient;
let listener: HookListener;

async function signedIn(login: string, password: string): Promise<WebClient> {
  const client = new WebClient(app.url);
  assert.equal((await client.signIn(login, password)).status, 303);
  return client;
}

async function submit(client: WebClient, page: string, action: string, form: Record<string, string> = {}) {
  const shown = await client.get(page);
  assert.equal(shown.status, 200, page);
  return client.post(action, { ...form, authenticity_token: WebClient.csrfToken(shown.text) });
}

const noticeOf = (page: string) => page.match(/<p class="notice flash" role="status" id="flash-notice">([^<]*)<\/p>/)?.[1];

/** Follows a form's redirect: the notice on the page it leads to, and whether the next page still has one. */
async function noticeAfter(client: WebClient, response: { status: number; headers: Headers }): Promise<string | undefined> {
  assert.equal(response.status, 303);
  const page = await client.get(response.headers.get('location')!);
  assert.equal(page.status, 200);
  const notice = noticeOf(page.text);
  assert.equal(noticeOf((await client.get(response.headers.get('location')!)).text), undefined, 'shown once');
  return notice;
}

before(async () => {
  app = await startApp();
  owner = await app.createUser({ can_create_group: true });
  project = (await owner.client.post('/projects', { name: 'flashy', visibility_level: 0 })).body;
  path = new URL(project.web_url).pathname;
  await seedCommit(app, project.id, { files: { 'README.md': 'hello\n' } });
  web = await signedIn(owner.user.username, owner.password);
  admin = await signedIn('root', 'rootpassword');
  listener = await HookListener.start();
});
after(async () => {
  await listener?.close();
  await app?.close();
});

describe('notices after a redirect', () => {
  test("project settings: Project 'x' was successfully updated.", async () => {
    const saved = await submit(web, `${path}/edit`, `${path}/edit`, { description: 'Now described' });
    assert.equal(await noticeAfter(web, saved), 'Project &#39;flashy&#39; was successfully updated.');
  });

  test('the cookie is HttpOnly, SameSite=Lax and short-lived, and the page that shows it clears it', async () => {
    const saved = await submit(web, `${path}/edit`, `${path}/edit`, { description: 'Again' });
    const cookie = saved.setCookies.find((line) => line.startsWith('_forge_notice='));
    assert.ok(cookie, 'a notice cookie');
    assert.match(cookie, /HttpOnly/i);
    assert.match(cookie, /SameSite=Lax/i);
    assert.match(cookie, /Max-Age=60/i);
    const page = await web.get(saved.headers.get('location')!);
    assert.ok(page.setCookies.some((line) => /^_forge_notice=;/.test(line) || /^_forge_notice=.*Expires=Thu, 01 Jan 1970/i.test(line)));
    assert.equal(web.cookies.has('_forge_notice'), false);
  });

  test('webhooks, admin forms, profile forms and creation forms say what they did', async () => {
    const hook = await submit(web, `${path}/hooks`, `${path}/hooks`, { url: `${listener.url}/x`, push_events: '1' });
    assert.equal(await noticeAfter(web, hook), 'Hook was successfully created.');
    const created = await submit(web, '/projects/new', '/projects', { name: 'Fresh start', path: 'fresh-start', visibility_level: '0' });
    assert.equal(await noticeAfter(web, created), 'Project &#39;Fresh start&#39; was successfully created.');
    const group = await submit(web, '/groups/new', '/groups', { name: 'Crew', path: `crew-${Date.now()}`, visibility_level: '0' });
    assert.equal(await noticeAfter(web, group), 'Group &#39;Crew&#39; was successfully created.');
    const email = await submit(web, '/profile/emails', '/profile/emails', { email: `flash-${owner.user.username}@example.com` });
    assert.equal(await noticeAfter(web, email), 'Email was successfully added.');
    const broadcast = await submit(admin, '/admin/broadcast_messages', '/admin/broadcast_messages', { message: 'Hello' });
    assert.equal(await noticeAfter(admin, broadcast), 'Broadcast Message was successfully created.');
    const systemHook = await submit(admin, '/admin/hooks', '/admin/hooks', { url: `${listener.url}/system` });
    assert.equal(await noticeAfter(admin, systemHook), 'Hook was successfully created.');
  });

  test('a changed password: the sign-in page says so', async () => {
    const account = await app.createUser();
    const client = await signedIn(account.user.username, account.password);
    const changed = await submit(client, '/profile', '/profile/password', {
      current_password: account.password,
      password: 'brand-new-password-1',
      password_confirmation: 'brand-new-password-1',
    });
    assert.equal(changed.headers.get('location'), '/users/sign_in');
    assert.equal(await noticeAfter(client, changed), 'Password was successfully updated. Please login with it');
  });

  test('a refused form leaves no notice', async () => {
    const refused = await submit(web, `${path}/hooks`, `${path}/hooks`, { url: 'ftp://nowhere' });
    assert.equal(refused.status, 400);
    assert.equal(
      refused.setCookies.some((line) => line.startsWith('_forge_notice=')),
      false,
    );
    assert.equal(noticeOf((await web.get(`${path}/hooks`)).text), undefined);
  });

  test("another browser's notice, or a forged one, is not shown", async () => {
    const saved = await submit(web, `${path}/edit`, `${path}/edit`, { description: 'Once more' });
    const cookie = web.cookies.get('_forge_notice')!;
    const other = await signedIn(owner.user.username, owner.password);
    other.cookies.set('_forge_notice', cookie);
    assert.equal(noticeOf((await other.get(saved.headers.get('location')!)).text), undefined);
    other.cookies.set('_forge_notice', `${Buffer.from('<b>forged</b>').toString('base64url')}.bad`);
    const forged = await other.get(path);
    assert.equal(forged.status, 200);
    assert.doesNotMatch(forged.text, /forged/);
  });

  test('a notice is text: markup in it is escaped', async () => {
    const codec = new NoticeCodec(app.ctx.secrets);
    web.cookies.set('_forge_notice', codec.seal('<script>alert(1)</script> & more', web.cookies.get('_forge_csrf')!));
    const page = await web.get(path);
    assert.equal(noticeOf(page.text), '&lt;script&gt;alert(1)&lt;/script&gt; &amp; more');
    assert.doesNotMatch(page.text, /<script>alert/);
  });
});
