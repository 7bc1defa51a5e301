import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { registeredRunner } from '../support/ci-world';
import { WebClient } from '../support/web';
import { HookListener } from '../support/hook-listener';

/**
 * More administration pages (issue 27): a user's page and the new-user form, runners paused,
 * resumed, removed and assigned, and broadcast messages shown on every page. Every effect is
 * checked through the API, and every page is a 404 to those who are not administrators.
 */
type Account = Awaited<ReturnType<TestApp['createUser']>>;
let app: TestApp;
let admin: WebClient;
let user: WebClient;
let someone: Account;

const token = async (client: WebClient, path: string) => WebClient.csrfToken((await client.get(path)).text);

before(async () => {
  app = await startApp();
  admin = new WebClient(app.url);
  assert.equal((await admin.signIn('root', 'rootpassword')).status, 303);
  someone = await app.createUser({ name: 'Some <b>one</b>' });
  user = new WebClient(app.url);
  assert.equal((await user.signIn(someone.user.username, someone.password)).status, 303);
  await someone.client.post('/projects', { name: 'private-garden', visibility_level: 0 });
});
after(() => app?.close());

describe('who may see the new admin pages', () => {
  test('each is a 404 to anonymous visitors and to users who are not administrators, and so is each form', async () => {
    const paths = [
      `/admin/users/${someone.user.username}`,
      '/admin/users/new',
      '/admin/broadcast_messages',
      '/admin/runners/1',
      '/admin/groups',
      '/admin/hooks',
      '/admin/application_settings',
      '/admin/background_jobs',
    ];
    for (const client of [new WebClient(app.url), user]) {
      for (const path of paths) assert.equal((await client.get(path)).status, 404, path);
    }
    const csrf = await token(user, '/profile');
    assert.equal(
      (
        await user.post('/admin/users', {
          authenticity_token: csrf,
          name: 'x',
          username: 'x',
          email: 'x@example.com',
          password: 'password123',
        })
      ).status,
      404,
    );
    assert.equal((await user.post('/admin/broadcast_messages', { authenticity_token: csrf, message: 'hi' })).status, 404);
    assert.equal((await user.post('/admin/hooks', { authenticity_token: csrf, url: 'http://example.com/' })).status, 404);
    assert.equal((await user.post('/admin/application_settings', { authenticity_token: csrf, signup_enabled: '0' })).status, 404);
    assert.equal((await app.root.v4().get('/hooks')).body.length, 0);
    assert.equal((await app.root.v4().get('/application/settings')).body.signup_enabled, true);
    assert.equal((await app.root.v4().get('/users?username=x')).body.length, 0);
  });
});

