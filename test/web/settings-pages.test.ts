import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { grantProjectRole } from '../support/roles';
import { seedCommit } from '../support/repo';
import { WebClient } from '../support/web';
import { HookListener } from '../support/hook-listener';
import { publicKeys } from '../fixtures/ssh-keys';
import { registeredRunner, runnerRow } from '../support/ci-world';

/** The project settings pages: each write through the API's services, checked through the API; 404 to all who may not administer the project. */
let app: TestApp;
type Account = Awaited<ReturnType<TestApp['createUser']>>;
let owner: Account;
let master: Account;
let developer: Account;
let guest: Account;
let stranger: Account;
let project: any;
let path: string;
let web: Record<'anonymous' | 'owner' | 'master' | 'developer' | 'guest' | 'stranger', WebClient>;

async function signedIn(account: Account): Promise<WebClient> {
  const client = new WebClient(app.url);
  assert.equal((await client.signIn(account.user.username, account.password)).status, 303);
  return client;
}

/** Opens the form's page for its token, then posts the fields. */
async function submit(client: WebClient, formPage: string, action: string, fields: Record<string, string>) {
  const form = await client.get(formPage);
  assert.equal(form.status, 200, `${formPage}: ${form.status}`);
  return client.post(action, { ...fields, authenticity_token: WebClient.csrfToken(form.text) });
}

const api = (suffix: string, account = owner) => account.client.v4().get(suffix);

before(async () => {
  app = await startApp();
  owner = await app.createUser({ can_create_group: true });
  master = await app.createUser();
  developer = await app.createUser();
  guest = await app.createUser();
  stranger = await app.createUser();
  project = (await owner.client.post('/projects', { name: 'settings-lab', visibility_level: 20 })).body;
  path = new URL(project.web_url).pathname;
  await seedCommit(app, project.id, { files: { 'README.md': 'hello\n' } });
  await grantProjectRole(app, project.id, master.user.id, 40);
  await grantProjectRole(app, project.id, developer.user.id, 30);
  await grantProjectRole(app, project.id, guest.user.id, 10);
  web = {
    anonymous: new WebClient(app.url),
    owner: await signedIn(owner),
    master: await signedIn(master),
    developer: await signedIn(developer),
    guest: await signedIn(guest),
    stranger: await signedIn(stranger),
  };
});
after(() => app?.close());

describe('who reaches the settings', () => {
  const pagesOf = () =>
    ['/edit', '/project_members', '/protected_branches', '/hooks', '/deploy_keys', '/variables', '/triggers', '/runners'].map(
      (suffix) => `${path}${suffix}`,
    );

  test('developers, guests, strangers and anonymous visitors get 404 on every settings page', async () => {
    for (const who of ['anonymous', 'developer', 'guest', 'stranger'] as const)
      for (const page of pagesOf()) assert.equal((await web[who].get(page)).status, 404, `${who} ${page}`);
  });

  test('masters and owners open every settings page', async () => {
    for (const who of ['owner', 'master'] as const)
      for (const page of pagesOf()) assert.equal((await web[who].get(page)).status, 200, `${who} ${page}`);
  });

  test('the Settings tab is shown to masters only', async () => {
    assert.match((await web.master.get(path)).text, new RegExp(`href="${path}/edit">Settings</a>`));
    assert.doesNotMatch((await web.developer.get(path)).text, />Settings</);
    assert.doesNotMatch((await web.anonymous.get(path)).text, />Settings</);
  });

  test('a developer posting a settings form gets 404 and changes nothing', async () => {
    const form = await web.developer.get(path);
    const token = WebClient.csrfToken(form.text);
    const refused = await web.developer.post(`${path}/edit`, {
      authenticity_token: token,
      _method: 'patch',
      section: 'general',
      description: 'taken over',
    });
    assert.equal(refused.status, 404);
    assert.notEqual((await api(`/projects/${project.id}`)).body.description, 'taken over');
  });
});

