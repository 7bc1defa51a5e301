import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { createPeople, createProjectWorld, type Person } from '../support/project-world';
import { seedCommit } from '../support/repo';
import { git } from '../support/git';
import { eventually } from '../support/eventually';
import { WebClient } from '../support/web';
import { createWebWorld, pathOf, submit, type WebWorld } from '../support/web-world';

/** The pages that create things (projects, groups, forks, branches, tags, files): each through the API's services, with its errors beside the fields. */
let app: TestApp;
let owner: Person;
let stranger: Person;
let open: any;
let secret: any;
let path: string;
let secretPath: string;
let web: WebWorld<'developer' | 'guest' | 'stranger'>['web'];

const api = (suffix: string, account = owner) => account.client.v4().get(suffix);
const fileAt = async (projectId: number, file: string, ref: string) => {
  const found = await api(`/projects/${projectId}/repository/files/${encodeURIComponent(file)}?ref=${encodeURIComponent(ref)}`);
  return found.status === 200 ? Buffer.from(found.body.content, 'base64').toString('utf8') : undefined;
};
const gitLog = async (projectId: number, ref: string) =>
  (await git(['--git-dir', app.services.repositories.path(projectId), 'log', '-1', '--format=%an|%s', ref])).stdout.trim();

before(async () => {
  app = await startApp();
  // The developer works on the open project; the guest is a member of the private one only.
  const people = await createPeople(app, ['developer', 'guest', 'stranger'], { owner: { can_create_group: true } });
  const world = await createWebWorld<'developer' | 'guest' | 'stranger'>(app, {
    people,
    roles: ['developer', 'stranger'],
    name: 'workshop',
    visibility: 20,
  });
  ({ owner, stranger } = people);
  ({ project: open, base: path, web } = world);
  secret = (await createProjectWorld(app, { people, roles: ['guest'], name: 'vault', visibility: 0 })).project;
  secretPath = pathOf(secret.web_url);
  for (const project of [open, secret])
    await seedCommit(app, project.id, { files: { 'README.md': 'hello\n', 'docs/guide.md': 'guide\n' } });
  assert.equal((await owner.client.v4().put(`/projects/${open.id}/repository/branches/master/protect`, {})).status, 200);
});
after(() => app?.close());

describe('GET /projects/new, POST /projects', () => {
  test('an anonymous visitor is sent to sign in first', async () => {
    const page = await web.anonymous.get('/projects/new');
    assert.equal(page.status, 303);
    assert.equal(page.headers.get('location'), '/users/sign_in?redirect_to=%2Fprojects%2Fnew');
  });

  test('creates the project in the caller namespace and lands on it', async () => {
    const created = await submit(web.owner, '/projects/new', '/projects', {
      namespace_id: '',
      name: 'From The Web',
      path: '',
      description: 'made in a browser',
      visibility_level: '10',
    });
    assert.equal(created.status, 303);
    assert.equal(created.headers.get('location'), `/${owner.user.username}/from-the-web`);
    const found = await api(`/projects/${encodeURIComponent(`${owner.user.username}/from-the-web`)}`);
    assert.equal(found.status, 200);
    assert.equal(found.body.description, 'made in a browser');
    assert.equal(found.body.visibility, 'internal');
    const events = await api(`/projects/${found.body.id}/events`);
    assert.ok(events.body.some((event: any) => event.action_name === 'created'));
  });

  test('a taken name is refused beside the field, keeping what was typed', async () => {
    const refused = await submit(web.owner, '/projects/new', '/projects', {
      name: 'workshop',
      description: 'kept <b>text</b>',
      visibility_level: '20',
    });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /class="field-error" id="field-name-error">Project name has already been taken/);
    assert.match(refused.text, /kept &lt;b&gt;text&lt;\/b&gt;<\/textarea>/);
    assert.match(refused.text, /value="20" checked/);
  });

  test('a namespace the caller may not create in is refused', async () => {
    const group = await submit(web.owner, '/groups/new', '/groups', { path: 'toolsmiths', name: 'Toolsmiths', visibility_level: '20' });
    assert.equal(group.status, 303);
    const groupId = (await api('/groups/toolsmiths')).body.id;
    const refused = await submit(web.stranger, '/projects/new', '/projects', { namespace_id: String(groupId), name: 'squatter' });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /Namespace is not valid/);
    const form = await web.owner.get(`/projects/new?namespace_id=${groupId}`);
    assert.match(form.text, new RegExp(`<option value="${groupId}" selected>toolsmiths</option>`));
    const inGroup = await submit(web.owner, '/projects/new', '/projects', { namespace_id: String(groupId), name: 'anvil' });
    assert.equal(inGroup.headers.get('location'), '/toolsmiths/anvil');
  });

  test('a form without its token is refused and creates nothing', async () => {
    const refused = await web.owner.post('/projects', { name: 'forged' });
    assert.equal(refused.status, 403);
    assert.equal((await api(`/projects/${encodeURIComponent(`${owner.user.username}/forged`)}`)).status, 404);
  });
});

