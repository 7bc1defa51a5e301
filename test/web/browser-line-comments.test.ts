import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startApp, type TestApp } from '../support/app';
import { seedCommit } from '../support/repo';
import { chromiumMissing, launchChromium, signInThroughForm } from '../support/browser';

/** In chromium: comment on a line of a merge request's Changes tab, resolve it, and read both through the API. */
const skip = chromiumMissing;

let app: TestApp;
let browser: Browser;
let account: Awaited<ReturnType<TestApp['createUser']>>;
let project: any;

describe('line comments in a real browser', { skip }, () => {
  before(async () => {
    app = await startApp();
    account = await app.createUser();
    project = (await account.client.post('/projects', { name: 'browser-lines', visibility_level: 0 })).body;
    await seedCommit(app, project.id, { files: { 'poem.txt': 'one\ntwo\nthree\n' } });
    await seedCommit(app, project.id, { branch: 'loud', startRef: 'refs/heads/master', files: { 'poem.txt': 'one\nTWO\nthree\n' } });
    const created = await account.client
      .v4()
      .post(`/projects/${project.id}/merge_requests`, { source_branch: 'loud', target_branch: 'master', title: 'Louder' });
    assert.equal(created.status, 201);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  test('comments on an added line, sees it under the line, resolves it', async () => {
    const page = await (await browser.newContext()).newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const changes = `${app.url}${new URL(project.web_url).pathname}/merge_requests/1/diffs`;
    // The project is private: an anonymous visitor would get its 404, so sign in first.
    await page.goto(`${app.url}/users/sign_in`);
    await signInThroughForm(page, account, /./);
    await page.goto(changes);

    await page.getByRole('link', { name: 'Comment on line 2' }).last().click();
    await page.getByLabel('Comment on this line').fill('Why **shout**?');
    await Promise.all([page.waitForURL(/\/diffs#note_\d+$/), page.getByRole('button', { name: 'Comment', exact: true }).click()]);
    assert.equal(await page.locator('tr.line-notes strong', { hasText: 'shout' }).textContent(), 'shout');

    const notes = (await account.client.v4().get(`/projects/${project.id}/merge_requests/1/notes`)).body;
    assert.equal(notes[0].type, 'DiffNote');
    assert.deepEqual([notes[0].position.new_path, notes[0].position.new_line, notes[0].position.old_line], ['poem.txt', 2, null]);

    await Promise.all([
      page.waitForURL(/\/diffs#discussion_/),
      page.getByRole('button', { name: 'Resolve discussion', exact: true }).click(),
    ]);
    assert.ok(await page.getByRole('button', { name: 'Unresolve discussion', exact: true }).isVisible());
    const discussions = `/projects/${project.id}/merge_requests/1/discussions`;
    const [discussion] = (await account.client.v4().get(discussions)).body;
    assert.equal(discussion.notes[0].resolved, true);

    // A reply that reopens the thread, then one that settles it: each one step.
    await page.getByLabel('Reply').fill('Still shouting.');
    await Promise.all([page.waitForURL(/\/diffs#note_\d+$/), page.getByRole('button', { name: 'Comment & unresolve discussion' }).click()]);
    assert.ok(await page.getByRole('button', { name: 'Resolve discussion', exact: true }).isVisible());
    await page.getByLabel('Reply').fill('Quiet now.');
    await Promise.all([page.waitForURL(/\/diffs#note_\d+$/), page.getByRole('button', { name: 'Comment & resolve discussion' }).click()]);
    const [settled] = (await account.client.v4().get(discussions)).body;
    assert.deepEqual(
      settled.notes.map((note: any) => [note.body, note.resolved]),
      [
        ['Why **shout**?', true],
        ['Still shouting.', true],
        ['Quiet now.', true],
      ],
    );
    assert.deepEqual(errors, []);
  });

  test('switches to side-by-side, comments on a line, replies in the thread, resolves it', async () => {
    await seedCommit(app, project.id, { branch: 'louder', startRef: 'refs/heads/master', files: { 'poem.txt': 'one\ntwo\nTHREE\n' } });
    const created = await account.client
      .v4()
      .post(`/projects/${project.id}/merge_requests`, { source_branch: 'louder', target_branch: 'master', title: 'Louder still' });
    assert.equal(created.status, 201);
    const api = `/projects/${project.id}/merge_requests/${created.body.iid}`;
    const page = await (await browser.newContext()).newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${app.url}/users/sign_in`);
    await signInThroughForm(page, account, /./);
    await page.goto(`${app.url}${new URL(project.web_url).pathname}/merge_requests/${created.body.iid}/diffs`);

    await Promise.all([page.waitForURL(/view=parallel/), page.getByRole('link', { name: 'Side-by-side' }).click()]);
    assert.equal(await page.locator('table.diff.parallel').count(), 1);
    await page.getByRole('link', { name: 'Comment on line 3' }).click();
    await page.getByLabel('Comment on this line').fill('Why **shout** again?');
    await Promise.all([page.waitForURL(/\/diffs#note_\d+$/), page.getByRole('button', { name: 'Comment', exact: true }).click()]);
    // Still side by side: the cookie remembers the view.
    assert.equal(await page.locator('table.diff.parallel tr.line-notes strong', { hasText: 'shout' }).textContent(), 'shout');

    await page.getByLabel('Reply').fill('Because it is *three*.');
    await Promise.all([page.waitForURL(/\/diffs#note_\d+$/), page.getByRole('button', { name: 'Reply', exact: true }).click()]);
    assert.equal(await page.locator('table.diff.parallel tr.line-notes em', { hasText: 'three' }).textContent(), 'three');

    await Promise.all([
      page.waitForURL(/\/diffs#discussion_/),
      page.getByRole('button', { name: 'Resolve discussion', exact: true }).click(),
    ]);
    assert.ok(await page.getByRole('button', { name: 'Unresolve discussion', exact: true }).isVisible());

    const [discussion] = (await account.client.v4().get(`${api}/discussions`)).body;
    assert.deepEqual(
      discussion.notes.map((note: any) => [note.body, note.type, note.position.new_line, note.resolved]),
      [
        ['Why **shout** again?', 'DiffNote', 3, true],
        ['Because it is *three*.', 'DiffNote', 3, true],
      ],
    );
    assert.deepEqual(errors, []);
  });
});
