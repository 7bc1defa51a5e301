import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startApp, type TestApp } from '../support/app';
import { chromiumMissing, launchChromium, signInThroughForm } from '../support/browser';

/** In chromium: an owner adds a member to a group, changes their level and edits the group's settings; the API sees each change. */
const skip = chromiumMissing;

let app: TestApp;
let browser: Browser;
let owner: Awaited<ReturnType<TestApp['createUser']>>;
let newcomer: Awaited<ReturnType<TestApp['createUser']>>;

describe('group pages in a real browser', { skip }, () => {
  before(async () => {
    app = await startApp();
    owner = await app.createUser({ can_create_group: true });
    newcomer = await app.createUser();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  test('an owner adds a member, changes the level and edits the settings', async () => {
    const group = (await owner.client.v4().post('/groups', { name: 'crafters', path: 'crafters', visibility: 'private' })).body;
    const home = `${app.url}/groups/crafters`;
    const api = owner.client.v4();

    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${app.url}/users/sign_in?redirect_to=${encodeURIComponent('/groups/crafters')}`);
    await signInThroughForm(page, owner, home);

    await Promise.all([page.waitForURL(`${home}/group_members`), page.getByRole('link', { name: 'Members', exact: true }).click()]);
    await page.getByLabel('Username', { exact: true }).fill(newcomer.user.username);
    await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Reporter' });
    await page.getByLabel('Access expires on (YYYY-MM-DD, optional)').fill('2099-06-30');
    await Promise.all([page.waitForURL(`${home}/group_members`), page.getByRole('button', { name: 'Add to group' }).click()]);
    let member = (await api.get(`/groups/${group.id}/members/${newcomer.user.id}`)).body;
    assert.equal(member.access_level, 20);
    assert.equal(member.expires_at, '2099-06-30');

    const row = page.locator(`#member-${newcomer.user.id}`);
    await row.getByLabel(`Role of ${newcomer.user.username}`).selectOption({ label: 'Master' });
    await Promise.all([page.waitForURL(`${home}/group_members`), row.getByRole('button', { name: 'Save' }).click()]);
    member = (await api.get(`/groups/${group.id}/members/${newcomer.user.id}`)).body;
    assert.equal(member.access_level, 40);
    assert.equal(await row.getByLabel(`Role of ${newcomer.user.username}`).inputValue(), '40');

    await Promise.all([page.waitForURL(`${home}/edit`), page.getByRole('link', { name: 'Settings', exact: true }).click()]);
    await page.getByLabel('Group name').fill('Crafters Guild');
    await page.getByLabel('Description').fill('Makers of things');
    await page.getByLabel('Internal').check();
    await page.getByLabel('Allow users to request access').uncheck();
    await Promise.all([page.waitForURL(`${home}/edit`), page.getByRole('button', { name: 'Save group' }).click()]);
    const found = (await api.get(`/groups/${group.id}`)).body;
    assert.equal(found.name, 'Crafters Guild');
    assert.equal(found.description, 'Makers of things');
    assert.equal(found.visibility, 'internal');
    assert.equal(found.request_access_enabled, false);
    assert.equal(await page.getByLabel('Group name').inputValue(), 'Crafters Guild');

    // A refused rename keeps what was typed and says why beside the field.
    await page.getByLabel('Group path').fill('bad path!');
    await page.getByRole('button', { name: 'Save group' }).click();
    await page.waitForSelector('#field-path-error');
    assert.equal(await page.getByLabel('Group path').inputValue(), 'bad path!');
    assert.equal((await api.get(`/groups/${group.id}`)).body.path, 'crafters');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