describe('GET /groups/new, POST /groups', () => {
  test('creates the group, its creator its owner', async () => {
    const created = await submit(web.owner, '/groups/new', '/groups', {
      path: 'weavers',
      name: '',
      description: 'cloth',
      visibility_level: '0',
    });
    assert.equal(created.status, 303);
    assert.equal(created.headers.get('location'), '/groups/weavers');
    const group = await api('/groups/weavers');
    assert.equal(group.body.name, 'weavers');
    assert.equal(group.body.visibility, 'private');
    const page = await web.owner.get('/groups/weavers');
    assert.match(page.text, new RegExp(`href="/projects/new\\?namespace_id=${group.body.id}">New project`));
  });

  test('a taken path is refused beside the field, keeping what was typed', async () => {
    const refused = await submit(web.owner, '/groups/new', '/groups', { path: 'weavers', name: 'Second weavers' });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /id="field-path-error">Group path has already been taken/);
    assert.match(refused.text, /value="Second weavers"/);
  });

  test('a user who may not create groups gets 404', async () => {
    await app.root.put(`/users/${stranger.user.id}`, { can_create_group: false });
    assert.equal((await web.stranger.get('/groups/new')).status, 404);
  });
});

describe('GET /:namespace/:project/forks/new, POST …/forks', () => {
  test('forks into the chosen namespace and lands on the fork', async () => {
    const page = await web.stranger.get(`${path}/forks/new`);
    assert.match(page.text, /Fork into/);
    const forked = await submit(web.stranger, `${path}/forks/new`, `${path}/forks`, { namespace_key: '' });
    assert.equal(forked.status, 303);
    assert.equal(forked.headers.get('location'), `/${stranger.user.username}/workshop`);
    const fork = await api(`/projects/${encodeURIComponent(`${stranger.user.username}/workshop`)}`, stranger);
    assert.equal(fork.body.forked_from_project.id, open.id);
  });

  test('a project the caller may not read is a 404', async () => {
    assert.equal((await web.stranger.get(`${secretPath}/forks/new`)).status, 404);
  });
});

describe('branches and tags', () => {
  test('a new branch from a ref, then deleted from the branches page', async () => {
    const page = await web.owner.get(`${path}/branches`);
    assert.match(page.text, /href="[^"]+\/branches\/new">New branch/);
    const created = await submit(web.owner, `${path}/branches/new`, `${path}/branches`, { branch_name: 'topic', ref: 'master' });
    assert.equal(created.status, 303);
    assert.equal(created.headers.get('location'), `${path}/tree/topic`);
    assert.equal((await api(`/projects/${open.id}/repository/branches/topic`)).status, 200);
    const branches = await web.owner.get(`${path}/branches`);
    assert.match(branches.text, /aria-label="Delete branch topic"/);
    assert.doesNotMatch(branches.text, /aria-label="Delete branch master"/);
    const removed = await web.owner.post(`${path}/branches/topic`, {
      _method: 'delete',
      authenticity_token: WebClient.csrfToken(branches.text),
    });
    assert.equal(removed.status, 303);
    assert.equal((await api(`/projects/${open.id}/repository/branches/topic`)).status, 404);
  });

  test('an existing name or an unknown ref is refused beside its field, keeping the input', async () => {
    const taken = await submit(web.owner, `${path}/branches/new`, `${path}/branches`, { branch_name: 'master', ref: 'nowhere-yet' });
    assert.equal(taken.status, 400);
    assert.match(taken.text, /id="field-branch_name-error">Branch name Branch already exists/);
    assert.match(taken.text, /value="nowhere-yet"/);
    const unknown = await submit(web.owner, `${path}/branches/new`, `${path}/branches`, { branch_name: 'fresh', ref: 'nowhere' });
    assert.match(unknown.text, /id="field-ref-error">Create from Invalid reference name/);
  });

  test('an annotated tag with its message', async () => {
    const created = await submit(web.owner, `${path}/tags/new`, `${path}/tags`, {
      tag_name: 'v1.0',
      ref: 'master',
      message: 'First release',
    });
    assert.equal(created.status, 303);
    const tag = await api(`/projects/${open.id}/repository/tags/v1.0`);
    assert.equal(tag.body.message, 'First release');
    const again = await submit(web.owner, `${path}/tags/new`, `${path}/tags`, { tag_name: 'v1.0', ref: 'master' });
    assert.match(again.text, /Tag v1.0 already exists/);
  });

  test('those who may not push get 404, anonymous visitors the sign-in', async () => {
    assert.equal((await web.stranger.get(`${path}/branches/new`)).status, 404);
    assert.equal((await web.guest.get(`${secretPath}/tags/new`)).status, 404);
    assert.equal((await web.anonymous.get(`${path}/branches/new`)).status, 303);
    const page = await web.stranger.get(`${path}/branches`);
    assert.doesNotMatch(page.text, /New branch/);
  });
});