describe('GET /:namespace/:project/edit, PATCH /:namespace/:project', () => {
  test('saves the description, the default branch and the features', async () => {
    const saved = await submit(web.owner, `${path}/edit`, `${path}/edit`, {
      _method: 'patch',
      section: 'general',
      description: 'settings from the web',
      default_branch: 'master',
      visibility_level: '10',
      issues_enabled: '1',
      merge_requests_enabled: '1',
      builds_enabled: '1',
      only_allow_merge_if_build_succeeds: '1',
    });
    assert.equal(saved.status, 303);
    assert.equal(saved.headers.get('location'), `${path}/edit`);
    const found = (await api(`/projects/${project.id}`)).body;
    assert.equal(found.description, 'settings from the web');
    assert.equal(found.visibility, 'internal');
    assert.equal(found.snippets_enabled, false);
    assert.equal(found.wiki_enabled, false);
    assert.equal(found.issues_enabled, true);
    assert.equal(found.only_allow_merge_if_pipeline_succeeds, true);
    const page = await web.owner.get(`${path}/edit`);
    assert.match(page.text, /name="only_allow_merge_if_build_succeeds" value="1" checked/);
    assert.match(page.text, /name="snippets_enabled" value="1">/);
  });

  test('a master saves features but is not offered the visibility, and cannot change it', async () => {
    const page = await web.master.get(`${path}/edit`);
    assert.doesNotMatch(page.text, /name="visibility_level"/);
    assert.doesNotMatch(page.text, /Remove project/);
    const saved = await submit(web.master, `${path}/edit`, `${path}/edit`, {
      _method: 'patch',
      section: 'general',
      description: 'by the master',
      visibility_level: '20',
      issues_enabled: '1',
      merge_requests_enabled: '1',
      builds_enabled: '1',
      snippets_enabled: '1',
    });
    assert.equal(saved.status, 303);
    const found = (await api(`/projects/${project.id}`)).body;
    assert.equal(found.description, 'by the master');
    assert.equal(found.visibility, 'internal');
    assert.equal(found.snippets_enabled, true);
  });

  test('a form without its token is refused', async () => {
    const refused = await web.owner.post(`${path}/edit`, { _method: 'patch', section: 'general', description: 'forged' });
    assert.equal(refused.status, 403);
    assert.notEqual((await api(`/projects/${project.id}`)).body.description, 'forged');
  });

  test('renaming to a taken path is refused beside the field, keeping what was typed', async () => {
    await owner.client.post('/projects', { name: 'occupied' });
    const taken = await submit(web.owner, `${path}/edit`, `${path}/edit`, {
      _method: 'patch',
      section: 'rename',
      name: 'Kept name',
      path: 'occupied',
    });
    assert.equal(taken.status, 400);
    assert.match(taken.text, /class="field-error" id="field-path-error">Path has already been taken/);
    assert.match(taken.text, /value="Kept name"/);
    const invalid = await submit(web.owner, `${path}/edit`, `${path}/edit`, {
      _method: 'patch',
      section: 'rename',
      name: 'Kept <name>',
      path: 'fine',
    });
    assert.equal(invalid.status, 400);
    assert.match(invalid.text, /id="field-name-error">Project name can contain only letters/);
    assert.match(invalid.text, /value="Kept &lt;name&gt;"/);
    assert.equal((await api(`/projects/${project.id}`)).body.path, 'settings-lab');
  });

  test('renaming moves the project to its new path', async () => {
    const renamed = await submit(web.owner, `${path}/edit`, `${path}/edit`, {
      _method: 'patch',
      section: 'rename',
      name: 'Settings Lab',
      path: 'lab',
    });
    assert.equal(renamed.status, 303);
    assert.equal(renamed.headers.get('location'), `/${owner.user.username}/lab/edit`);
    const found = (await api(`/projects/${project.id}`)).body;
    assert.equal(found.path, 'lab');
    assert.equal(found.name, 'Settings Lab');
    const back = await submit(web.owner, `/${owner.user.username}/lab/edit`, `/${owner.user.username}/lab/edit`, {
      _method: 'patch',
      section: 'rename',
      name: 'settings-lab',
      path: 'settings-lab',
    });
    assert.equal(back.status, 303);
  });

  test('archive and unarchive', async () => {
    const archived = await submit(web.owner, `${path}/edit`, `${path}/archive`, {});
    assert.equal(archived.status, 303);
    assert.equal((await api(`/projects/${project.id}`)).body.archived, true);
    assert.match((await web.owner.get(`${path}/edit`)).text, /Unarchive project/);
    assert.equal((await submit(web.owner, `${path}/edit`, `${path}/unarchive`, {})).status, 303);
    assert.equal((await api(`/projects/${project.id}`)).body.archived, false);
  });

  test('a master may not archive', async () => {
    const refused = await submit(web.master, `${path}/edit`, `${path}/archive`, {});
    assert.equal(refused.status, 403);
    assert.equal((await api(`/projects/${project.id}`)).body.archived, false);
  });

  test('transfer into a group the owner may create projects in, and back', async () => {
    const group = (await owner.client.v4().post('/groups', { name: 'Movers', path: 'movers', visibility: 'public' })).body;
    const page = await web.owner.get(`${path}/edit`);
    assert.match(page.text, new RegExp(`<option value="${group.id}">movers</option>`));
    const moved = await submit(web.owner, `${path}/edit`, `${path}/transfer`, { new_namespace_id: String(group.id) });
    assert.equal(moved.status, 303);
    assert.equal(moved.headers.get('location'), '/movers/settings-lab/edit');
    assert.equal((await api(`/projects/${project.id}`)).body.namespace.path, 'movers');
    const personal = (await api('/namespaces')).body.find((namespace: any) => namespace.kind === 'user').id;
    const back = await submit(web.owner, '/movers/settings-lab/edit', '/movers/settings-lab/transfer', {
      new_namespace_id: String(personal),
    });
    assert.equal(back.status, 303);
    assert.equal((await api(`/projects/${project.id}`)).body.namespace.path, owner.user.username);
  });

  test('a transfer into a namespace the owner may not use is refused beside the field', async () => {
    const theirs = (await stranger.client.v4().get('/namespaces')).body[0].id;
    const refused = await submit(web.owner, `${path}/edit`, `${path}/transfer`, { new_namespace_id: String(theirs) });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /Namespace is not valid/);
  });

  test('removing asks for the path typed, then removes the project', async () => {
    const doomed = (await owner.client.post('/projects', { name: 'doomed' })).body;
    const doomedPath = new URL(doomed.web_url).pathname;
    const refused = await submit(web.owner, `${doomedPath}/edit`, `${doomedPath}/edit`, { _method: 'delete', confirm_path: 'wrong' });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /does not match the project path/);
    assert.equal((await api(`/projects/${doomed.id}`)).status, 200);
    const removed = await submit(web.owner, `${doomedPath}/edit`, `${doomedPath}/edit`, { _method: 'delete', confirm_path: 'doomed' });
    assert.equal(removed.status, 303);
    assert.equal((await api(`/projects/${doomed.id}`)).status, 404);
  });
});

