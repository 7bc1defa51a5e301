import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { grantGroupRole } from '../support/roles';
import { seedCommit } from '../support/repo';
import { createMergeRequest } from '../support/merge-requests';
import { WebClient } from '../support/web';

/** The group pages: reading by the API's rules, members and settings through the API's services, checked through the API; 404 to those who may not. */
let app: TestApp;
type Account = Awaited<ReturnType<TestApp['createUser']>>;
let owner: Account;
let developer: Account;
let stranger: Account;
let group: any;
let vault: any;
let openProject: any;
let secretProject: any;
let web: Record<'anonymous' | 'admin' | 'owner' | 'developer' | 'stranger', WebClient>;

async function signedIn(login: string, password: string): Promise<WebClient> {
  const client = new WebClient(app.url);
  assert.equal((await client.signIn(login, password)).status, 303);
  return client;
}

/** Opens the form's page for its token, then posts the fields. */
async function submit(client: WebClient, formPage: string, action: string, fields: Record<string, string>) {
  const form = await client.get(formPage);
  assert.equal(form.status, 200, `${formPage}: ${form.status}`);
  return client.post(action, { ...fields, authenticity_token: WebClient.csrfToken(form.text) });
}

const api = (suffix: string) => app.root.v4().get(suffix);

async function newGroup(path: string, visibility: string, description = '') {
  const created = await owner.client.v4().post('/groups', { name: path, path, visibility, description });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body;
}

async function newProject(name: string, namespaceId: number, visibilityLevel: number) {
  const created = await app.root.post('/projects', { name, namespace_id: namespaceId, visibility_level: visibilityLevel });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body;
}

before(async () => {
  app = await startApp();
  owner = await app.createUser({ can_create_group: true });
  developer = await app.createUser();
  stranger = await app.createUser();
  const admin = await app.createUser({ admin: true });
  group = await newGroup('guild', 'public', 'The **guild** of makers');
  vault = await newGroup('vault', 'private');
  openProject = await newProject('guild-open', group.id, 20);
  secretProject = await newProject('guild-secret', group.id, 0);
  await grantGroupRole(app, group.id, developer.user.id, 30);
  web = {
    anonymous: new WebClient(app.url),
    admin: await signedIn(admin.user.username, admin.password),
    owner: await signedIn(owner.user.username, owner.password),
    developer: await signedIn(developer.user.username, developer.password),
    stranger: await signedIn(stranger.user.username, stranger.password),
  };
});
after(() => app?.close());

describe('who reaches the group pages', () => {
  const readPages = (path: string) => ['', '/issues', '/merge_requests', '/group_members'].map((suffix) => `/groups/${path}${suffix}`);
  const ownerPages = (path: string) => ['/edit', '/projects'].map((suffix) => `/groups/${path}${suffix}`);

  test('a private group and every page under it is 404 to anonymous visitors and to those outside it', async () => {
    for (const who of ['anonymous', 'stranger', 'developer'] as const)
      for (const page of [...readPages('vault'), ...ownerPages('vault')])
        assert.equal((await web[who].get(page)).status, 404, `${who} ${page}`);
    for (const page of [...readPages('vault'), ...ownerPages('vault')]) assert.equal((await web.owner.get(page)).status, 200, page);
    assert.equal((await web.anonymous.get('/groups/no-such-group/group_members')).status, 404);
    // As the API answers them.
    assert.equal((await stranger.client.v4().get(`/groups/${vault.id}`)).status, 404);
  });

  test('the settings pages are 404 to members who are not owners and to strangers; owners and administrators open them', async () => {
    for (const who of ['anonymous', 'stranger', 'developer'] as const)
      for (const page of ownerPages('guild')) assert.equal((await web[who].get(page)).status, 404, `${who} ${page}`);
    for (const who of ['owner', 'admin'] as const)
      for (const page of ownerPages('guild')) assert.equal((await web[who].get(page)).status, 200, `${who} ${page}`);
  });

  test('the Settings tab is shown to owners only; the other tabs to all who read the group', async () => {
    const ownerView = await web.owner.get('/groups/guild');
    assert.match(ownerView.text, /href="\/groups\/guild\/edit">Settings<\/a>/);
    const developerView = await web.developer.get('/groups/guild');
    assert.doesNotMatch(developerView.text, />Settings</);
    for (const tab of ['issues">Issues', 'merge_requests">Merge Requests', 'group_members">Members'])
      assert.match(developerView.text, new RegExp(`href="/groups/guild/${tab}</a>`));
  });

  test('a developer posting the settings form or a member change gets 404 and changes nothing', async () => {
    const token = WebClient.csrfToken((await web.developer.get('/groups/guild/group_members')).text);
    const refused = await web.developer.post('/groups/guild', {
      authenticity_token: token,
      _method: 'patch',
      name: 'taken over',
      path: 'guild',
    });
    assert.equal(refused.status, 404);
    const add = await web.developer.post('/groups/guild/group_members', {
      authenticity_token: token,
      user: stranger.user.username,
      access_level: '50',
    });
    assert.equal(add.status, 404);
    const removal = await web.developer.post(`/groups/guild/group_members/${owner.user.id}`, {
      authenticity_token: token,
      _method: 'delete',
    });
    assert.equal(removal.status, 404);
    const found = (await api(`/groups/${group.id}`)).body;
    assert.equal(found.name, 'guild');
    assert.equal((await api(`/groups/${group.id}/members/${stranger.user.id}`)).status, 404);
    assert.equal((await api(`/groups/${group.id}/members/${owner.user.id}`)).body.access_level, 50);
  });

  test('a form without its token is refused', async () => {
    const refused = await web.owner.post('/groups/guild', { _method: 'patch', name: 'tokenless', path: 'guild' });
    assert.equal(refused.status, 403);
    assert.equal((await api(`/groups/${group.id}`)).body.name, 'guild');
  });
});

