import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApp, type TestApp } from '../support/app';
import { grantProjectRole } from '../support/roles';
import { seedCommit } from '../support/repo';
import { eventually } from '../support/eventually';
import { HookListener } from '../support/hook-listener';
import { WebClient } from '../support/web';

/**
 * Hook delivery history (GitLab's web hook logs): every delivery of a project or system hook, test
 * deliveries too, is recorded with what was sent and what came back, shown as "Recent deliveries"
 * on the hook's page and one page per delivery, to those who may edit the hook only.
 */
type Account = Awaited<ReturnType<TestApp['createUser']>>;
let app: TestApp;
let owner: Account;
let master: Account;
let developer: Account;
let project: any;
let other: any;
let path: string;
let listener: HookListener;
let web: Record<'master' | 'developer' | 'admin', WebClient>;

async function signedIn(login: string, password: string): Promise<WebClient> {
  const client = new WebClient(app.url);
  assert.equal((await client.signIn(login, password)).status, 303);
  return client;
}

async function submit(client: WebClient, page: string, action: string, form: Record<string, string> = {}) {
  const shown = await client.get(page);
  assert.equal(shown.status, 200, page);
  return client.post(action, { ...form, authenticity_token: WebClient.csrfToken(shown.text) });
}

const logsOf = (hookId: number) => app.ctx.db.selectFrom('web_hook_logs').selectAll().where('hook_id', '=', hookId).execute();
const deliveryLinks = (page: string) => [...page.matchAll(/href="([^"]+\/hook_logs\/\d+)"/g)].map((match) => match[1]);

before(async () => {
  app = await startApp();
  owner = await app.createUser();
  master = await app.createUser();
  developer = await app.createUser();
  project = (await owner.client.post('/projects', { name: 'hooked', visibility_level: 0 })).body;
  other = (await owner.client.post('/projects', { name: 'elsewhere', visibility_level: 0 })).body;
  path = new URL(project.web_url).pathname;
  await seedCommit(app, project.id, { files: { 'README.md': 'hello\n' } });
  await grantProjectRole(app, project.id, master.user.id, 40);
  await grantProjectRole(app, project.id, developer.user.id, 30);
  listener = await HookListener.start();
  web = {
    master: await signedIn(master.user.username, master.password),
    developer: await signedIn(developer.user.username, developer.password),
    admin: await signedIn('root', 'rootpassword'),
  };
});
after(async () => {
  await listener?.close();
  await app?.close();
});

