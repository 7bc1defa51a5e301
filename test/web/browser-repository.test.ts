import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startApp, type TestApp } from '../support/app';
import { chromiumMissing, launchChromium } from '../support/browser';
import { seedCommit } from '../support/repo';

/**
 * The repository pages in a real browser (Debian's chromium through playwright-core): from a
 * project's home into a folder and a file, a line's anchor, the branch switcher (its script sends
 * the form on change), and a commit.
 */
const skip = chromiumMissing;

let app: TestApp;
let browser: Browser;
let project: any;

const APP = ['const a = 1;', 'const b = 2;', 'const c = a + b;', 'console.log(c);', ''].join('\n');

describe('repository pages in a real browser', { skip }, () => {
  before(async () => {
    app = await startApp();
    const owner = await app.createUser();
    const created = await owner.client.post('/projects', { name: 'browse-in-chromium', visibility_level: 20 });
    assert.equal(created.status, 201);
    project = created.body;
    await seedCommit(app, project.id, { files: { 'README.md': '# Browsing\n', 'src/app.js': APP }, message: 'Start the app\n' });
    await seedCommit(app, project.id, {
      branch: 'feature/x',
      startRef: 'master',
      files: { 'src/app.js': APP.replace('1', '10') },
      message: 'Make a bigger\n',
    });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  test('opens the project home, a folder, a file, a line anchor; switches branch; opens a commit', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const base = `${app.url}${new URL(project.web_url).pathname}`;

    await page.goto(base);
    await Promise.all([page.waitForURL(`${base}/tree/master`), page.getByRole('link', { name: 'Files' }).click()]);
    await Promise.all([page.waitForURL(`${base}/tree/master/src`), page.getByRole('link', { name: 'src/' }).click()]);
    await Promise.all([page.waitForURL(`${base}/blob/master/src/app.js`), page.getByRole('link', { name: 'app.js' }).click()]);
    assert.equal(await page.locator('#L3 td.src').textContent(), 'const c = a + b;');
    assert.equal(await page.locator('#L1 .hljs-keyword').first().textContent(), 'const');

    await page.locator('#L3 a').click();
    assert.equal(new URL(page.url()).hash, '#L3');
    assert.equal(await page.locator('tr:target').getAttribute('id'), 'L3');

    // The select sends its form as soon as it changes: no button pressed.
    await Promise.all([page.waitForURL(`${base}/blob/feature/x/src/app.js`), page.getByLabel('Branch or tag').selectOption('feature/x')]);
    assert.equal(await page.locator('#L1 td.src').textContent(), 'const a = 10;');

    await Promise.all([page.waitForURL(`${base}/commits/master`), page.getByRole('link', { name: 'Commits' }).click()]);
    await page.getByLabel('Branch or tag').selectOption('feature/x');
    await page.waitForURL(`${base}/commits/feature/x`);
    await Promise.all([page.waitForURL(/\/commit\/[0-9a-f]{40}$/), page.getByRole('link', { name: 'Make a bigger' }).click()]);
    assert.equal(await page.getByRole('heading', { level: 2 }).first().textContent(), 'Make a bigger');
    assert.equal(await page.locator('tr.add td.src').textContent(), '+const a = 10;');
    assert.equal(await page.locator('tr.del td.src').textContent(), '-const a = 1;');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
