import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startApp, type TestApp } from '../support/app';
import { chromiumMissing, launchChromium, signInThroughForm } from '../support/browser';

/** In chromium: sign in, create an issue, comment, close and reopen it; hostile Markdown in an issue runs no script. */
const skip = chromiumMissing;

let app: TestApp;
let browser: Browser;
let account: Awaited<ReturnType<TestApp['createUser']>>;
let project: any;

const HOSTILE = [
  'Hello **world**',
  '',
  '<img src=x onerror="window.__pwned = \'img\'">',
  '<script>window.__pwned = "script"</script>',
  '<a href="javascript:window.__pwned=\'link\'" id="evil-link">click me</a>',
].join('\n');

describe('issues in a real browser', { skip }, () => {
  before(async () => {
    app = await startApp();
    account = await app.createUser();
    project = (await account.client.post('/projects', { name: 'browser-issues', visibility_level: 0 })).body;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  test('signs in, creates an issue with hostile Markdown, comments, closes and reopens it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const path = new URL(project.web_url).pathname;

    await page.goto(`${app.url}${path}/issues/new`);
    await signInThroughForm(page, account, `${app.url}${path}/issues/new`);

    await page.getByLabel('Title').fill('A browser issue');
    await page.getByLabel('Description').fill(HOSTILE);
    await Promise.all([page.waitForURL(`${app.url}${path}/issues/1`), page.getByRole('button', { name: 'Submit issue' }).click()]);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'A browser issue');
    assert.equal(await page.locator('.description strong').textContent(), 'world');
    await page
      .locator('#evil-link')
      .click()
      .catch(() => undefined);
    await page.waitForLoadState('load');
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);
    assert.equal(await page.locator('.description script').count(), 0);

    await page.getByLabel('Comment').fill('Looks good');
    await Promise.all([page.waitForURL(/issues\/1#note_\d+$/), page.getByRole('button', { name: 'Comment' }).click()]);
    assert.ok(await page.getByText('Looks good').isVisible());

    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Close issue' }).click()]);
    await page.getByRole('button', { name: 'Reopen issue' }).waitFor();
    assert.equal((await account.client.v4().get(`/projects/${project.id}/issues/1`)).body.state, 'closed');
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Reopen issue' }).click()]);
    await page.getByRole('button', { name: 'Close issue' }).waitFor();
    assert.equal((await account.client.v4().get(`/projects/${project.id}/issues/1`)).body.state, 'reopened');

    const notes = await account.client.v4().get(`/projects/${project.id}/issues/1/notes`);
    assert.ok(notes.body.some((note: any) => note.body === 'Looks good'));
    assert.deepEqual(errors, []);
    await context.close();
  });
});
