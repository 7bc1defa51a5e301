import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { WebClient } from '../support/web';

/**
 * A signed-in user's own pages (issue 27): pending todos to mark done, what is assigned to them,
 * starred projects and the project page's star button. Effects are checked through the API.
 */
type Account = Awaited<ReturnType<TestApp['createUser']>>;
let app: TestApp;
let me: Account;
let web: WebClient;
let project: { id: number; path_with_namespace: string; name: string };

before(async () => {
  app = await startApp();
  me = await app.createUser();
  web = new WebClient(app.url);
  assert.equal((await web.signIn(me.user.username, me.password)).status, 303);
  project = (await app.root.v4().post('/projects', { name: 'team-work', visibility: 'private' })).body;
  assert.equal((await app.root.v4().post(`/projects/${project.id}/members`, { user_id: me.user.id, access_level: 30 })).status, 201);
});
after(() => app?.close());

describe('anonymous visitors', () => {
  test('are sent to sign in from every page, and their forms are a 404', async () => {
    const anonymous = new WebClient(app.url);
    for (const path of ['/dashboard/todos', '/dashboard/issues', '/dashboard/merge_requests', '/dashboard/projects/starred']) {
      const page = await anonymous.get(path);
      assert.equal(page.status, 303, path);
      assert.equal(page.headers.get('location'), `/users/sign_in?redirect_to=${encodeURIComponent(path)}`);
    }
    const csrf = WebClient.csrfToken((await anonymous.get('/users/sign_in')).text);
    assert.equal((await anonymous.post('/dashboard/todos/mark_all_done', { authenticity_token: csrf })).status, 404);
    assert.equal((await anonymous.get('/dashboard/nothing')).status, 404);
  });
});

describe('/dashboard/todos', () => {
  test('lists pending todos with links, marks one done, then all, as the API does', async () => {
    const first = (
      await app.root
        .v4()
        .post(`/projects/${project.id}/issues`, { title: 'Fix <the> roof', assignee_ids: [me.user.id], assignee_id: me.user.id })
    ).body;
    const second = (
      await app.root.v4().post(`/projects/${project.id}/issues`, { title: 'Paint', description: `@${me.user.username} please` })
    ).body;
    const page = await web.get('/dashboard/todos');
    assert.equal(page.status, 200);
    assert.match(page.text, /Todos \(2\)/);
    assert.match(page.text, /Fix &lt;the&gt; roof/);
    assert.ok(page.text.includes(`href="/${project.path_with_namespace}/issues/${first.iid}"`));
    assert.ok(page.text.includes(`href="/${project.path_with_namespace}/issues/${second.iid}"`));
    const todos = (await me.client.v4().get('/todos')).body as Array<{ id: number; target: { iid: number } }>;
    assert.equal(todos.length, 2);
    const csrf = WebClient.csrfToken(page.text);
    const one = todos.find((todo) => todo.target.iid === first.iid)!;
    assert.equal((await web.post(`/dashboard/todos/${one.id}/done`, { authenticity_token: csrf })).status, 303);
    assert.deepEqual(
      (await me.client.v4().get('/todos')).body.map((todo: { id: number }) => todo.id),
      todos.filter((todo) => todo !== one).map((todo) => todo.id),
    );
    assert.match((await web.get('/dashboard/todos')).text, /Todos \(1\)/);
    assert.equal((await web.post('/dashboard/todos/mark_all_done', { authenticity_token: csrf })).status, 303);
    assert.equal((await me.client.v4().get('/todos')).body.length, 0);
    assert.match((await web.get('/dashboard/todos')).text, /You have no pending todos/);
  });

  test("another user's todo is a 404 and stays pending", async () => {
    const other = await app.createUser();
    await app.root.v4().post(`/projects/${project.id}/members`, { user_id: other.user.id, access_level: 30 });
    await app.root.v4().post(`/projects/${project.id}/issues`, { title: 'Theirs', assignee_id: other.user.id });
    const [theirs] = (await other.client.v4().get('/todos')).body;
    const csrf = WebClient.csrfToken((await web.get('/dashboard/todos')).text);
    assert.equal((await web.post(`/dashboard/todos/${theirs.id}/done`, { authenticity_token: csrf })).status, 404);
    assert.equal((await other.client.v4().get('/todos')).body.length, 1);
  });
});

