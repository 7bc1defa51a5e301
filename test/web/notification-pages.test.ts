import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { createGroupRow, grantProjectRole } from '../support/roles';
import { seedCommit } from '../support/repo';
import { createMergeRequest } from '../support/merge-requests';
import { WebClient } from '../support/web';

/**
 * A user's notifications on the web (GitLab 8.12's `/profile/notifications` and the level control
 * of a project's and a group's page), through the service `PUT /notification_settings` uses, and
 * the top bar's counts of assigned work on every signed-in page.
 */
type Account = Awaited<ReturnType<TestApp['createUser']>>;
let app: TestApp;
let owner: Account;
let member: Account;
let stranger: Account;
let project: any;
let path: string;
let groupPath: string;
let groupId: number;

async function signedIn(account: Account): Promise<WebClient> {
  const client = new WebClient(app.url);
  assert.equal((await client.signIn(account.user.username, account.password)).status, 303);
  return client;
}

async function submit(client: WebClient, page: string, action: string, form: Record<string, string>) {
  const shown = await client.get(page);
  assert.equal(shown.status, 200, page);
  return client.post(action, { ...form, authenticity_token: WebClient.csrfToken(shown.text) });
}

/** The option selected in the select with this id. */
const selected = (page: string, id: string) => {
  const select = page.match(new RegExp(`<select id="${id}"[^>]*>(.*?)</select>`, 's'))?.[1] ?? '';
  return select.match(/<option value="([^"]+)" selected>/)?.[1];
};
const count = (page: string, id: string) => page.match(new RegExp(`id="${id}">(\\d+)<`))?.[1];

before(async () => {
  app = await startApp();
  owner = await app.createUser();
  member = await app.createUser();
  stranger = await app.createUser();
  project = (await owner.client.post('/projects', { name: 'notified', visibility_level: 0 })).body;
  path = new URL(project.web_url).pathname;
  await grantProjectRole(app, project.id, member.user.id, 30);
  groupPath = `team-${Date.now()}`;
  groupId = await createGroupRow(app, groupPath, owner.user.id, 0);
});
after(() => app?.close());

describe('GET/POST /profile/notifications', () => {
  test('sends an anonymous visitor to sign in', async () => {
    const response = await new WebClient(app.url).get('/profile/notifications');
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), `/users/sign_in?redirect_to=${encodeURIComponent('/profile/notifications')}`);
  });

  test('shows the global level, the addresses to choose from and the custom events, in labelled fields', async () => {
    const account = await app.createUser();
    assert.equal((await account.client.post('/user/emails', { email: 'second@example.com' })).status, 201);
    const page = await (await signedIn(account)).get('/profile/notifications');
    assert.equal(page.status, 200);
    assert.match(page.text, /<label for="field-level">Global notification level<\/label>/);
    assert.equal(selected(page.text, 'field-level'), 'participating');
    assert.doesNotMatch(page.text.match(/<select id="field-level".*?<\/select>/s)![0], /value="global"/);
    assert.equal(selected(page.text, 'field-notification_email'), account.user.email);
    assert.match(page.text, /<option value="second@example.com">second@example.com<\/option>/);
    assert.match(page.text, /<input type="checkbox" name="new_note" value="1"> New note/);
    assert.match(page.text, /href="\/profile\/notifications" aria-current="page">Notifications/);
  });

  test('saves the level, the custom events and the address as PUT /notification_settings does, then says so once', async () => {
    const account = await app.createUser();
    await account.client.post('/user/emails', { email: `alt-${account.user.username}@example.com` });
    const web = await signedIn(account);
    const saved = await submit(web, '/profile/notifications', '/profile/notifications', {
      level: 'custom',
      notification_email: `alt-${account.user.username}@example.com`,
      new_issue: '1',
      merge_merge_request: '1',
    });
    assert.equal(saved.status, 303);
    assert.equal(saved.headers.get('location'), '/profile/notifications');
    const api = (await account.client.v4().get('/notification_settings')).body;
    assert.equal(api.level, 'custom');
    assert.equal(api.notification_email, `alt-${account.user.username}@example.com`);
    assert.equal(api.events.new_issue, true);
    assert.equal(api.events.merge_merge_request, true);
    assert.equal(api.events.new_note, false);
    const page = await web.get('/profile/notifications');
    assert.match(page.text, /<p class="notice flash" role="status" id="flash-notice">Notification settings saved<\/p>/);
    assert.equal(selected(page.text, 'field-level'), 'custom');
    assert.match(page.text, /name="new_issue" value="1" checked>/);
    assert.doesNotMatch((await web.get('/profile/notifications')).text, /flash-notice/);
  });

  test("another user's address and an unknown level are refused beside their fields, nothing saved", async () => {
    const account = await app.createUser();
    const web = await signedIn(account);
    const address = await submit(web, '/profile/notifications', '/profile/notifications', {
      level: 'watch',
      notification_email: owner.user.email,
    });
    assert.equal(address.status, 400);
    assert.match(address.text, /id="field-notification_email-error">is invalid: it must be one of your e-mail addresses</);
    assert.match(address.text, /id="field-notification_email" name="notification_email" aria-invalid="true"/);
    const level = await submit(web, '/profile/notifications', '/profile/notifications', { level: 'global' });
    assert.equal(level.status, 400);
    assert.match(level.text, /id="field-level-error">is invalid/);
    const unknown = await submit(web, '/profile/notifications', '/profile/notifications', { level: '<b>loud</b>' });
    assert.equal(unknown.status, 400);
    assert.match(unknown.text, /id="field-level-error">does not have a valid value/);
    assert.equal((await account.client.v4().get('/notification_settings')).body.level, 'participating');
  });
});