describe('/admin/users', () => {
  test('searches by name, e-mail or username', async () => {
    const page = await admin.get(`/admin/users?search=${encodeURIComponent(someone.user.email)}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /Users \(1\)/);
    assert.match(page.text, /Some &lt;b&gt;one&lt;\/b&gt;/);
    assert.match((await admin.get('/admin/users?search=nobody-by-this-name')).text, /Users \(0\)/);
  });

  test("a user's page shows their account and, read only, their private projects", async () => {
    const page = await admin.get(`/admin/users/${someone.user.username}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /private-garden/);
    assert.match(page.text, /Block /);
    assert.equal((await admin.get('/admin/users/no-such-user')).status, 404);
  });

  test('creates a user as POST /users does, and shows a taken username beside its field, keeping what was typed', async () => {
    const csrf = await token(admin, '/admin/users/new');
    const form = {
      authenticity_token: csrf,
      name: 'New Person',
      username: 'newperson',
      email: 'new@example.com',
      password: 'password123',
      projects_limit: '7',
      can_create_group: '0',
      admin: '0',
    };
    const created = await admin.post('/admin/users', form);
    assert.equal(created.status, 303);
    assert.equal(created.headers.get('location'), '/admin/users/newperson');
    const [record] = (await app.root.v4().get('/users?username=newperson')).body;
    assert.equal(record.name, 'New Person');
    assert.equal(record.projects_limit, 7);
    assert.equal(record.can_create_group, false);
    assert.equal(record.is_admin, false);

    const again = await admin.post('/admin/users', { ...form, email: 'other@example.com' });
    assert.equal(again.status, 400);
    assert.match(again.text, /<p class="field-error" id="field-username-error">Username has already been taken<\/p>/);
    assert.match(again.text, /value="other@example.com"/);
  });

  test('refuses a blank name, a short password and a projects limit that is not a number, beside the fields', async () => {
    const csrf = await token(admin, '/admin/users/new');
    const bad = await admin.post('/admin/users', {
      authenticity_token: csrf,
      name: '',
      username: 'shorty',
      email: 'shorty@example.com',
      password: 'x',
    });
    assert.equal(bad.status, 400);
    assert.match(bad.text, /id="field-name-error"/);
    assert.match(bad.text, /id="field-password-error"/);
    const limit = await admin.post('/admin/users', {
      authenticity_token: csrf,
      name: 'S',
      username: 'shorty',
      email: 'shorty@example.com',
      password: 'password123',
      projects_limit: 'ten',
    });
    assert.equal(limit.status, 400);
    assert.match(limit.text, /id="field-projects_limit-error"/);
    assert.equal((await app.root.v4().get('/users?username=shorty')).body.length, 0);
  });

  test('edits a user: name, e-mail, password, projects limit and the admin flag, as PUT /users/:id does', async () => {
    const other = await app.createUser();
    const csrf = await token(admin, `/admin/users/${other.user.username}`);
    const saved = await admin.post(`/admin/users/${other.user.username}`, {
      authenticity_token: csrf,
      name: 'Renamed',
      username: other.user.username,
      email: 'renamed@example.com',
      password: 'a-new-password',
      projects_limit: '3',
      admin: '1',
      can_create_group: '1',
    });
    assert.equal(saved.status, 200);
    assert.match(saved.text, /User was successfully updated/);
    const record = (await app.root.v4().get(`/users/${other.user.id}`)).body;
    assert.equal(record.name, 'Renamed');
    assert.equal(record.email, 'renamed@example.com');
    assert.equal(record.projects_limit, 3);
    assert.equal(record.is_admin, true);
    const web = new WebClient(app.url);
    assert.equal((await web.signIn(other.user.username, 'a-new-password')).status, 303);
  });

  test('an administrator cannot take their own rights away', async () => {
    const csrf = await token(admin, '/admin/users/root');
    const root = (await app.root.get('/user')).body;
    const refused = await admin.post('/admin/users/root', {
      authenticity_token: csrf,
      name: root.name,
      username: 'root',
      email: root.email,
      admin: '0',
    });
    assert.equal(refused.status, 400);
    assert.equal((await app.root.v4().get('/user')).body.is_admin, true);
  });
});