describe('/dashboard/issues and /dashboard/merge_requests', () => {
  test('show the open issues and merge requests assigned to the user, and nothing else', async () => {
    await app.root.v4().post(`/projects/${project.id}/issues`, { title: 'Mine to do', assignee_id: me.user.id });
    await app.root.v4().post(`/projects/${project.id}/issues`, { title: 'Nobody assigned' });
    const closed = (await app.root.v4().post(`/projects/${project.id}/issues`, { title: 'Already closed', assignee_id: me.user.id })).body;
    await app.root.v4().put(`/projects/${project.id}/issues/${closed.iid}`, { state_event: 'close' });
    const issues = await web.get('/dashboard/issues');
    assert.equal(issues.status, 200);
    assert.match(issues.text, /Mine to do/);
    assert.doesNotMatch(issues.text, /Nobody assigned/);
    assert.doesNotMatch(issues.text, /Already closed/);
    const mergeRequests = await web.get('/dashboard/merge_requests');
    assert.equal(mergeRequests.status, 200);
    assert.match(mergeRequests.text, /Merge requests assigned to you \(0\)/);
  });
});

describe('starring', () => {
  test('the project page stars and unstars, as POST /projects/:id/star does, and starred projects lists it', async () => {
    const home = await web.get(`/${project.path_with_namespace}`);
    assert.match(home.text, /<button type="submit">Star<\/button>/);
    const csrf = WebClient.csrfToken(home.text);
    const starred = await web.post(`/${project.path_with_namespace}/toggle_star`, { authenticity_token: csrf });
    assert.equal(starred.status, 303);
    assert.equal((await app.root.v4().get(`/projects/${project.id}`)).body.star_count, 1);
    assert.match((await web.get(`/${project.path_with_namespace}`)).text, /<button type="submit">Unstar<\/button>/);
    assert.match((await web.get('/dashboard/projects/starred')).text, /team-work/);
    assert.equal((await web.post(`/${project.path_with_namespace}/toggle_star`, { authenticity_token: csrf })).status, 303);
    assert.equal((await app.root.v4().get(`/projects/${project.id}`)).body.star_count, 0);
    assert.match((await web.get('/dashboard/projects/starred')).text, /You have not starred any project yet/);
  });

  test('a project one may not see cannot be starred (404)', async () => {
    const hidden = (await app.root.v4().post('/projects', { name: 'hidden-stars', visibility: 'private' })).body;
    const csrf = WebClient.csrfToken((await web.get('/dashboard/projects/starred')).text);
    assert.equal((await web.post(`/${hidden.path_with_namespace}/toggle_star`, { authenticity_token: csrf })).status, 404);
    assert.equal((await app.root.v4().get(`/projects/${hidden.id}`)).body.star_count, 0);
  });
});

describe('/profile/emails', () => {
  test('adds and removes a secondary e-mail as POST and DELETE /user/emails do, and refuses a taken one beside the field', async () => {
    const anonymous = await new WebClient(app.url).get('/profile/emails');
    assert.equal(anonymous.status, 303);
    const page = await web.get('/profile/emails');
    assert.equal(page.status, 200);
    assert.ok(page.text.includes(me.user.email));
    const csrf = WebClient.csrfToken(page.text);
    assert.equal((await web.post('/profile/emails', { authenticity_token: csrf, email: 'Second@Example.com' })).status, 303);
    const [email] = (await me.client.v4().get('/user/emails')).body;
    assert.equal(email.email, 'second@example.com');
    assert.match((await web.get('/profile/emails')).text, /second@example\.com/);

    const taken = await web.post('/profile/emails', { authenticity_token: csrf, email: 'second@example.com' });
    assert.equal(taken.status, 400);
    assert.match(taken.text, /<p class="field-error" id="field-email-error">Email has already been taken<\/p>/);
    // Anyone's primary address is taken too, one's own included.
    const primary = await web.post('/profile/emails', { authenticity_token: csrf, email: me.user.email });
    assert.equal(primary.status, 400);
    const invalid = await web.post('/profile/emails', { authenticity_token: csrf, email: 'not-an-address' });
    assert.equal(invalid.status, 400);
    assert.match(invalid.text, /value="not-an-address"/);

    const other = await app.createUser();
    const theirs = (await other.client.v4().post('/user/emails', { email: 'theirs@example.com' })).body;
    assert.equal((await web.post(`/profile/emails/${theirs.id}/delete`, { authenticity_token: csrf })).status, 404);
    assert.equal((await other.client.v4().get('/user/emails')).body.length, 1);

    assert.equal((await web.post(`/profile/emails/${email.id}/delete`, { authenticity_token: csrf })).status, 303);
    assert.equal((await me.client.v4().get('/user/emails')).body.length, 0);
  });
});
