import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startApp, type TestApp } from '../support/app';
import { chromiumMissing, launchChromium, signInThroughForm } from '../support/browser';
import { seedCommit } from '../support/repo';

/**
 * A real browser (Debian's chromium, driven by playwright-core) signs in through the form, lands
 * on `/`, opens a project from its API `web_url`, and sees its README rendered; a hostile README
 * runs no script.
 */
const skip = chromiumMissing;

let app: TestApp;
let browser: Browser;
let account: Awaited<ReturnType<TestApp['createUser']>>;
let project: any;

const HOSTILE_README = [
  '# Friendly title',
  '',
  'Some **bold** text.',
  '',
  '<img src=x onerror="window.__pwned = \'img\'">',
  '',
  '<script>window.__pwned = "script"</script>',
  '',
  '<a href="javascript:window.__pwned=\'link\'" id="evil-link">click me</a>',
  '',
  '<svg onload="window.__pwned = \'svg\'"></svg>',
  '',
  '<details open ontoggle="window.__pwned = \'details\'"><summary>more</summary>x</details>',
].join('\n');

describe('in a real browser', { skip }, () => {
  before(async () => {
    app = await startApp();
    account = await app.createUser();
    const created = await account.client.post('/projects', { name: 'browser-project', visibility_level: 0 });
    assert.equal(created.status, 201);
    project = created.body;
    await seedCommit(app, project.id, { files: { 'README.md': HOSTILE_README } });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  test('signs in through the form, lands on /, opens a project from its web_url; a hostile README runs no script', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    await page.goto(`${app.url}/users/sign_in`);
    await signInThroughForm(page, account, `${app.url}/`);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Your projects');
    assert.ok(await page.getByRole('link', { name: /browser-project/ }).isVisible());

    // The API's web_url names the external URL (localhost); the browser goes to the same path here.
    await page.goto(app.url + new URL(project.web_url).pathname);
    assert.equal(await page.locator('article.readme h1').textContent(), 'Friendly title');
    assert.equal(await page.locator('article.readme strong').textContent(), 'bold');
    await page
      .locator('#evil-link')
      .click()
      .catch(() => undefined);
    await page.locator('article.readme summary').click();
    await page.waitForLoadState('load');
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);
    assert.equal(await page.locator('article.readme script, article.readme svg').count(), 0);
    assert.deepEqual(errors, []);

    // Signed out through the header's button: `/` is the public list again.
    await Promise.all([page.waitForURL(`${app.url}/`), page.getByRole('button', { name: 'Sign out' }).click()]);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Public projects');
    await page.goto(app.url + new URL(project.web_url).pathname);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), '404: Page not found');
    await context.close();
  });
});