describe('GET /groups/:path', () => {
  test('shows the description and the projects the viewer may read', async () => {
    const anonymous = await web.anonymous.get('/groups/guild');
    assert.equal(anonymous.status, 200);
    assert.match(anonymous.text, /<strong>guild<\/strong> of makers/);
    assert.match(anonymous.text, /href="\/guild\/guild-open"/);
    assert.doesNotMatch(anonymous.text, /guild-secret/);
    assert.doesNotMatch((await web.stranger.get('/groups/guild')).text, /guild-secret/);
    assert.match((await web.developer.get('/groups/guild')).text, /href="\/guild\/guild-secret"/);
  });

  test('searches the projects and pages them', async () => {
    const many = await newGroup('many', 'public');
    for (let index = 1; index <= 21; index++) await newProject(`tool-${String(index).padStart(2, '0')}`, many.id, 20);
    const first = await web.anonymous.get('/groups/many');
    assert.match(first.text, /Page 1 of 2/);
    assert.match(first.text, /href="\/many\/tool-20"/);
    assert.doesNotMatch(first.text, /href="\/many\/tool-21"/);
    const second = await web.anonymous.get('/groups/many?page=2');
    assert.match(second.text, /href="\/many\/tool-21"/);
    assert.doesNotMatch(second.text, /href="\/many\/tool-01"/);
    const searched = await web.anonymous.get('/groups/many?search=tool-07');
    assert.match(searched.text, /href="\/many\/tool-07"/);
    assert.doesNotMatch(searched.text, /href="\/many\/tool-08"/);
    assert.match(searched.text, /name="search" value="tool-07"/);
    assert.match((await web.anonymous.get('/groups/many?search=nothing-like-it')).text, /No project matches the search/);
  });
});

describe('GET /groups/:path/issues and merge_requests', () => {
  let openIssue: any;
  let secretIssue: any;
  before(async () => {
    openIssue = (await app.root.post(`/projects/${openProject.id}/issues`, { title: 'Open tracker issue' })).body;
    secretIssue = (await app.root.post(`/projects/${secretProject.id}/issues`, { title: 'Secret tracker issue' })).body;
    const closed = (await app.root.post(`/projects/${openProject.id}/issues`, { title: 'Closed tracker issue' })).body;
    await app.root.put(`/projects/${openProject.id}/issues/${closed.id}`, { state_event: 'close' });
  });

  test('anonymous visitors are asked to sign in, as the API asks for a token', async () => {
    for (const list of ['issues', 'merge_requests']) {
      const page = await web.anonymous.get(`/groups/guild/${list}`);
      assert.equal(page.status, 303);
      assert.match(page.headers.get('location') ?? '', /^\/users\/sign_in\?redirect_to=/);
    }
  });

  test('lists the open issues of the projects the viewer reads, each linked to its project', async () => {
    const strangerView = await web.stranger.get('/groups/guild/issues');
    assert.equal(strangerView.status, 200);
    assert.match(strangerView.text, new RegExp(`href="/guild/guild-open/issues/${openIssue.iid}">Open tracker issue`));
    assert.doesNotMatch(strangerView.text, /Secret tracker issue/);
    assert.doesNotMatch(strangerView.text, /Closed tracker issue/);
    const developerView = await web.developer.get('/groups/guild/issues');
    assert.match(developerView.text, new RegExp(`href="/guild/guild-secret/issues/${secretIssue.iid}">Secret tracker issue`));
    assert.match((await web.developer.get('/groups/guild/issues?state=closed')).text, /Closed tracker issue/);
    const searched = await web.developer.get('/groups/guild/issues?search=secret');
    assert.match(searched.text, /Secret tracker issue/);
    assert.doesNotMatch(searched.text, /Open tracker issue/);
  });

  test('lists the merge requests of the projects the viewer reads, by state', async () => {
    await seedCommit(app, openProject.id, { files: { 'README.md': 'hello\n' } });
    await seedCommit(app, openProject.id, { branch: 'feature', startRef: 'master', files: { 'feature.txt': 'new\n' } });
    const mergeRequest = await createMergeRequest(app, {
      targetProjectId: openProject.id,
      sourceBranch: 'feature',
      title: 'Guild feature',
      authorId: owner.user.id,
    });
    const open = await web.stranger.get('/groups/guild/merge_requests');
    assert.equal(open.status, 200);
    assert.match(open.text, new RegExp(`href="/guild/guild-open/merge_requests/${mergeRequest.iid}">Guild feature`));
    assert.doesNotMatch((await web.stranger.get('/groups/guild/merge_requests?state=merged')).text, /Guild feature/);
  });
});

