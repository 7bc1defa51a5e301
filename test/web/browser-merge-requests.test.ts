import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startApp, type TestApp } from '../support/app';
import { seedCommit } from '../support/repo';
import { chromiumMissing, launchChromium, signInThroughForm } from '../support/browser';

/** In chromium: sign in, open a merge request from a branch through the form, comment, read its changes, merge it. */
const skip = chromiumMissing;

let app: TestApp;
let browser: Browser;
let account: Awaited<ReturnType<TestApp['createUser']>>;
let project: any;

describe('merge requests in a real browser', { skip }, () => {
  before(async () => {
    app = await startApp();
    account = await app.createUser();
    project = (await account.client.post('/projects', { name: 'browser-merges', visibility_level: 0 })).body;
    await seedCommit(app, project.id, { files: { 'README.md': 'hello\n' } });
    await seedCommit(app, project.id, {
      branch: 'feature',
      startRef: 'refs/heads/master',
      files: { 'feature.txt': 'a browser feature\n' },
      message: 'Add the feature\n',
    });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  test('opens a merge request from a branch, comments, reads the Changes tab and merges it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const path = new URL(project.web_url).pathname;
    const form = `${app.url}${path}/merge_requests/new?merge_request%5Bsource_branch%5D=feature`;

    await page.goto(form);
    await signInThroughForm(page, account, form);
    assert.equal(await page.getByLabel('Source branch').inputValue(), 'feature');
    assert.equal(await page.getByLabel('Target branch').inputValue(), 'master');
    await page.getByLabel('Title').fill('A browser merge request');
    await page.getByLabel('Description').fill('Adds **the feature**');
    await Promise.all([
      page.waitForURL(`${app.url}${path}/merge_requests/1`),
      page.getByRole('button', { name: 'Submit merge request' }).click(),
    ]);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'A browser merge request');
    assert.equal(await page.locator('.description strong').textContent(), 'the feature');

    await page.getByLabel('Comment').fill('Ship it');
    await Promise.all([page.waitForURL(/merge_requests\/1#note_\d+$/), page.getByRole('button', { name: 'Comment' }).click()]);
    assert.ok(await page.getByText('Ship it').isVisible());

    await Promise.all([page.waitForURL(`${app.url}${path}/merge_requests/1/diffs`), page.getByRole('link', { name: 'Changes' }).click()]);
    assert.ok(await page.getByText('+a browser feature').isVisible());

    await Promise.all([page.waitForURL(`${app.url}${path}/merge_requests/1`), page.getByRole('link', { name: 'Discussion' }).click()]);
    await page.getByLabel('Remove source branch').check();
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Merge', exact: true }).click()]);
    await page.getByText('Merged by').waitFor();

    const merged = await account.client.v4().get(`/projects/${project.id}/merge_requests/1`);
    assert.equal(merged.body.state, 'merged');
    assert.equal((await account.client.v4().get(`/projects/${project.id}/repository/files/feature.txt?ref=master`)).status, 200);
    assert.equal((await account.client.v4().get(`/projects/${project.id}/repository/branches/feature`)).status, 404);
    const notes = await account.client.v4().get(`/projects/${project.id}/merge_requests/1/notes`);
    assert.ok(notes.body.some((note: any) => note.body === 'Ship it'));
    assert.deepEqual(errors, []);
    await context.close();
  });
});