describe('the web editor', () => {
  test('a new file on the branch lands on it, committed as the caller and processed as a push', async () => {
    const created = await submit(web.owner, `${path}/new/master/docs`, `${path}/create/master/docs`, {
      file_name: 'howto.md',
      // A browser sends a textarea's lines with CRLF: the file keeps LF.
      content: 'How to\r\nstep one\r\n',
      commit_message: 'Add a how-to',
      target_branch: 'master',
    });
    assert.equal(created.status, 303);
    assert.equal(created.headers.get('location'), `${path}/blob/master/docs/howto.md`);
    assert.equal(await fileAt(open.id, 'docs/howto.md', 'master'), 'How to\nstep one\n');
    assert.equal(await gitLog(open.id, 'master'), `${owner.user.name}|Add a how-to`);
    await eventually(async () => (await api(`/projects/${open.id}/events`)).body.some((event: any) => event.action_name === 'pushed to'), {
      message: 'the push event of the web commit',
    });
  });

  test('a new branch as target, with "start a new merge request", opens the merge request form', async () => {
    const created = await submit(web.owner, `${path}/new/master`, `${path}/create/master`, {
      file_name: 'idea.txt',
      content: 'an idea\n',
      commit_message: 'Add an idea',
      target_branch: 'idea',
      create_merge_request: '1',
    });
    assert.equal(created.status, 303);
    assert.equal(
      created.headers.get('location'),
      `${path}/merge_requests/new?merge_request%5Bsource_branch%5D=idea&merge_request%5Btarget_branch%5D=master`,
    );
    assert.equal(await fileAt(open.id, 'idea.txt', 'idea'), 'an idea\n');
    assert.equal(await fileAt(open.id, 'idea.txt', 'master'), undefined);
  });

  test('an existing file name is refused beside the field, keeping the content', async () => {
    const refused = await submit(web.owner, `${path}/new/master`, `${path}/create/master`, {
      file_name: 'README.md',
      content: 'my careful words',
      commit_message: 'Add',
      target_branch: 'master',
    });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /id="field-file_name-error">File name A file with this name already exists/);
    assert.match(refused.text, /my careful words<\/textarea>/);
  });

  test('a developer may not commit to the protected branch, but may to a new one', async () => {
    const refused = await submit(web.developer, `${path}/new/master`, `${path}/create/master`, {
      file_name: 'dev.txt',
      content: 'dev\n',
      commit_message: 'Add dev',
      target_branch: 'master',
    });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /You are not allowed to push into this branch/);
    assert.equal(await fileAt(open.id, 'dev.txt', 'master'), undefined);
    const allowed = await submit(web.developer, `${path}/new/master`, `${path}/create/master`, {
      file_name: 'dev.txt',
      content: 'dev\n',
      commit_message: 'Add dev',
      target_branch: 'dev-work',
    });
    assert.equal(allowed.status, 303);
    assert.equal(await fileAt(open.id, 'dev.txt', 'dev-work'), 'dev\n');
  });

  test('an edit is prefilled and committed; a file changed meanwhile is refused', async () => {
    const form = await web.owner.get(`${path}/edit/master/README.md`);
    assert.equal(form.status, 200);
    assert.match(form.text, />hello\n<\/textarea>/);
    const lastCommit = /name="last_commit_sha" value="([0-9a-f]{40})"/.exec(form.text)![1];
    const token = WebClient.csrfToken(form.text);
    const edit = { content: 'hello again\n', commit_message: 'Update README', target_branch: 'master', last_commit_sha: lastCommit };
    const updated = await web.owner.post(`${path}/update/master/README.md`, { ...edit, authenticity_token: token });
    assert.equal(updated.status, 303);
    assert.equal(await fileAt(open.id, 'README.md', 'master'), 'hello again\n');
    const stale = await web.owner.post(`${path}/update/master/README.md`, {
      ...edit,
      content: 'my stale edit',
      authenticity_token: token,
    });
    assert.equal(stale.status, 400);
    assert.match(stale.text, /The file has changed since you started editing it: README.md/);
    assert.match(stale.text, /my stale edit<\/textarea>/);
    assert.equal(await fileAt(open.id, 'README.md', 'master'), 'hello again\n');
  });

  test('the blob page offers Edit and Delete to those who may push, and Delete commits the removal', async () => {
    const blob = await web.owner.get(`${path}/blob/master/docs/guide.md`);
    assert.match(blob.text, /href="[^"]+\/edit\/master\/docs\/guide.md">Edit/);
    assert.doesNotMatch((await web.stranger.get(`${path}/blob/master/docs/guide.md`)).text, />Edit</);
    const removed = await web.owner.post(`${path}/blob/master/docs/guide.md`, {
      _method: 'delete',
      commit_message: 'Remove the guide',
      target_branch: 'master',
      authenticity_token: WebClient.csrfToken(blob.text),
    });
    assert.equal(removed.status, 303);
    assert.equal(removed.headers.get('location'), `${path}/tree/master/docs`);
    assert.equal(await fileAt(open.id, 'docs/guide.md', 'master'), undefined);
    assert.equal(await gitLog(open.id, 'master'), `${owner.user.name}|Remove the guide`);
  });

  test('an upload commits the file bytes as they came', async () => {
    const form = await web.owner.get(`${path}/new/master`);
    const body = new FormData();
    body.set('authenticity_token', WebClient.csrfToken(form.text));
    body.set('file', new Blob([Buffer.from([0, 1, 2, 255])]), 'bytes.bin');
    body.set('file_name', 'bytes.bin');
    body.set('upload_commit_message', 'Upload bytes');
    body.set('upload_target_branch', 'master');
    const cookie = [...web.owner.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const uploaded = await fetch(`${app.url}${path}/create/master`, { method: 'POST', body, headers: { cookie }, redirect: 'manual' });
    assert.equal(uploaded.status, 303);
    const raw = await owner.client.v4().get(`/projects/${open.id}/repository/files/bytes.bin?ref=master`);
    assert.deepEqual([...Buffer.from(raw.body.content, 'base64')], [0, 1, 2, 255]);
  });

  test('those who may not push get 404; anonymous visitors the sign-in; a write without its token is refused', async () => {
    assert.equal((await web.stranger.get(`${path}/new/master`)).status, 404);
    assert.equal((await web.guest.get(`${secretPath}/edit/master/README.md`)).status, 404);
    assert.equal((await web.anonymous.get(`${path}/edit/master/README.md`)).status, 303);
    const forged = await web.owner.post(`${path}/create/master`, {
      file_name: 'forged.txt',
      content: 'x',
      commit_message: 'x',
      target_branch: 'master',
    });
    assert.equal(forged.status, 403);
    assert.equal(await fileAt(open.id, 'forged.txt', 'master'), undefined);
  });

  test('the project page and the tree offer "New file" to those who may push', async () => {
    assert.match((await web.owner.get(path)).text, /href="[^"]+\/new\/master">New file/);
    assert.doesNotMatch((await web.stranger.get(path)).text, /New file/);
    assert.match((await web.owner.get(`${path}/tree/master/docs`)).text, /href="[^"]+\/new\/master\/docs">New file/);
    assert.match((await web.owner.get('/')).text, /href="\/projects\/new">New project/);
  });

  test('the first file of an empty repository makes its branch', async () => {
    const empty = (await owner.client.post('/projects', { name: 'blank-slate' })).body;
    const emptyPath = new URL(empty.web_url).pathname;
    const created = await submit(web.owner, `${emptyPath}/new/master`, `${emptyPath}/create/master`, {
      file_name: 'README.md',
      content: '# Start\n',
      commit_message: 'First',
      target_branch: 'master',
    });
    assert.equal(created.status, 303);
    assert.equal(await fileAt(empty.id, 'README.md', 'master'), '# Start\n');
  });
});