describe('GET/POST /:namespace/:project/project_members', () => {
  test('adds a user at a level with an expiry, as the API sees it, with the join event', async () => {
    const newcomer = await app.createUser();
    const added = await submit(web.master, `${path}/project_members`, `${path}/project_members`, {
      user: newcomer.user.username,
      access_level: '20',
      expires_at: '2099-12-31',
    });
    assert.equal(added.status, 303);
    assert.equal(added.headers.get('location'), `${path}/project_members`);
    const member = (await api(`/projects/${project.id}/members/${newcomer.user.id}`)).body;
    assert.equal(member.access_level, 20);
    assert.equal(member.expires_at, '2099-12-31');
    const events = (await api(`/projects/${project.id}/events`)).body;
    assert.ok(events.some((event: any) => event.action_name === 'joined' && event.author_id === newcomer.user.id));
    assert.match((await web.master.get(`${path}/project_members`)).text, new RegExp(`@${newcomer.user.username}`));

    const changed = await submit(web.master, `${path}/project_members`, `${path}/project_members/${newcomer.user.id}`, {
      _method: 'patch',
      access_level: '30',
      expires_at: '',
    });
    assert.equal(changed.status, 303);
    assert.equal((await api(`/projects/${project.id}/members/${newcomer.user.id}`)).body.access_level, 30);

    const removed = await submit(web.master, `${path}/project_members`, `${path}/project_members/${newcomer.user.id}`, {
      _method: 'delete',
    });
    assert.equal(removed.status, 303);
    assert.equal((await api(`/projects/${project.id}/members/${newcomer.user.id}`)).status, 404);
  });

  test('an unknown user, a member already there and a bad date are refused beside their fields', async () => {
    const unknown = await submit(web.master, `${path}/project_members`, `${path}/project_members`, {
      user: 'nobody-here',
      access_level: '30',
    });
    assert.equal(unknown.status, 400);
    assert.match(unknown.text, /id="field-user-error">Username is not a known user/);
    assert.match(unknown.text, /value="nobody-here"/);
    const again = await submit(web.master, `${path}/project_members`, `${path}/project_members`, {
      user: developer.user.username,
      access_level: '30',
    });
    assert.equal(again.status, 400);
    assert.match(again.text, /Username is already a member/);
    const newcomer = await app.createUser();
    const badDate = await submit(web.master, `${path}/project_members`, `${path}/project_members`, {
      user: newcomer.user.username,
      access_level: '30',
      expires_at: 'someday',
    });
    assert.equal(badDate.status, 400);
    assert.match(badDate.text, /id="field-expires_at-error">[^<]*is invalid/);
    assert.equal((await api(`/projects/${project.id}/members/${newcomer.user.id}`)).status, 404);
  });

  test('shares the project with a group and unshares it', async () => {
    const group = (await owner.client.v4().post('/groups', { name: 'Sharers', path: 'sharers', visibility: 'public' })).body;
    const shared = await submit(web.master, `${path}/project_members`, `${path}/group_links`, { group: 'sharers', group_access: '30' });
    assert.equal(shared.status, 303);
    const found = (await api(`/projects/${project.id}`)).body;
    assert.deepEqual(
      found.shared_with_groups.map((link: any) => [link.group_id, link.group_access_level]),
      [[group.id, 30]],
    );
    assert.match((await web.master.get(`${path}/project_members`)).text, /Sharers <span class="badge">Developer<\/span>/);
    const missing = await submit(web.master, `${path}/project_members`, `${path}/group_links`, {
      group: 'no-such-group',
      group_access: '30',
    });
    assert.equal(missing.status, 400);
    assert.match(missing.text, /Group path is not a known group/);
    const unshared = await submit(web.master, `${path}/project_members`, `${path}/group_links/${group.id}`, { _method: 'delete' });
    assert.equal(unshared.status, 303);
    assert.deepEqual((await api(`/projects/${project.id}`)).body.shared_with_groups, []);
  });

  test('a developer cannot add members, even with a valid token', async () => {
    const form = await web.developer.get(path);
    const refused = await web.developer.post(`${path}/project_members`, {
      authenticity_token: WebClient.csrfToken(form.text),
      user: stranger.user.username,
      access_level: '40',
    });
    assert.equal(refused.status, 404);
    assert.equal((await api(`/projects/${project.id}/members/${stranger.user.id}`)).status, 404);
  });
});

