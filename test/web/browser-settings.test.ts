import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startApp, type TestApp } from '../support/app';
import { chromiumMissing, launchChromium, signInThroughForm } from '../support/browser';
import { grantProjectRole } from '../support/roles';
import { seedCommit } from '../support/repo';
import { cloneUrl, commit, git, tempDir } from '../support/git';

/** In chromium: a master protects a branch from the settings pages, then a developer's real `git push` to it is refused. */
const skip = chromiumMissing;

let app: TestApp;
let browser: Browser;
let owner: Awaited<ReturnType<TestApp['createUser']>>;
let developer: Awaited<ReturnType<TestApp['createUser']>>;

describe('settings in a real browser', { skip }, () => {
  before(async () => {
    app = await startApp();
    owner = await app.createUser();
    developer = await app.createUser();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  test("protecting a branch in the browser makes a developer's git push to it refused", async () => {
    const project = (await owner.client.post('/projects', { name: 'fortress', visibility_level: 0 })).body;
    await seedCommit(app, project.id, { files: { 'README.md': 'walls\n' } });
    await grantProjectRole(app, project.id, developer.user.id, 30);
    // A seeded repository has no recorded default branch yet, which pushes treat as an empty (protected) one.
    assert.equal((await owner.client.v4().put(`/projects/${project.id}`, { default_branch: 'master' })).status, 200);
    const home = `${app.url}/${owner.user.username}/fortress`;

    // The developer pushes a branch of their own while it is open .
    const work = tempDir();
    const url = cloneUrl(app.url, `${owner.user.username}/fortress`, developer.user.username, developer.password);
    assert.equal((await git(['clone', '-q', url, work])).code, 0);
    await git(['config', 'user.email', 'dev@example.com'], work);
    await git(['config', 'user.name', 'Dev'], work);
    await git(['checkout', '-q', '-b', 'gate'], work);
    await commit(work, { 'gate.txt': 'open\n' }, 'Open the gate');
    const open = await git(['push', 'origin', 'gate'], work);
    assert.equal(open.code, 0, open.stderr);

    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${app.url}/users/sign_in?redirect_to=${encodeURIComponent(`/${owner.user.username}/fortress`)}`);
    await signInThroughForm(page, owner, home);
    await Promise.all([page.waitForURL(`${home}/edit`), page.getByRole('link', { name: 'Settings' }).click()]);
    await Promise.all([page.waitForURL(`${home}/protected_branches`), page.getByRole('link', { name: 'Protected branches' }).click()]);
    await page.getByLabel('Branch (or wildcard)').fill('gate');
    await page.getByLabel('Allowed to push').selectOption({ label: 'Masters' });
    await page.getByLabel('Allowed to merge').selectOption({ label: 'Developers + Masters' });
    await Promise.all([page.waitForURL(`${home}/protected_branches`), page.getByRole('button', { name: 'Protect' }).click()]);
    assert.equal(await page.getByRole('cell', { name: 'gate', exact: true }).count(), 1);
    assert.deepEqual(errors, []);

    await commit(work, { 'gate.txt': 'shut\n' }, 'Try again');
    const refused = await git(['push', 'origin', 'gate'], work);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /protected branch|not allowed/i);
    const branch = (await owner.client.v4().get(`/projects/${project.id}/repository/branches/gate`)).body;
    assert.equal(branch.commit.message.trim(), 'Open the gate');
    assert.equal(branch.protected, true);
    await context.close();
  });

  test('a user requests access from a project page; its owner grants it on the members page, and the user reads the project', async () => {
    const project = (await owner.client.post('/projects', { name: 'open-door', visibility_level: 20 })).body;
    const home = `${app.url}/${owner.user.username}/open-door`;
    const asker = await app.createUser();
    const askerContext = await browser.newContext();
    const page = await askerContext.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${app.url}/users/sign_in`);
    await signInThroughForm(page, asker, /./);
    await page.goto(home);
    await Promise.all([page.waitForURL(home), page.getByRole('button', { name: 'Request access' }).click()]);
    await page.getByRole('button', { name: 'Withdraw access request' }).waitFor();

    const ownerContext = await browser.newContext();
    const master = await ownerContext.newPage();
    master.on('pageerror', (error) => errors.push(error.message));
    await master.goto(`${app.url}/users/sign_in`);
    await signInThroughForm(master, owner, /./);
    await master.goto(`${home}/project_members`);
    await master.getByLabel(`Role to give ${asker.user.username}`).selectOption({ label: 'Reporter' });
    await Promise.all([master.waitForURL(`${home}/project_members`), master.getByRole('button', { name: 'Grant access' }).click()]);
    await master.getByRole('status').filter({ hasText: 'Access was granted' }).waitFor();
    assert.equal((await owner.client.v4().get(`/projects/${project.id}/members/${asker.user.id}`)).body.access_level, 20);

    await page.reload();
    await page.getByRole('button', { name: 'Leave project' }).waitFor();
    assert.deepEqual(errors, []);
    await askerContext.close();
    await ownerContext.close();
  });
});