describe('GET/POST /groups/:path/group_members', () => {
  test('lists the members with their levels to anyone who reads the group, without the forms', async () => {
    await app.root.v4().put(`/groups/${group.id}/members/${developer.user.id}`, { access_level: 30, expires_at: '2099-01-31' });
    const page = await web.anonymous.get('/groups/guild/group_members');
    assert.equal(page.status, 200);
    assert.match(page.text, new RegExp(`@${developer.user.username}</span></td><td>Developer <span class="muted">until 2099-01-31`));
    assert.match(page.text, new RegExp(`@${owner.user.username}</span></td><td>Owner`));
    assert.doesNotMatch(page.text, /Add a member/);
  });

  test('adds a user at a level with an expiry, changes the level and removes the member, as the API sees it', async () => {
    const newcomer = await app.createUser();
    const added = await submit(web.owner, '/groups/guild/group_members', '/groups/guild/group_members', {
      user: newcomer.user.username,
      access_level: '20',
      expires_at: '2099-12-31',
    });
    assert.equal(added.status, 303);
    assert.equal(added.headers.get('location'), '/groups/guild/group_members');
    let member = (await api(`/groups/${group.id}/members/${newcomer.user.id}`)).body;
    assert.equal(member.access_level, 20);
    assert.equal(member.expires_at, '2099-12-31');

    const changed = await submit(web.owner, '/groups/guild/group_members', `/groups/guild/group_members/${newcomer.user.id}`, {
      _method: 'patch',
      access_level: '40',
      expires_at: '',
    });
    assert.equal(changed.status, 303);
    member = (await api(`/groups/${group.id}/members/${newcomer.user.id}`)).body;
    assert.equal(member.access_level, 40);
    assert.equal(member.expires_at, '2099-12-31');

    const removed = await submit(web.admin, '/groups/guild/group_members', `/groups/guild/group_members/${newcomer.user.id}`, {
      _method: 'delete',
    });
    assert.equal(removed.status, 303);
    assert.equal((await api(`/groups/${group.id}/members/${newcomer.user.id}`)).status, 404);
  });

  test('an unknown user, a member already there, an unknown level and a bad date are refused beside their fields', async () => {
    const unknown = await submit(web.owner, '/groups/guild/group_members', '/groups/guild/group_members', {
      user: 'nobody-here',
      access_level: '30',
    });
    assert.equal(unknown.status, 400);
    assert.match(unknown.text, /id="field-user-error">Username is not a known user/);
    assert.match(unknown.text, /value="nobody-here"/);
    const again = await submit(web.owner, '/groups/guild/group_members', '/groups/guild/group_members', {
      user: developer.user.username,
      access_level: '30',
    });
    assert.equal(again.status, 400);
    assert.match(again.text, /Username is already a member/);
    const newcomer = await app.createUser();
    const badDate = await submit(web.owner, '/groups/guild/group_members', '/groups/guild/group_members', {
      user: newcomer.user.username,
      access_level: '30',
      expires_at: 'someday',
    });
    assert.equal(badDate.status, 400);
    assert.match(badDate.text, /id="field-expires_at-error">[^<]*is invalid/);
    assert.match(badDate.text, /value="someday"/);
    const badLevel = await submit(web.owner, '/groups/guild/group_members', '/groups/guild/group_members', {
      user: newcomer.user.username,
      access_level: '45',
    });
    assert.equal(badLevel.status, 400);
    assert.match(badLevel.text, /Access level is not known/);
    assert.equal((await api(`/groups/${group.id}/members/${newcomer.user.id}`)).status, 404);
  });

  test('the last owner can be neither demoted nor removed, and the refusal is said beside the row', async () => {
    const demoted = await submit(web.owner, '/groups/guild/group_members', `/groups/guild/group_members/${owner.user.id}`, {
      _method: 'patch',
      access_level: '40',
    });
    assert.equal(demoted.status, 400);
    assert.match(demoted.text, /a group keeps at least one owner/);
    const removed = await submit(web.owner, '/groups/guild/group_members', `/groups/guild/group_members/${owner.user.id}`, {
      _method: 'delete',
    });
    assert.equal(removed.status, 400);
    const left = await submit(web.owner, '/groups/guild/group_members', '/groups/guild/group_members/leave', { _method: 'delete' });
    assert.equal(left.status, 400);
    assert.equal((await api(`/groups/${group.id}/members/${owner.user.id}`)).body.access_level, 50);
  });

  test('a member who is not in the group is a 404', async () => {
    const missing = await submit(web.owner, '/groups/guild/group_members', `/groups/guild/group_members/${stranger.user.id}`, {
      _method: 'delete',
    });
    assert.equal(missing.status, 404);
  });
});