describe('GET/POST /:namespace/:project/protected_branches', () => {
  test('protects a branch with push and merge levels, as the API reads them, then unprotects it', async () => {
    const protectedNow = await submit(web.master, `${path}/protected_branches`, `${path}/protected_branches`, {
      name: 'release-*',
      push_access_level: '0',
      merge_access_level: '30',
    });
    assert.equal(protectedNow.status, 303);
    const rule = (await api(`/projects/${project.id}/protected_branches/release-*`)).body;
    assert.equal(rule.push_access_levels[0].access_level, 0);
    assert.equal(rule.merge_access_levels[0].access_level, 30);
    const page = await web.master.get(`${path}/protected_branches`);
    assert.match(page.text, /<code>release-\*<\/code><\/td><td>No one<\/td>/);
    const taken = await submit(web.master, `${path}/protected_branches`, `${path}/protected_branches`, { name: 'release-*' });
    assert.equal(taken.status, 400);
    assert.match(taken.text, /is already protected/);
    const removed = await submit(web.master, `${path}/protected_branches`, `${path}/protected_branches/release-*`, { _method: 'delete' });
    assert.equal(removed.status, 303);
    assert.equal((await api(`/projects/${project.id}/protected_branches/release-*`)).status, 404);
  });

  test('a blank name and an unknown level are refused beside their fields', async () => {
    const refused = await submit(web.master, `${path}/protected_branches`, `${path}/protected_branches`, {
      name: ' ',
      push_access_level: '50',
    });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /id="field-name-error">Branch \(or wildcard\) can&#39;t be blank/);
    assert.match(refused.text, /id="field-push_access_level-error">Allowed to push is not a known level/);
  });

  test('a branch name with a slash is unprotected by its encoded name', async () => {
    await submit(web.master, `${path}/protected_branches`, `${path}/protected_branches`, { name: 'feature/x' });
    const removed = await submit(web.master, `${path}/protected_branches`, `${path}/protected_branches/feature%2Fx`, { _method: 'delete' });
    assert.equal(removed.status, 303);
    assert.equal((await api(`/projects/${project.id}/protected_branches`)).body.length, 0);
  });
});

