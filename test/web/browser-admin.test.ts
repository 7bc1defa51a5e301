import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startApp, type TestApp } from '../support/app';
import { chromiumMissing, launchChromium, signInThroughForm } from '../support/browser';

/** In chromium: an administrator finds a user, blocks them on their page, and that user's sign-in through the form then fails. */
const skip = chromiumMissing;

let app: TestApp;
let browser: Browser;
let account: Awaited<ReturnType<TestApp['createUser']>>;

describe('administration in a real browser', { skip }, () => {
  before(async () => {
    app = await startApp();
    account = await app.createUser({ name: 'To Be Blocked' });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  test('an administrator blocks a user, whose sign-in through the form then fails', async () => {
    const adminContext = await browser.newContext();
    const page = await adminContext.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${app.url}/users/sign_in`);
    await signInThroughForm(page, { user: { username: 'root' }, password: 'rootpassword' }, `${app.url}/`);

    await page.goto(`${app.url}/admin/users`);
    await page.getByLabel('Search users').fill(account.user.username);
    await Promise.all([page.waitForURL(/\/admin\/users\?search=/), page.getByRole('button', { name: 'Search' }).click()]);
    await Promise.all([
      page.waitForURL(`${app.url}/admin/users/${account.user.username}`),
      page.getByRole('link', { name: 'To Be Blocked' }).click(),
    ]);
    await Promise.all([
      page.waitForURL(`${app.url}/admin/users`),
      page.getByRole('button', { name: `Block ${account.user.username}` }).click(),
    ]);
    await page.getByRole('button', { name: `Unblock ${account.user.username}` }).waitFor();
    assert.equal((await app.root.v4().get(`/users/${account.user.id}`)).body.state, 'blocked');

    const userContext = await browser.newContext();
    const blocked = await userContext.newPage();
    await blocked.goto(`${app.url}/users/sign_in`);
    await blocked.getByLabel('Username or email').fill(account.user.username);
    await blocked.getByLabel('Password').fill(account.password);
    await blocked.getByRole('button', { name: 'Sign in' }).click();
    await blocked.getByRole('alert').waitFor();
    assert.match(blocked.url(), /\/users\/sign_in/);
    assert.equal(await blocked.getByRole('link', { name: 'Sign in' }).count(), 1);
    assert.deepEqual(errors, []);
    await adminContext.close();
    await userContext.close();
  });

  test('an administrator removes a user by typing the username, and edits a system hook', async () => {
    const leaving = await app.createUser({ name: 'To Be Removed' });
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${app.url}/users/sign_in`);
    await signInThroughForm(page, { user: { username: 'root' }, password: 'rootpassword' }, `${app.url}/`);

    await page.goto(`${app.url}/admin/users/${leaving.user.username}`);
    await page.getByLabel(`Type ${leaving.user.username} to confirm`).fill(leaving.user.username);
    await Promise.all([page.waitForURL(`${app.url}/admin/users`), page.getByRole('button', { name: 'Remove user' }).click()]);
    await page.getByRole('status').filter({ hasText: 'User was successfully removed' }).waitFor();
    assert.equal((await app.root.v4().get(`/users/${leaving.user.id}`)).status, 404);

    const hook = (await app.root.v4().post('/hooks', { url: 'http://127.0.0.1:9/before' })).body;
    await page.goto(`${app.url}/admin/hooks/${hook.id}`);
    await Promise.all([page.waitForURL(`${app.url}/admin/hooks/${hook.id}/edit`), page.getByRole('link', { name: 'Edit' }).click()]);
    await page.getByLabel('URL').fill('http://127.0.0.1:9/after');
    await page.getByLabel('Tag push events').check();
    await Promise.all([page.waitForURL(`${app.url}/admin/hooks/${hook.id}`), page.getByRole('button', { name: 'Save changes' }).click()]);
    const [changed] = (await app.root.v4().get('/hooks')).body;
    assert.equal(changed.url, 'http://127.0.0.1:9/after');
    assert.equal(changed.tag_push_events, true);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