describe('/admin/runners', () => {
  test('pauses, resumes and removes a runner, as PUT and DELETE /runners/:id do', async () => {
    await registeredRunner(app, { description: 'pausable' });
    const runner = (await app.root.v4().get('/runners/all')).body.find((row: { description: string }) => row.description === 'pausable');
    const csrf = await token(admin, '/admin/runners');
    assert.equal((await admin.post(`/admin/runners/${runner.id}/pause`, { authenticity_token: csrf })).status, 303);
    assert.equal((await app.root.v4().get(`/runners/${runner.id}`)).body.active, false);
    assert.match((await admin.get('/admin/runners')).text, new RegExp(`Resume runner #${runner.id}`));
    assert.equal((await admin.post(`/admin/runners/${runner.id}/resume`, { authenticity_token: csrf })).status, 303);
    assert.equal((await app.root.v4().get(`/runners/${runner.id}`)).body.active, true);
    assert.equal((await admin.post(`/admin/runners/${runner.id}/delete`, { authenticity_token: csrf })).status, 303);
    assert.equal((await app.root.v4().get(`/runners/${runner.id}`)).status, 404);
  });

  test('assigns a specific runner to a project by its path, and says why it cannot', async () => {
    const first = (await app.root.v4().post('/projects', { name: 'runner-home' })).body;
    const second = (await app.root.v4().post('/projects', { name: 'runner-guest' })).body;
    await registeredRunner(app, { projectId: first.id, description: 'specific one' });
    const runner = (await app.root.v4().get('/runners/all')).body.find(
      (row: { description: string }) => row.description === 'specific one',
    );
    const page = await admin.get(`/admin/runners/${runner.id}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /runner-home/);
    const csrf = WebClient.csrfToken(page.text);
    const missing = await admin.post(`/admin/runners/${runner.id}/projects`, { authenticity_token: csrf, project: 'root/nothing-here' });
    assert.equal(missing.status, 400);
    assert.match(missing.text, /No project has this path/);
    assert.match(missing.text, /value="root\/nothing-here"/);
    const assigned = await admin.post(`/admin/runners/${runner.id}/projects`, {
      authenticity_token: csrf,
      project: second.path_with_namespace,
    });
    assert.equal(assigned.status, 303);
    const projects = (await app.root.v4().get(`/runners/${runner.id}`)).body.projects.map((project: { id: number }) => project.id);
    assert.deepEqual(projects.sort(), [first.id, second.id].sort());
    const twice = await admin.post(`/admin/runners/${runner.id}/projects`, {
      authenticity_token: csrf,
      project: second.path_with_namespace,
    });
    assert.equal(twice.status, 400);
    assert.match(twice.text, /already enabled/);
  });
});

describe('/admin/broadcast_messages', () => {
  test('previews a message without saving it, then adds it, and every page shows it while it is active', async () => {
    const csrf = await token(admin, '/admin/broadcast_messages');
    const preview = await admin.post('/admin/broadcast_messages', {
      authenticity_token: csrf,
      message: 'Maintenance **tonight** <script>x()</script>',
      preview: '1',
    });
    assert.equal(preview.status, 200);
    assert.match(preview.text, /<strong>tonight<\/strong>/);
    assert.doesNotMatch(preview.text, /<script>x/);
    assert.equal((await app.root.v4().get('/broadcast_messages')).body.length, 0);

    assert.equal(
      (await admin.post('/admin/broadcast_messages', { authenticity_token: csrf, message: 'Maintenance **tonight**' })).status,
      303,
    );
    const [message] = (await app.root.v4().get('/broadcast_messages')).body;
    assert.equal(message.message, 'Maintenance **tonight**');
    assert.equal(message.active, true);
    for (const client of [new WebClient(app.url), user]) {
      assert.match(
        (await client.get('/explore/projects')).text,
        /<div class="broadcast" role="status"><p>Maintenance <strong>tonight<\/strong><\/p>/,
      );
    }

    assert.equal((await admin.post(`/admin/broadcast_messages/${message.id}/delete`, { authenticity_token: csrf })).status, 303);
    assert.equal((await app.root.v4().get('/broadcast_messages')).body.length, 0);
    assert.doesNotMatch((await user.get('/explore/projects')).text, /class="broadcast"/);
  });

  test('a message not yet started is listed but shown nowhere, and a bad time is refused beside its field', async () => {
    const csrf = await token(admin, '/admin/broadcast_messages');
    const bad = await admin.post('/admin/broadcast_messages', { authenticity_token: csrf, message: 'Later', starts_at: 'tomorrow-ish' });
    assert.equal(bad.status, 400);
    assert.match(bad.text, /id="field-starts_at-error"/);
    assert.match(bad.text, />Later<\/textarea>/);
    const created = await admin.post('/admin/broadcast_messages', {
      authenticity_token: csrf,
      message: 'Later',
      starts_at: '2999-01-01 00:00',
      ends_at: '2999-01-02 00:00',
    });
    assert.equal(created.status, 303);
    const list = await admin.get('/admin/broadcast_messages');
    assert.match(list.text, /scheduled/);
    assert.doesNotMatch((await user.get('/explore/projects')).text, /class="broadcast"/);
  });

  test('a page drawn just before a message is added, changed or removed does not keep the next page from showing it', async () => {
    const csrf = await token(admin, '/admin/broadcast_messages');
    assert.doesNotMatch((await user.get('/explore/projects')).text, /class="broadcast"/);
    assert.equal((await admin.post('/admin/broadcast_messages', { authenticity_token: csrf, message: 'Upgrade at noon' })).status, 303);
    assert.match((await user.get('/explore/projects')).text, /<div class="broadcast" role="status"><p>Upgrade at noon<\/p>/);

    const messages: Array<{ id: number; message: string }> = (await app.root.v4().get('/broadcast_messages')).body;
    const message = messages.find((m) => m.message === 'Upgrade at noon')!;
    assert.equal((await app.root.v4().put(`/broadcast_messages/${message.id}`, { message: 'Upgrade at one' })).status, 200);
    const changed = (await user.get('/explore/projects')).text;
    assert.match(changed, /<p>Upgrade at one<\/p>/);
    assert.doesNotMatch(changed, /Upgrade at noon/);

    assert.equal((await app.root.v4().put(`/broadcast_messages/${message.id}`, { ends_at: '2000-01-01T00:00:00Z' })).status, 200);
    assert.doesNotMatch((await user.get('/explore/projects')).text, /class="broadcast"/);
    assert.equal((await app.root.v4().put(`/broadcast_messages/${message.id}`, { ends_at: '2999-01-01T00:00:00Z' })).status, 200);
    assert.match((await user.get('/explore/projects')).text, /<p>Upgrade at one<\/p>/);
    assert.equal((await app.root.v4().delete(`/broadcast_messages/${message.id}`)).status, 204);
    assert.doesNotMatch((await user.get('/explore/projects')).text, /class="broadcast"/);
  });

  test('a blank message is refused', async () => {
    const csrf = await token(admin, '/admin/broadcast_messages');
    const blank = await admin.post('/admin/broadcast_messages', { authenticity_token: csrf, message: '  ' });
    assert.equal(blank.status, 400);
    assert.match(blank.text, /Message can(&#39;|')t be blank/);
  });
});

describe('/admin/groups', () => {
  test('lists every group, private ones too, with a link to make a new one', async () => {
    await someone.client.v4().post('/groups', { name: 'Secret Circle', path: 'secret-circle', visibility: 'private' });
    const page = await admin.get('/admin/groups');
    assert.equal(page.status, 200);
    assert.match(page.text, /<a href="\/groups\/secret-circle">Secret Circle<\/a>/);
    assert.match(page.text, /href="\/groups\/new"/);
  });
});

describe('/admin/hooks', () => {
  test('adds a system hook as POST /hooks does, sends it a test event, and removes it', async () => {
    const listener = await HookListener.start();
    try {
      const csrf = await token(admin, '/admin/hooks');
      const bad = await admin.post('/admin/hooks', { authenticity_token: csrf, url: 'not a url' });
      assert.equal(bad.status, 400);
      assert.match(bad.text, /id="field-url-error"/);
      assert.match(bad.text, /value="not a url"/);
      const added = await admin.post('/admin/hooks', {
        authenticity_token: csrf,
        url: listener.url,
        token: 'sekret',
        push_events: '0',
        tag_push_events: '1',
        merge_requests_events: '0',
        enable_ssl_verification: '1',
      });
      assert.equal(added.status, 303);
      const [hook] = (await app.root.v4().get('/hooks')).body;
      assert.equal(hook.url, listener.url);
      assert.equal(hook.push_events, false);
      assert.equal(hook.tag_push_events, true);
      const tested = await admin.post(`/admin/hooks/${hook.id}/test`, { authenticity_token: csrf });
      assert.equal(tested.status, 200);
      assert.match(tested.text, /test event/);
      // GitLab's sample event: a project named Ruby.
      const delivery = await listener.waitFor((received) => received.body?.name === 'Ruby');
      assert.equal(delivery.headers['x-gitlab-event'], 'System Hook');
      assert.equal(delivery.headers['x-gitlab-token'], 'sekret');
      assert.equal((await admin.post(`/admin/hooks/${hook.id}/delete`, { authenticity_token: csrf })).status, 303);
      assert.equal((await app.root.v4().get('/hooks')).body.length, 0);
      assert.equal((await admin.post(`/admin/hooks/${hook.id}/delete`, { authenticity_token: csrf })).status, 404);
    } finally {
      await listener.close();
    }
  });
});

describe('/admin/application_settings', () => {
  test('shows and saves the settings as PUT /application/settings does, refusing bad values beside their fields', async () => {
    const page = await admin.get('/admin/application_settings');
    assert.equal(page.status, 200);
    assert.match(page.text, /id="field-default_projects_limit" name="default_projects_limit" value="10"/);
    const csrf = WebClient.csrfToken(page.text);
    const form = {
      authenticity_token: csrf,
      default_branch_protection: '1',
      default_project_visibility: '10',
      default_snippet_visibility: '0',
      default_group_visibility: '0',
      restricted_visibility_levels: '20',
      default_projects_limit: '25',
      max_attachment_size: '10',
      session_expire_delay: '10080',
      container_registry_token_expire_delay: '5',
      gravatar_enabled: '0',
      user_oauth_applications: '1',
      shared_runners_enabled: '1',
      signup_enabled: '0',
      signin_enabled: '1',
      domain_whitelist: 'example.com, example.org',
      domain_blacklist_enabled: '0',
      domain_blacklist: '',
      home_page_url: '',
      after_sign_out_path: '',
      sign_in_text: 'Welcome <b>in</b>',
      after_sign_up_text: '',
      repository_storage: 'default',
    };
    const saved = await admin.post('/admin/application_settings', form);
    assert.equal(saved.status, 200);
    assert.match(saved.text, /Application settings saved/);
    const settings = (await app.root.v4().get('/application/settings')).body;
    assert.equal(settings.default_projects_limit, 25);
    assert.equal(settings.signup_enabled, false);
    assert.equal(settings.gravatar_enabled, false);
    assert.equal(settings.default_branch_protection, 1);
    assert.equal(settings.default_project_visibility, 'internal');
    assert.deepEqual(settings.restricted_visibility_levels, ['public']);
    assert.deepEqual(settings.domain_whitelist, ['example.com', 'example.org']);
    assert.equal(settings.sign_in_text, 'Welcome <b>in</b>');

    const bad = await admin.post('/admin/application_settings', { ...form, default_projects_limit: 'lots' });
    assert.equal(bad.status, 400);
    assert.match(bad.text, /id="field-default_projects_limit-error"/);
    const refused = await admin.post('/admin/application_settings', { ...form, home_page_url: 'not a url' });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /id="field-home_page_url-error"/);
    assert.match(refused.text, /value="not a url"/);
    assert.equal((await app.root.v4().get('/application/settings')).body.home_page_url, null);
    await app.root.v4().put('/application/settings', { signup_enabled: true, gravatar_enabled: true, restricted_visibility_levels: [] });
  });
});

describe('/admin/background_jobs', () => {
  test('shows a failed job with its error, escaped, and retries it', async () => {
    const time = new Date().toISOString();
    const parked = '9999-12-31T00:00:00.000Z';
    const { id } = await app.ctx.db
      .insertInto('jobs')
      .values({
        kind: 'hook.deliver',
        payload: JSON.stringify({ hookId: 987654, event: 'System Hook', payload: {} }),
        run_at: parked,
        attempts: 3,
        max_attempts: 3,
        locked_at: parked,
        locked_by: 'failed',
        last_error: 'connect ECONNREFUSED <nowhere>',
        created_at: time,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const page = await admin.get('/admin/background_jobs');
    assert.equal(page.status, 200);
    assert.match(page.text, /connect ECONNREFUSED &lt;nowhere&gt;/);
    assert.match(page.text, new RegExp(`Retry job #${id}`));
    const retried = await admin.post(`/admin/background_jobs/${id}/retry`, { authenticity_token: WebClient.csrfToken(page.text) });
    assert.equal(retried.status, 303);
    assert.ok(!(await app.services.backgroundJobs.failed()).some((job) => job.id === id));
    assert.equal(
      (await admin.post(`/admin/background_jobs/${id}/retry`, { authenticity_token: WebClient.csrfToken(page.text) })).status,
      404,
    );
  });
});
