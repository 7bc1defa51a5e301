import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startApp, type TestApp } from '../support/app';
import { chromiumMissing, launchChromium, signInThroughForm } from '../support/browser';
import { seedCommit } from '../support/repo';
import { HookListener } from '../support/hook-listener';

/**
 * A user's and a master's day in chromium: a project's notification level chosen on its page is
 * the API's; an issue assigned through the API shows in the top bar; a hook's test delivery shows
 * in its recent deliveries, with the page of the delivery.
 */
const skip = chromiumMissing;

let app: TestApp;
let browser: Browser;
let listener: HookListener;
let owner: Awaited<ReturnType<TestApp['createUser']>>;

describe("a user's day in a real browser", { skip }, () => {
  before(async () => {
    app = await startApp();
    owner = await app.createUser();
    browser = await launchChromium();
    listener = await HookListener.start();
  });
  after(async () => {
    await listener?.close();
    await browser?.close();
    await app?.close();
  });

  test('notification level, assigned count and a hook delivery, each seen in the page', async () => {
    const project = (await owner.client.post('/projects', { name: 'daily', visibility_level: 0 })).body;
    await seedCommit(app, project.id, { files: { 'README.md': 'a day\n' } });
    const home = `${app.url}/${owner.user.username}/daily`;
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${app.url}/users/sign_in?redirect_to=${encodeURIComponent(`/${owner.user.username}/daily`)}`);
    await signInThroughForm(page, owner, home);

    // The project's level, set with the page's own control (no script needed).
    await page.getByLabel('Notifications').selectOption({ label: 'Watch' });
    await Promise.all([page.waitForURL(home), page.getByRole('button', { name: 'Save' }).click()]);
    await assert.doesNotReject(page.getByRole('status').filter({ hasText: 'Notification settings saved' }).waitFor());
    assert.equal(await page.getByLabel('Notifications').inputValue(), 'watch');
    assert.equal((await owner.client.v4().get(`/projects/${project.id}/notification_settings`)).body.level, 'watch');

    // An issue assigned through the API: the top bar counts it on the next page, and leads to it.
    const bar = page.getByRole('navigation', { name: 'Your work' });
    // biome-ignore lint/performance/useDomNodeTextContent: playwright's innerText(), the text as shown, not the DOM property
    assert.equal(await bar.getByRole('link', { name: /^Issues/ }).innerText(), 'Issues 0');
    await owner.client.v4().post(`/projects/${project.id}/issues`, { title: 'Water the plants', assignee_id: owner.user.id });
    await page.reload();
    // biome-ignore lint/performance/useDomNodeTextContent: playwright's innerText(), the text as shown, not the DOM property
    assert.equal(await bar.getByRole('link', { name: /^Issues/ }).innerText(), 'Issues 1');
    await Promise.all([page.waitForURL(`${app.url}/dashboard/issues`), bar.getByRole('link', { name: /^Issues/ }).click()]);
    await assert.doesNotReject(page.getByRole('link', { name: 'Water the plants' }).waitFor());

    // A webhook added and tested by hand: its test delivery is among its recent deliveries.
    await page.goto(`${home}/hooks`);
    await page.getByLabel('URL').fill(`${listener.url}/daily`);
    await Promise.all([page.waitForURL(`${home}/hooks`), page.getByRole('button', { name: 'Add webhook' }).click()]);
    await assert.doesNotReject(page.getByRole('status').filter({ hasText: 'Hook was successfully created.' }).waitFor());
    await Promise.all([page.waitForURL(`${home}/hooks/*/test`), page.getByRole('button', { name: 'Test' }).click()]);
    await assert.doesNotReject(page.getByText('Hook executed successfully: HTTP 200').waitFor());
    const received = await listener.waitFor((hook) => hook.url === '/hook/daily');
    assert.equal(received.headers['x-gitlab-event'], 'Push Hook');
    await Promise.all([page.waitForURL(/\/hooks\/\d+\/edit$/), page.getByRole('link', { name: 'Edit' }).click()]);
    const deliveries = page.getByRole('region', { name: 'Recent deliveries' });
    const row = deliveries.getByRole('row').filter({ hasText: 'Push Hook' });
    // biome-ignore lint/performance/useDomNodeTextContent: playwright's innerText(), the text as shown, not the DOM property
    assert.match(await row.innerText(), /200\s+Push Hook test/);
    await Promise.all([page.waitForURL(/\/hook_logs\/\d+$/), row.getByRole('link', { name: /View details/ }).click()]);
    await assert.doesNotReject(page.getByRole('heading', { name: 'Request body' }).waitFor());
    // biome-ignore lint/performance/useDomNodeTextContent: playwright's innerText(), the text as shown, not the DOM property
    assert.match(await page.locator('pre').last().innerText(), /^ok$/);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