describe('GET/POST /:namespace/:project/hooks', () => {
  let listener: HookListener;
  before(async () => {
    listener = await HookListener.start();
  });
  after(() => listener?.close());

  test('adds a hook with its events, as the API reads it, edits it, tests it and removes it', async () => {
    const added = await submit(web.master, `${path}/hooks`, `${path}/hooks`, {
      url: `${listener.url}/first`,
      token: 's3cret',
      push_events: '1',
      issues_events: '1',
      enable_ssl_verification: '1',
    });
    assert.equal(added.status, 303);
    const [hook] = (await api(`/projects/${project.id}/hooks`)).body;
    assert.equal(hook.url, `${listener.url}/first`);
    assert.equal(hook.issues_events, true);
    assert.equal(hook.tag_push_events, false);

    const edit = await web.master.get(`${path}/hooks/${hook.id}/edit`);
    assert.equal(edit.status, 200);
    assert.doesNotMatch(edit.text, /s3cret/);
    const saved = await submit(web.master, `${path}/hooks/${hook.id}/edit`, `${path}/hooks/${hook.id}`, {
      _method: 'patch',
      url: `${listener.url}/second`,
      token: '',
      push_events: '1',
      tag_push_events: '1',
    });
    assert.equal(saved.status, 303);
    const changed = (await api(`/projects/${project.id}/hooks/${hook.id}`)).body;
    assert.equal(changed.url, `${listener.url}/second`);
    assert.equal(changed.issues_events, false);
    assert.equal(changed.tag_push_events, true);

    const tested = await submit(web.master, `${path}/hooks`, `${path}/hooks/${hook.id}/test`, {});
    assert.equal(tested.status, 200);
    assert.match(tested.text, /Hook executed successfully: HTTP 200/);
    const delivery = await listener.waitFor((received) => received.url === '/hook/second');
    assert.equal(delivery.headers['x-gitlab-event'], 'Push Hook');
    assert.equal(delivery.headers['x-gitlab-token'], 's3cret', 'a blank token while editing keeps the stored one');
    assert.equal(delivery.body.object_kind, 'push');
    assert.equal(delivery.body.project_id, project.id);
    assert.equal(delivery.body.ref, 'refs/heads/master');

    const removed = await submit(web.master, `${path}/hooks`, `${path}/hooks/${hook.id}`, { _method: 'delete' });
    assert.equal(removed.status, 303);
    assert.deepEqual((await api(`/projects/${project.id}/hooks`)).body, []);
  });

  test('a test delivery the receiver refuses, or that reaches no one, is said so', async () => {
    const refusing = await HookListener.start({ answer: () => 500 });
    try {
      const hook = (await owner.client.v4().post(`/projects/${project.id}/hooks`, { url: `${refusing.url}/x` })).body;
      const tested = await submit(web.master, `${path}/hooks`, `${path}/hooks/${hook.id}/test`, {});
      assert.match(tested.text, /returned HTTP 500/);
      await owner.client.v4().delete(`/projects/${project.id}/hooks/${hook.id}`);
    } finally {
      await refusing.close();
    }
    const closed = (await owner.client.v4().post(`/projects/${project.id}/hooks`, { url: 'http://127.0.0.1:9/nobody' })).body;
    const failed = await submit(web.master, `${path}/hooks`, `${path}/hooks/${closed.id}/test`, {});
    assert.match(failed.text, /Hook execution failed/);
    await owner.client.v4().delete(`/projects/${project.id}/hooks/${closed.id}`);
  });

  test('an invalid URL is refused beside the field, keeping what was typed', async () => {
    const refused = await submit(web.master, `${path}/hooks`, `${path}/hooks`, { url: 'ftp://example.com/<x>', note_events: '1' });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /id="field-url-error">URL is not a valid http\(s\) URL/);
    assert.match(refused.text, /value="ftp:\/\/example.com\/&lt;x&gt;"/);
    assert.match(refused.text, /name="note_events" value="1" checked/);
  });

  test("another project's hook is a 404 here", async () => {
    const other = (await owner.client.post('/projects', { name: 'other-hooks' })).body;
    const hook = (await owner.client.v4().post(`/projects/${other.id}/hooks`, { url: 'http://example.com/h' })).body;
    assert.equal((await web.master.get(`${path}/hooks/${hook.id}/edit`)).status, 404);
  });
});