describe('GET /:namespace/:project/hooks/:hook_id/edit (Recent deliveries)', () => {
  test('a test delivery is listed with its status, event and duration, and its page shows the request and the response', async () => {
    const hook = (await owner.client.v4().post(`/projects/${project.id}/hooks`, { url: `${listener.url}/tested`, token: 's3cret' })).body;
    const before = await web.master.get(`${path}/hooks/${hook.id}/edit`);
    assert.match(before.text, /<h2 id="recent-deliveries">Recent deliveries<\/h2>/);
    assert.match(before.text, /No delivery yet/);

    const tested = await submit(web.master, `${path}/hooks`, `${path}/hooks/${hook.id}/test`);
    assert.match(tested.text, /Hook executed successfully: HTTP 200/);
    const edit = await web.master.get(`${path}/hooks/${hook.id}/edit`);
    assert.match(edit.text, /status-success">200<\/span>/);
    assert.match(edit.text, /Push Hook <span class="badge">test<\/span>/);
    assert.match(edit.text, /\d+ ms<\/td>/);
    const [link] = deliveryLinks(edit.text);
    assert.ok(link, 'a link to the delivery');

    const delivery = await web.master.get(link);
    assert.equal(delivery.status, 200);
    assert.match(delivery.text, /&quot;X-Gitlab-Event&quot;: &quot;Push Hook&quot;/);
    assert.match(delivery.text, /&quot;X-Gitlab-Token&quot;: &quot;\[REDACTED\]&quot;/);
    assert.doesNotMatch(delivery.text, /s3cret/);
    assert.match(delivery.text, /&quot;ref&quot;: &quot;refs\/heads\/master&quot;/);
    assert.match(delivery.text, /<h3>Response body<\/h3>\n<pre class="message">ok<\/pre>/);
    assert.ok(delivery.text.includes(`${listener.url}/tested`));
  });

  test('a queued delivery of a project event is recorded when the job sends it', async () => {
    const hook = (
      await owner.client
        .v4()
        .post(`/projects/${project.id}/hooks`, { url: `${listener.url}/issues`, issues_events: true, push_events: false })
    ).body;
    await owner.client.v4().post(`/projects/${project.id}/issues`, { title: 'Logged <b>issue</b>' });
    const [log] = await eventually(async () => {
      const logs = await logsOf(hook.id);
      return logs.length > 0 && logs;
    });
    assert.equal(log.trigger, 'Issue Hook');
    assert.equal(log.test, 0);
    assert.equal(log.response_status, 200);
    const edit = await web.master.get(`${path}/hooks/${hook.id}/edit`);
    assert.match(edit.text, /<td>Issue Hook<\/td>/);
    const delivery = await web.master.get(deliveryLinks(edit.text)[0]);
    // The title is in the recorded body, escaped on the page.
    assert.match(delivery.text, /Logged &lt;b&gt;issue&lt;\/b&gt;/);
  });

  test('a refusing receiver is recorded with its status, an unreachable one with the error', async () => {
    const refusing = await HookListener.start({ answer: () => 500 });
    try {
      const hook = (await owner.client.v4().post(`/projects/${project.id}/hooks`, { url: `${refusing.url}/no` })).body;
      await submit(web.master, `${path}/hooks`, `${path}/hooks/${hook.id}/test`);
      assert.match((await web.master.get(`${path}/hooks/${hook.id}/edit`)).text, /status-failed">500<\/span>/);
    } finally {
      await refusing.close();
    }
    const closed = (await owner.client.v4().post(`/projects/${project.id}/hooks`, { url: 'http://127.0.0.1:9/nobody' })).body;
    await submit(web.master, `${path}/hooks`, `${path}/hooks/${closed.id}/test`);
    const edit = await web.master.get(`${path}/hooks/${closed.id}/edit`);
    assert.match(edit.text, /status-failed">error<\/span>/);
    const delivery = await web.master.get(deliveryLinks(edit.text)[0]);
    assert.match(delivery.text, /<dt>Error<\/dt><dd>[^<]*ECONNREFUSED/);
    assert.match(delivery.text, /No response\./);
  });

  test("the response body is kept up to 8 KiB, the receiver's answer not read past it", async () => {
    const big = http.createServer((_request, response) => response.end('x'.repeat(100_000)));
    await new Promise<void>((resolve) => big.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(big.address() as AddressInfo).port}/big`;
      const hook = (await owner.client.v4().post(`/projects/${project.id}/hooks`, { url })).body;
      await submit(web.master, `${path}/hooks`, `${path}/hooks/${hook.id}/test`);
      const [log] = await logsOf(hook.id);
      assert.equal(log.response_status, 200);
      assert.equal(log.response_body?.length, 8 * 1024);
    } finally {
      big.closeAllConnections();
      await new Promise((resolve) => big.close(resolve));
    }
  });

  test('only those who may edit the hook see its deliveries: a developer gets 404, as does another hook’s delivery', async () => {
    const hook = (await owner.client.v4().post(`/projects/${project.id}/hooks`, { url: `${listener.url}/private` })).body;
    await submit(web.master, `${path}/hooks`, `${path}/hooks/${hook.id}/test`);
    const [link] = deliveryLinks((await web.master.get(`${path}/hooks/${hook.id}/edit`)).text);
    assert.equal((await web.master.get(link)).status, 200);
    assert.equal((await web.developer.get(`${path}/hooks/${hook.id}/edit`)).status, 404);
    assert.equal((await web.developer.get(link)).status, 404);
    assert.equal((await new WebClient(app.url).get(link)).status, 404);
    // The delivery's id under another hook of the project, and under another project.
    const sibling = (await owner.client.v4().post(`/projects/${project.id}/hooks`, { url: `${listener.url}/sibling` })).body;
    const logId = link.split('/').at(-1);
    assert.equal((await web.master.get(`${path}/hooks/${sibling.id}/hook_logs/${logId}`)).status, 404);
    const otherHook = (await owner.client.v4().post(`/projects/${other.id}/hooks`, { url: `${listener.url}/other` })).body;
    const otherPath = new URL(other.web_url).pathname;
    assert.equal((await web.admin.get(`${otherPath}/hooks/${otherHook.id}/hook_logs/${logId}`)).status, 404);
    assert.equal((await web.master.get(`${path}/hooks/${hook.id}/hook_logs/99999999`)).status, 404);
    assert.equal((await web.master.get(`${path}/hooks/${hook.id}/hook_logs/abc`)).status, 404);
  });

  test('deleting a hook deletes its deliveries', async () => {
    const hook = (await owner.client.v4().post(`/projects/${project.id}/hooks`, { url: `${listener.url}/doomed` })).body;
    await submit(web.master, `${path}/hooks`, `${path}/hooks/${hook.id}/test`);
    assert.equal((await logsOf(hook.id)).length, 1);
    const removed = await submit(web.master, `${path}/hooks`, `${path}/hooks/${hook.id}`, { _method: 'delete' });
    assert.equal(removed.status, 303);
    assert.deepEqual(await logsOf(hook.id), []);
  });

  test('the sweep keeps two days of deliveries, and the last 100 of a hook', async () => {
    const hook = (await owner.client.v4().post(`/projects/${project.id}/hooks`, { url: `${listener.url}/swept` })).body;
    for (let n = 0; n < 103; n++) await app.services.hookTests.test(project, String(hook.id), owner.user);
    const logs = await logsOf(hook.id);
    assert.equal(logs.length, 103);
    await app.services.hookLogs.prune();
    const kept = await logsOf(hook.id);
    assert.equal(kept.length, 100);
    const newest = Math.max(...logs.map((log) => log.id));
    assert.ok(
      kept.some((log) => log.id === newest),
      'the newest is kept',
    );
    await app.services.hookLogs.prune(Date.now() + 3 * 24 * 60 * 60 * 1000);
    assert.deepEqual(await logsOf(hook.id), []);
    assert.match((await web.master.get(`${path}/hooks/${hook.id}/edit`)).text, /No delivery yet/);
  });
});

describe('GET /admin/hooks/:id (Recent deliveries of a system hook)', () => {
  test("a system hook's test event is recorded when delivered, and shown to administrators only", async () => {
    const added = await submit(web.admin, '/admin/hooks', '/admin/hooks', { url: `${listener.url}/system`, token: 'sys-secret' });
    assert.equal(added.status, 303);
    const hook = (await app.root.v4().get('/hooks')).body.find((found: any) => found.url === `${listener.url}/system`);
    const list = await web.admin.get('/admin/hooks');
    assert.ok(list.text.includes(`href="/admin/hooks/${hook.id}"`));
    await submit(web.admin, '/admin/hooks', `/admin/hooks/${hook.id}/test`);
    await eventually(async () => (await logsOf(hook.id)).length > 0);
    const page = await web.admin.get(`/admin/hooks/${hook.id}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /System Hook <span class="badge">test<\/span>/);
    const [link] = deliveryLinks(page.text);
    assert.equal(link.startsWith(`/admin/hooks/${hook.id}/hook_logs/`), true);
    const delivery = await web.admin.get(link);
    assert.equal(delivery.status, 200);
    assert.match(delivery.text, /&quot;event_name&quot;: &quot;project_create&quot;/);
    assert.doesNotMatch(delivery.text, /sys-secret/);
    for (const client of [web.master, new WebClient(app.url)]) {
      assert.equal((await client.get(`/admin/hooks/${hook.id}`)).status, 404);
      assert.equal((await client.get(link)).status, 404);
    }
    // A project hook is not a system hook.
    const projectHook = (await owner.client.v4().post(`/projects/${project.id}/hooks`, { url: `${listener.url}/p` })).body;
    assert.equal((await web.admin.get(`/admin/hooks/${projectHook.id}`)).status, 404);
    await submit(web.admin, '/admin/hooks', `/admin/hooks/${hook.id}/delete`);
    assert.deepEqual(await logsOf(hook.id), []);
  });
});
