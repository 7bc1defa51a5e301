import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startApp, type TestApp } from '../support/app';
import { chromiumMissing, launchChromium, signInThroughForm } from '../support/browser';

/** In chromium: the snippet, milestone and label pages, each reached from what the API answers. */
const skip = chromiumMissing;

let app: TestApp;
let browser: Browser;
let account: Awaited<ReturnType<TestApp['createUser']>>;
let project: any;

describe('snippets, milestones and labels in a real browser', { skip }, () => {
  before(async () => {
    app = await startApp();
    account = await app.createUser();
    project = (await account.client.post('/projects', { name: 'browser-more', visibility_level: 0 })).body;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  test("a snippet opened from its web_url, the milestones and the labels, and a label's issues", async () => {
    const { client } = account;
    const snippet = (
      await client.post(`/projects/${project.id}/snippets`, {
        title: 'Greeting',
        file_name: 'hello.rb',
        code: 'puts "hello from a snippet"\n',
        visibility_level: 0,
      })
    ).body;
    const milestone = (await client.post(`/projects/${project.id}/milestones`, { title: 'Release 1' })).body;
    assert.equal((await client.post(`/projects/${project.id}/labels`, { name: 'bug', color: '#d9534f' })).status, 201);
    await client.post(`/projects/${project.id}/issues`, { title: 'Crash on start', labels: 'bug', milestone_id: milestone.id });

    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // A private project's snippet is a 404 to a visitor: sign in first, and come back to it.
    const snippetPath = new URL(snippet.web_url).pathname;
    await page.goto(`${app.url}/users/sign_in?redirect_to=${encodeURIComponent(snippetPath)}`);
    await signInThroughForm(page, account, `${app.url}${snippetPath}`);
    assert.ok(await page.getByText('Greeting').first().isVisible());
    assert.ok(await page.getByText('hello from a snippet').isVisible());

    const path = new URL(project.web_url).pathname;
    await page.goto(`${app.url}${path}/milestones`);
    await page.getByRole('link', { name: 'Release 1' }).click();
    await page.waitForLoadState('load');
    assert.ok(await page.getByRole('link', { name: /Crash on start/ }).isVisible());

    await page.goto(`${app.url}${path}/labels`);
    await Promise.all([page.waitForURL(/\/issues\?/), page.getByRole('link', { name: /bug/ }).first().click()]);
    assert.ok(await page.getByRole('link', { name: /Crash on start/ }).isVisible());
    assert.deepEqual(errors, []);
    await context.close();
  });
});