describe('POST /:namespace/:project/notification_setting and /groups/:path/notification_setting', () => {
  test("the project page's control sets the project's level, as GET /projects/:id/notification_settings reads it", async () => {
    const web = await signedIn(member);
    const home = await web.get(path);
    assert.equal(selected(home.text, 'notification-level'), 'global');
    assert.match(home.text, new RegExp(`<form class="inline notification-level" method="post" action="${path}/notification_setting">`));
    const saved = await submit(web, path, `${path}/notification_setting`, { level: 'watch' });
    assert.equal(saved.status, 303);
    assert.equal(saved.headers.get('location'), path);
    assert.equal((await member.client.v4().get(`/projects/${project.id}/notification_settings`)).body.level, 'watch');
    const after = await web.get(path);
    assert.equal(selected(after.text, 'notification-level'), 'watch');
    assert.match(after.text, /id="flash-notice">Notification settings saved</);
  });

  test("the group page's control sets the group's level; the profile lists both and changes them there", async () => {
    const web = await signedIn(owner);
    const group = await web.get(`/groups/${groupPath}`);
    assert.equal(selected(group.text, 'notification-level'), 'global');
    const saved = await submit(web, `/groups/${groupPath}`, `/groups/${groupPath}/notification_setting`, { level: 'disabled' });
    assert.equal(saved.status, 303);
    assert.equal((await owner.client.v4().get(`/groups/${groupId}/notification_settings`)).body.level, 'disabled');
    await submit(web, path, `${path}/notification_setting`, { level: 'mention' });

    const profile = await web.get('/profile/notifications');
    assert.equal(selected(profile.text, `level-group-${groupId}`), 'disabled');
    assert.equal(selected(profile.text, `level-project-${project.id}`), 'mention');
    const changed = await submit(web, '/profile/notifications', `${path}/notification_setting`, {
      level: 'participating',
      back: 'profile',
    });
    assert.equal(changed.headers.get('location'), '/profile/notifications');
    assert.equal((await owner.client.v4().get(`/projects/${project.id}/notification_settings`)).body.level, 'participating');
  });

  test('a project or group the user may not read is a 404, an unknown level a 400, an anonymous form a 404', async () => {
    const web = await signedIn(stranger);
    const token = WebClient.csrfToken((await web.get('/profile/notifications')).text);
    assert.equal((await web.post(`${path}/notification_setting`, { level: 'watch', authenticity_token: token })).status, 404);
    assert.equal((await web.post(`/groups/${groupPath}/notification_setting`, { level: 'watch', authenticity_token: token })).status, 404);
    assert.equal((await web.post('/api/v3/notification_setting', { level: 'watch', authenticity_token: token })).status, 404);
    const memberWeb = await signedIn(member);
    const refused = await submit(memberWeb, path, `${path}/notification_setting`, { level: 'loud' });
    assert.equal(refused.status, 400);
    const anonymous = new WebClient(app.url);
    const anonymousToken = WebClient.csrfToken((await anonymous.get('/users/sign_in')).text);
    assert.equal(
      (await anonymous.post(`${path}/notification_setting`, { level: 'watch', authenticity_token: anonymousToken })).status,
      404,
    );
    // Without its token, a form is refused before anything is read.
    assert.equal((await memberWeb.post(`${path}/notification_setting`, { level: 'watch' })).status, 403);
  });
});