describe('GET/POST /:namespace/:project/deploy_keys', () => {
  test('adds a key, removes it, and enables a key of another project the master manages', async () => {
    const added = await submit(web.master, `${path}/deploy_keys`, `${path}/deploy_keys`, { title: 'ci box', key: publicKeys['rsa-1'].key });
    assert.equal(added.status, 303);
    const [key] = (await api(`/projects/${project.id}/deploy_keys`)).body;
    assert.equal(key.title, 'ci box');
    assert.equal(key.key, publicKeys['rsa-1'].key);

    const elsewhere = (await master.client.post('/projects', { name: 'master-own' })).body;
    await master.client.v4().post(`/projects/${elsewhere.id}/deploy_keys`, { title: 'shared box', key: publicKeys['ecdsa-1'].key });
    const sharedKey = (await master.client.v4().get(`/projects/${elsewhere.id}/deploy_keys`)).body[0];
    const page = await web.master.get(`${path}/deploy_keys`);
    assert.match(page.text, /shared box/);
    const enabled = await submit(web.master, `${path}/deploy_keys`, `${path}/deploy_keys/${sharedKey.id}/enable`, {});
    assert.equal(enabled.status, 303);
    assert.deepEqual(
      (await api(`/projects/${project.id}/deploy_keys`)).body.map((k: any) => k.title),
      ['ci box', 'shared box'],
    );
    // A user who masters none of the projects the key is on is not offered it, and enabling it is a 404.
    const theirs = (await stranger.client.post('/projects', { name: 'stranger-own' })).body;
    const theirPath = new URL(theirs.web_url).pathname;
    assert.doesNotMatch((await web.stranger.get(`${theirPath}/deploy_keys`)).text, /shared box/);
    const refused = await submit(web.stranger, `${theirPath}/deploy_keys`, `${theirPath}/deploy_keys/${sharedKey.id}/enable`, {});
    assert.equal(refused.status, 404);
    await master.client.v4().delete(`/projects/${project.id}/deploy_keys/${sharedKey.id}`);

    const removed = await submit(web.master, `${path}/deploy_keys`, `${path}/deploy_keys/${key.id}`, { _method: 'delete' });
    assert.equal(removed.status, 303);
    assert.deepEqual((await api(`/projects/${project.id}/deploy_keys`)).body, []);
  });

  test('a key that is not one is refused beside its field, keeping what was typed', async () => {
    const refused = await submit(web.master, `${path}/deploy_keys`, `${path}/deploy_keys`, {
      title: 'bad <key>',
      key: 'ssh-rsa not-a-key',
    });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /id="field-key-error">Key fingerprint cannot be generated/);
    assert.match(refused.text, /value="bad &lt;key&gt;"/);
    assert.match(refused.text, /ssh-rsa not-a-key<\/textarea>/);
  });
});