describe('access requests', () => {
  test('a user requests access from the group page, the owner grants it at a level', async () => {
    const asker = await app.createUser();
    const client = await signedIn(asker.user.username, asker.password);
    const home = await client.get('/groups/guild');
    assert.match(home.text, /action="\/groups\/guild\/group_members\/request_access"/);
    const asked = await client.post('/groups/guild/group_members/request_access', { authenticity_token: WebClient.csrfToken(home.text) });
    assert.equal(asked.status, 303);
    const requests = (await api(`/groups/${group.id}/access_requests`)).body;
    assert.ok(requests.some((request: any) => request.id === asker.user.id));
    assert.match((await client.get('/groups/guild')).text, /Withdraw access request/);
    const ownerView = await web.owner.get('/groups/guild/group_members');
    assert.match(ownerView.text, /Users requesting access/);
    assert.match(ownerView.text, new RegExp(`@${asker.user.username}`));
    const granted = await web.owner.post(`/groups/guild/group_members/${asker.user.id}/approve_access_request`, {
      authenticity_token: WebClient.csrfToken(ownerView.text),
      access_level: '20',
    });
    assert.equal(granted.status, 303);
    assert.equal((await api(`/groups/${group.id}/members/${asker.user.id}`)).body.access_level, 20);
    assert.match((await client.get('/groups/guild')).text, /Leave group/);
  });

  test('the owner denies a request; a requester withdraws their own', async () => {
    const denied = await app.createUser();
    const withdrawn = await app.createUser();
    for (const account of [denied, withdrawn])
      assert.equal((await account.client.v4().post(`/groups/${group.id}/access_requests`)).status, 201);
    const denial = await submit(web.owner, '/groups/guild/group_members', `/groups/guild/group_members/${denied.user.id}`, {
      _method: 'delete',
    });
    assert.equal(denial.status, 303);
    const client = await signedIn(withdrawn.user.username, withdrawn.password);
    const withdrawal = await submit(client, '/groups/guild', '/groups/guild/group_members/leave', { _method: 'delete' });
    assert.equal(withdrawal.status, 303);
    const requests = (await api(`/groups/${group.id}/access_requests`)).body;
    assert.deepEqual(
      requests.filter((request: any) => [denied.user.id, withdrawn.user.id].includes(request.id)),
      [],
    );
    assert.equal((await api(`/groups/${group.id}/members/${denied.user.id}`)).status, 404);
  });

  test('a group that takes no requests offers no button and refuses one', async () => {
    const closed = await newGroup('closed-doors', 'public');
    await owner.client.v4().put(`/groups/${closed.id}`, { request_access_enabled: false });
    const page = await web.stranger.get('/groups/closed-doors');
    assert.doesNotMatch(page.text, /Request access/);
    const refused = await web.stranger.post('/groups/closed-doors/group_members/request_access', {
      authenticity_token: WebClient.csrfToken(page.text),
    });
    assert.equal(refused.status, 403);
  });
});