describe('the top bar of a signed-in page', () => {
  test('counts open assigned issues, open assigned merge requests and pending todos, each linking to its list', async () => {
    const account = await app.createUser();
    const own = (await account.client.post('/projects', { name: 'workload', visibility_level: 0 })).body;
    await seedCommit(app, own.id, { files: { 'README.md': 'x\n' } });
    await seedCommit(app, own.id, { branch: 'feature', startRef: 'master', files: { 'feature.txt': 'y\n' } });
    const web = await signedIn(account);
    const empty = await web.get('/');
    assert.equal(count(empty.text, 'assigned-issues-count'), '0');
    assert.equal(count(empty.text, 'assigned-merge-requests-count'), '0');
    assert.equal(count(empty.text, 'todos-count'), '0');
    assert.match(empty.text, /<a href="\/dashboard\/issues">Issues <span class="badge" id="assigned-issues-count">0<\/span><\/a>/);
    assert.match(empty.text, /<a href="\/dashboard\/merge_requests">Merge requests <span/);
    assert.match(empty.text, /<a href="\/dashboard\/todos">Todos <span/);

    const v4 = account.client.v4();
    await v4.post(`/projects/${own.id}/issues`, { title: 'Mine', assignee_id: account.user.id });
    const closed = (await v4.post(`/projects/${own.id}/issues`, { title: 'Done', assignee_id: account.user.id })).body;
    await v4.put(`/projects/${own.id}/issues/${closed.iid}`, { state_event: 'close' });
    await v4.post(`/projects/${own.id}/issues`, { title: 'Not mine' });
    const mr = await createMergeRequest(app, { targetProjectId: own.id, sourceBranch: 'feature', authorId: account.user.id });
    await v4.put(`/projects/${own.id}/merge_requests/${mr.iid}`, { assignee_id: account.user.id });
    // A todo: another member assigns the user an issue.
    await grantProjectRole(app, own.id, member.user.id, 30);
    await member.client.v4().post(`/projects/${own.id}/issues`, { title: 'For you', assignee_id: account.user.id });

    const page = await web.get(`${new URL(own.web_url).pathname}/branches`);
    assert.equal(count(page.text, 'assigned-issues-count'), '2');
    assert.equal(count(page.text, 'assigned-merge-requests-count'), '1');
    // As many as the todos API lists as pending (self-assignments count as Forge's todos service makes them).
    const pending = (await v4.get('/todos')).body;
    assert.ok(pending.some((todo: any) => todo.target.title === 'For you'));
    assert.equal(count(page.text, 'todos-count'), String(pending.length));
  });

  test('an anonymous visitor has no such counts', async () => {
    const page = await new WebClient(app.url).get('/explore/projects');
    assert.equal(page.status, 200);
    assert.doesNotMatch(page.text, /assigned-issues-count|aria-label="Your work"/);
  });
});
