import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startApp, type TestApp } from '../support/app';
import { chromiumMissing, launchChromium, signInThroughForm } from '../support/browser';
import { seedCommit } from '../support/repo';
import { registeredRunner } from '../support/ci-world';
import type { RunnerClient, RunningBuild } from '../support/runner-client';
import { publicKeys } from '../fixtures/ssh-keys';

/**
 * A real browser (Debian's chromium, driven by playwright-core) opens a pipeline a runner client
 * is running, opens its build and sees the log grow while the runner appends (colours styled, a
 * hostile line inert), cancels the build; and adds an SSH key on /profile/keys.
 */
const skip = chromiumMissing;

let app: TestApp;
let browser: Browser;
let account: Awaited<ReturnType<TestApp['createUser']>>;
let project: any;
let runner: RunnerClient;
let build: RunningBuild;
let pipelineId: number;

async function signIn(page: Page): Promise<void> {
  await page.goto(`${app.url}/users/sign_in`);
  await signInThroughForm(page, account, `${app.url}/`);
}

describe('in a real browser', { skip }, () => {
  before(async () => {
    app = await startApp();
    account = await app.createUser();
    const created = await account.client.post('/projects', { name: 'live-log', visibility_level: 0 });
    assert.equal(created.status, 201);
    project = created.body;
    await seedCommit(app, project.id, { files: { '.gitlab-ci.yml': 'rspec:\n  script: rspec\n' } });
    runner = await registeredRunner(app);
    const pipeline = await account.client.v4().post(`/projects/${project.id}/pipeline`, { ref: 'master' });
    assert.equal(pipeline.status, 201);
    pipelineId = pipeline.body.id;
    const request = await runner.requestBuild();
    if (request.outcome !== 'build') throw new Error('the runner was given no build');
    build = request.build;
    assert.equal((await runner.updateState(build, 'running')).status, 200);
    assert.equal((await runner.appendTrace(build, 'Running with forge runner\n')).status, 202);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  test('opens the pipeline, then its build, sees the log grow live while the runner appends, and cancels the build', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // A refused inline style or script (the page's CSP) is reported on the console; a failed request by its address.
    page.on(
      'console',
      (message) => message.type() === 'error' && !message.text().startsWith('Failed to load resource') && errors.push(message.text()),
    );
    page.on('response', (response) => {
      if (response.status() >= 400 && !response.url().endsWith('/favicon.ico')) errors.push(`${response.status()} ${response.url()}`);
    });
    await signIn(page);

    await page.goto(`${app.url}${new URL(project.web_url).pathname}/pipelines`);
    await Promise.all([page.waitForURL(/\/pipelines\/\d+$/), page.getByRole('link', { name: `#${pipelineId}` }).click()]);
    assert.equal(await page.getByRole('heading', { level: 2, name: 'test' }).count(), 1);
    await Promise.all([page.waitForURL(/\/builds\/\d+$/), page.getByRole('link', { name: 'rspec' }).click()]);
    assert.equal(await page.locator('#build-status').textContent(), 'running');
    assert.match((await page.locator('#build-trace').textContent()) ?? '', /Running with forge runner/);

    assert.equal(
      (
        await runner.appendTrace(
          build,
          '\x1b[32mgreen step\x1b[0m\n<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">\n',
        )
      ).status,
      202,
    );
    const green = page.locator('#build-trace span', { hasText: 'green step' });
    await green.waitFor();
    assert.equal(await green.evaluate((span) => getComputedStyle(span).color), 'rgb(0, 170, 0)');
    await page.locator('#build-trace', { hasText: '<script>window.__pwned = 1</script>' }).waitFor();
    assert.equal(await page.locator('#build-trace script, #build-trace img').count(), 0);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);

    assert.equal((await runner.appendTrace(build, 'third step\n')).status, 202);
    await page.locator('#build-trace', { hasText: 'third step' }).waitFor();

    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Cancel' }).click()]);
    await page.locator('#build-status', { hasText: 'canceled' }).waitFor();
    assert.equal((await account.client.get(`/projects/${project.id}/builds/${build.id}`)).body.status, 'canceled');
    assert.match((await page.locator('#build-trace').textContent()) ?? '', /third step/);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('adds an SSH key on /profile/keys', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page);
    await page.goto(`${app.url}/profile/keys`);
    await page.getByLabel('Key', { exact: true }).fill(publicKeys['rsa-1'].key);
    await page.getByLabel('Title').fill('Work laptop');
    await Promise.all([page.waitForURL(`${app.url}/profile/keys`), page.getByRole('button', { name: 'Add key' }).click()]);
    assert.equal(await page.getByRole('heading', { level: 2, name: 'Your SSH keys (1)' }).count(), 1);
    assert.equal(await page.locator('li strong').textContent(), 'Work laptop');
    const keys = await account.client.get('/user/keys');
    assert.deepEqual(
      keys.body.map((key: any) => key.title),
      ['Work laptop'],
    );
    await context.close();
  });
});
