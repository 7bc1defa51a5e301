import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startApp, type TestApp } from '../support/app';
import { chromiumMissing, launchChromium, signInThroughForm } from '../support/browser';

/** In chromium: create a project, give it a first file, then add a file on a new branch and start a merge request from it. */
const skip = chromiumMissing;

let app: TestApp;
let browser: Browser;
let account: Awaited<ReturnType<TestApp['createUser']>>;

describe('creating in a real browser', { skip }, () => {
  before(async () => {
    app = await startApp();
    account = await app.createUser();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  test('creates a project, commits a file through the editor, and a second to a new branch with a merge request', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const home = `${app.url}/${account.user.username}/garden`;

    await page.goto(`${app.url}/projects/new`);
    await signInThroughForm(page, account, `${app.url}/projects/new`);
    await page.getByLabel('Project name').fill('Garden');
    await page.getByLabel('Description').fill('Plants and notes');
    await page.getByLabel('Private').check();
    await Promise.all([page.waitForURL(home), page.getByRole('button', { name: 'Create project' }).click()]);
    assert.match((await page.getByRole('heading', { level: 1 }).textContent()) ?? '', /Garden/);

    await Promise.all([page.waitForURL(`${home}/new/master`), page.getByRole('link', { name: 'New file' }).click()]);
    await page.getByLabel('File name').fill('README.md');
    await page.getByLabel('Content').fill('# Garden\n');
    await page.getByLabel('Commit message', { exact: true }).fill('Plant the README');
    await Promise.all([page.waitForURL(`${home}/blob/master/README.md`), page.getByRole('button', { name: 'Commit changes' }).click()]);
    await page.getByRole('heading', { name: 'Garden', exact: true }).waitFor();

    await page.goto(home);
    await Promise.all([page.waitForURL(`${home}/new/master`), page.getByRole('link', { name: 'New file' }).click()]);
    await page.getByLabel('File name').fill('roses.txt');
    await page.getByLabel('Content').fill('red\n');
    await page.getByLabel('Commit message', { exact: true }).fill('Add roses');
    await page.getByLabel('Target branch', { exact: true }).fill('roses');
    await page.getByLabel('Start a new merge request with these changes').check();
    await Promise.all([page.waitForURL(/\/merge_requests\/new\?/), page.getByRole('button', { name: 'Commit changes' }).click()]);
    assert.equal(await page.getByLabel('Source branch').inputValue(), 'roses');
    assert.equal(await page.getByLabel('Target branch').inputValue(), 'master');

    const project = (await account.client.v4().get(`/projects/${encodeURIComponent(`${account.user.username}/garden`)}`)).body;
    assert.equal(project.visibility, 'private');
    assert.equal(project.description, 'Plants and notes');
    const file = await account.client.v4().get(`/projects/${project.id}/repository/files/roses.txt?ref=roses`);
    assert.equal(Buffer.from(file.body.content, 'base64').toString(), 'red\n');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