describe('GET/POST /:namespace/:project/variables and triggers', () => {
  test('adds a variable, lists its key but not its value, edits and removes it', async () => {
    const added = await submit(web.master, `${path}/variables`, `${path}/variables`, {
      key: 'DEPLOY_TOKEN',
      value: 'hunter2-secret',
      protected: '1',
    });
    assert.equal(added.status, 303);
    const variable = (await api(`/projects/${project.id}/variables/DEPLOY_TOKEN`)).body;
    assert.equal(variable.value, 'hunter2-secret');
    assert.equal(variable.protected, true);
    const list = await web.master.get(`${path}/variables`);
    assert.match(list.text, /<code>DEPLOY_TOKEN<\/code>/);
    assert.doesNotMatch(list.text, /hunter2-secret/);
    assert.match((await web.master.get(`${path}/variables/DEPLOY_TOKEN/edit`)).text, /hunter2-secret<\/textarea>/);
    const edited = await submit(web.master, `${path}/variables/DEPLOY_TOKEN/edit`, `${path}/variables/DEPLOY_TOKEN`, {
      _method: 'patch',
      value: 'rotated',
    });
    assert.equal(edited.status, 303);
    const changed = (await api(`/projects/${project.id}/variables/DEPLOY_TOKEN`)).body;
    assert.equal(changed.value, 'rotated');
    assert.equal(changed.protected, false);
    const removed = await submit(web.master, `${path}/variables`, `${path}/variables/DEPLOY_TOKEN`, { _method: 'delete' });
    assert.equal(removed.status, 303);
    assert.equal((await api(`/projects/${project.id}/variables/DEPLOY_TOKEN`)).status, 404);
  });

  test('a bad key is refused beside the field', async () => {
    const refused = await submit(web.master, `${path}/variables`, `${path}/variables`, { key: 'NOT VALID', value: 'x' });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /id="field-key-error">Key /);
    assert.match(refused.text, /value="NOT VALID"/);
  });

  test('creates a trigger whose token is shown and starts a pipeline, then revokes it', async () => {
    const created = await submit(web.master, `${path}/triggers`, `${path}/triggers`, { description: 'nightly' });
    assert.equal(created.status, 303);
    const [trigger] = (await master.client.v4().get(`/projects/${project.id}/triggers`)).body;
    assert.equal(trigger.description, 'nightly');
    const page = await web.master.get(`${path}/triggers`);
    assert.match(page.text, new RegExp(`<code class="token">${trigger.token}</code>`));
    // Another master sees only its start, as the API shows it.
    assert.doesNotMatch((await web.owner.get(`${path}/triggers`)).text, new RegExp(trigger.token));
    const revoked = await submit(web.master, `${path}/triggers`, `${path}/triggers/${trigger.id}`, { _method: 'delete' });
    assert.equal(revoked.status, 303);
    assert.deepEqual((await master.client.v4().get(`/projects/${project.id}/triggers`)).body, []);
  });
});

describe('GET/POST /:namespace/:project/runners', () => {
  test('shows the registration token and resets it', async () => {
    const before = (await api(`/projects/${project.id}`)).body.runners_token;
    assert.match((await web.master.get(`${path}/runners`)).text, new RegExp(`<code class="token">${before}</code>`));
    const reset = await submit(web.master, `${path}/runners`, `${path}/runners_token/reset`, {});
    assert.equal(reset.status, 303);
    const after = (await api(`/projects/${project.id}`)).body.runners_token;
    assert.notEqual(after, before);
    assert.match((await web.master.get(`${path}/runners`)).text, new RegExp(`<code class="token">${after}</code>`));
  });

  test('turns shared runners off and on', async () => {
    const was = (await api(`/projects/${project.id}`)).body.shared_runners_enabled;
    assert.equal((await submit(web.master, `${path}/runners`, `${path}/runners/shared`, {})).status, 303);
    assert.equal((await api(`/projects/${project.id}`)).body.shared_runners_enabled, !was);
    assert.equal((await submit(web.master, `${path}/runners`, `${path}/runners/shared`, {})).status, 303);
    assert.equal((await api(`/projects/${project.id}`)).body.shared_runners_enabled, was);
  });

  test('enables a runner of another project the master manages, and disables it', async () => {
    const elsewhere = (await master.client.post('/projects', { name: 'runner-home' })).body;
    const client = await registeredRunner(app, { projectId: elsewhere.id, description: 'borrowed runner' });
    const runnerId = (await runnerRow(app, client.token!))!.id;
    assert.match((await web.master.get(`${path}/runners`)).text, /borrowed runner/);
    const enabled = await submit(web.master, `${path}/runners`, `${path}/runners/${runnerId}/enable`, {});
    assert.equal(enabled.status, 303);
    const ofProject = (await api(`/projects/${project.id}/runners`)).body;
    assert.ok(ofProject.some((runner: any) => runner.id === runnerId));
    const again = await submit(web.master, `${path}/runners`, `${path}/runners/${runnerId}/enable`, {});
    assert.equal(again.status, 400);
    assert.match(again.text, /already enabled/);
    const disabled = await submit(web.master, `${path}/runners`, `${path}/runners/${runnerId}`, { _method: 'delete' });
    assert.equal(disabled.status, 303);
    assert.ok(!(await api(`/projects/${project.id}/runners`)).body.some((runner: any) => runner.id === runnerId));
  });
});