describe('GET /groups/:path/edit, PATCH and DELETE /groups/:path', () => {
  test('saves the name, description, visibility and request access, as the API reads them', async () => {
    const edited = await newGroup('editable', 'private');
    const saved = await submit(web.owner, '/groups/editable/edit', '/groups/editable', {
      _method: 'patch',
      name: 'Editable Group',
      path: 'editable',
      description: 'edited from the web',
      visibility_level: '10',
      lfs_enabled: '1',
    });
    assert.equal(saved.status, 303);
    assert.equal(saved.headers.get('location'), '/groups/editable/edit');
    const found = (await api(`/groups/${edited.id}`)).body;
    assert.equal(found.name, 'Editable Group');
    assert.equal(found.description, 'edited from the web');
    assert.equal(found.visibility, 'internal');
    assert.equal(found.request_access_enabled, false);
    assert.equal(found.lfs_enabled, true);
    const page = await web.owner.get('/groups/editable/edit');
    assert.match(page.text, /value="Editable Group"/);
    assert.match(page.text, /name="visibility_level" value="10" checked/);
  });

  test('a taken path, a bad name and a visibility below a project are refused beside their fields, keeping what was typed', async () => {
    const taken = await submit(web.owner, '/groups/guild/edit', '/groups/guild', {
      _method: 'patch',
      name: 'guild',
      path: 'vault',
      description: 'typed description',
      visibility_level: '20',
    });
    assert.equal(taken.status, 400);
    assert.match(taken.text, /id="field-path-error">Group path has already been taken/);
    assert.match(taken.text, /value="vault"/);
    assert.match(taken.text, />typed description<\/textarea>/);
    const badName = await submit(web.owner, '/groups/guild/edit', '/groups/guild', {
      _method: 'patch',
      name: 'bad<name>',
      path: 'guild',
      visibility_level: '20',
    });
    assert.equal(badName.status, 400);
    assert.match(badName.text, /id="field-name-error">Group name can contain only/);
    const hidden = await submit(web.owner, '/groups/guild/edit', '/groups/guild', {
      _method: 'patch',
      name: 'guild',
      path: 'guild',
      visibility_level: '0',
    });
    assert.equal(hidden.status, 400);
    assert.match(
      hidden.text,
      /id="field-visibility_level-error">Visibility level private is not allowed since there are projects with higher visibility/,
    );
    const found = (await api(`/groups/${group.id}`)).body;
    assert.equal(found.path, 'guild');
    assert.equal(found.visibility, 'public');
  });

  test("renaming the path moves the group's projects with it", async () => {
    const moving = await newGroup('moving', 'public');
    const project = await newProject('mover', moving.id, 20);
    const renamed = await submit(web.owner, '/groups/moving/edit', '/groups/moving', {
      _method: 'patch',
      name: 'moving',
      path: 'moved',
      visibility_level: '20',
      request_access_enabled: '1',
    });
    assert.equal(renamed.status, 303);
    assert.equal(renamed.headers.get('location'), '/groups/moved/edit');
    assert.equal((await api(`/groups/${moving.id}`)).body.path, 'moved');
    assert.equal((await api(`/projects/${project.id}`)).body.path_with_namespace, 'moved/mover');
    assert.equal((await web.anonymous.get('/moved/mover')).status, 200);
    assert.equal((await web.anonymous.get('/moving/mover')).status, 404);
    assert.equal((await web.anonymous.get('/groups/moving')).status, 404);
  });

  test("the Projects settings list the group's projects with the way to each one's settings", async () => {
    const page = await web.owner.get('/groups/guild/projects');
    assert.equal(page.status, 200);
    assert.match(page.text, /href="\/guild\/guild-open\/edit"/);
    assert.match(page.text, /href="\/guild\/guild-secret\/edit"/);
  });

  test('removing asks for the path typed, then removes the group and its projects', async () => {
    const doomed = await newGroup('doomed', 'public');
    const project = await newProject('doomed-tool', doomed.id, 20);
    const mistyped = await submit(web.owner, '/groups/doomed/edit', '/groups/doomed', { _method: 'delete', confirm_path: 'doome' });
    assert.equal(mistyped.status, 400);
    assert.match(mistyped.text, /id="field-confirm_path-error">[^<]*does not match the group path/);
    assert.equal((await api(`/groups/${doomed.id}`)).status, 200);
    const removed = await submit(web.owner, '/groups/doomed/edit', '/groups/doomed', { _method: 'delete', confirm_path: 'doomed' });
    assert.equal(removed.status, 303);
    assert.equal(removed.headers.get('location'), '/');
    assert.equal((await api(`/groups/${doomed.id}`)).status, 404);
    assert.equal((await api(`/projects/${project.id}`)).status, 404);
  });
});
