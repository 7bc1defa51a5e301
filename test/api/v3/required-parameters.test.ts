import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createProjectWorld, type ProjectWorld } from '../../support/project-world';
import type { ApiClient } from '../../support/client';
import type { SeedCommit } from '../../support/repo';

/*
 * A missing required parameter answers as GitLab 8.12 answered on that route. 8.12 had two forms:
 * its own `required_attributes!` (`{"message":"400 (Bad request) \"x\" not given"}`, the first
 * missing one in the order it listed them, a blank value counting as not given) and Grape's
 * `requires` (`{"error":"x is missing"}`, where a blank value is given and left to the record).
 * Each row names the 8.12 file (`lib/api/*.rb`) it was read from.
 *
 * Grape-declared parameters of builds.rb, deploy_keys.rb, deployments.rb, merge_request_diffs.rb
 * and pipelines.rb are all path parameters (`build_id`, `key_id` …): a route without them is no
 * route, so they have no row here. Routes whose parameters 8.12 did not require have none either
 * (access_requests.rb's approve, templates.rb).
 */

let app: TestApp;
let world: ProjectWorld<'developer' | 'guest' | 'stranger'>;
let fixtures: { issue: number; mergeRequest: number; snippet: number; note: number; hook: number; user: number; group: number };

const COMMITS: SeedCommit[] = [
  { files: { 'README.md': 'hello\n' }, message: 'initial\n' },
  { branch: 'feature', startRef: 'master', files: { 'a.txt': 'a\n' }, message: 'add a\n' },
];

async function created(response: Promise<{ status: number; body: any }>): Promise<any> {
  const answer = await response;
  assert.ok(answer.status === 201 || answer.status === 200, JSON.stringify(answer.body));
  return answer.body;
}

before(async () => {
  app = await startApp();
  world = await createProjectWorld(app, { roles: ['developer', 'guest', 'stranger'], commits: COMMITS });
  const owner = world.owner.client;
  const project = `/projects/${world.id}`;
  const issue = await created(owner.post(`${project}/issues`, { title: 'An issue' }));
  const mergeRequest = await created(
    owner.post(`${project}/merge_requests`, { source_branch: 'feature', target_branch: 'master', title: 'A change' }),
  );
  const snippet = await created(
    owner.post(`${project}/snippets`, { title: 'A snippet', file_name: 'a.rb', code: 'puts 1', visibility_level: 0 }),
  );
  const note = await created(owner.post(`${project}/issues/${issue.id}/notes`, { body: 'a note' }));
  const hook = await created(owner.post(`${project}/hooks`, { url: 'http://hooks.example.com/' }));
  await created(owner.post(`${project}/repository/tags`, { tag_name: 'v1', ref: 'master' }));
  const group = await created(app.root.post('/groups', { name: 'required-group', path: 'required-group' }));
  fixtures = {
    issue: issue.id,
    mergeRequest: mergeRequest.id,
    snippet: snippet.id,
    note: note.id,
    hook: hook.id,
    user: world.developer.user.id,
    group: group.id,
  };
});
after(() => app.close());

const notGiven = (attribute: string) => ({ message: `400 (Bad request) "${attribute}" not given` });
const grapeMissing = (attribute: string) => ({ error: `${attribute} is missing` });

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
interface Row {
  /** The 8.12 file the answer was read from. */
  source: string;
  method: Method;
  path: () => string;
  /** What is sent: the other required parameters, or a blank one. */
  params: Record<string, unknown>;
  status?: number;
  body: unknown;
  /** Who calls (default: the project's owner; `root` for the administrator's routes). */
  as?: () => ApiClient;
}

const P = () => `/projects/${world.id}`;
const sha = () => world.shas[0];
const root = () => app.root;

/** `required_attributes! [a, b, …]`: each missing in turn (the ones before it given), then a blank first one. */
function requiredAttributes(
  source: string,
  method: Method,
  path: () => string,
  attributes: string[],
  values: Record<string, unknown>,
  as?: () => ApiClient,
): Row[] {
  const rows: Row[] = attributes.map((attribute, index) => ({
    source,
    method,
    path,
    params: Object.fromEntries(attributes.slice(0, index).map((given) => [given, values[given]])),
    body: notGiven(attribute),
    as,
  }));
  rows.push({ source, method, path, params: { ...values, [attributes[0]]: '  ' }, body: notGiven(attributes[0]), as });
  return rows;
}

const ROWS: Row[] = [
  // notes.rb
  ...requiredAttributes('notes.rb', 'POST', () => `${P()}/issues/${fixtures.issue}/notes`, ['body'], { body: 'x' }),
  ...requiredAttributes('notes.rb', 'POST', () => `${P()}/merge_requests/${fixtures.mergeRequest}/notes`, ['body'], { body: 'x' }),
  ...requiredAttributes('notes.rb', 'POST', () => `${P()}/snippets/${fixtures.snippet}/notes`, ['body'], { body: 'x' }),
  ...requiredAttributes('notes.rb', 'PUT', () => `${P()}/issues/${fixtures.issue}/notes/${fixtures.note}`, ['body'], { body: 'x' }),
  // award_emoji.rb
  ...requiredAttributes('award_emoji.rb', 'POST', () => `${P()}/issues/${fixtures.issue}/award_emoji`, ['name'], { name: 'tada' }),
  ...requiredAttributes('award_emoji.rb', 'POST', () => `${P()}/issues/${fixtures.issue}/notes/${fixtures.note}/award_emoji`, ['name'], {
    name: 'tada',
  }),
  ...requiredAttributes('award_emoji.rb', 'POST', () => `${P()}/merge_requests/${fixtures.mergeRequest}/award_emoji`, ['name'], {
    name: 'tada',
  }),
  ...requiredAttributes('award_emoji.rb', 'POST', () => `${P()}/snippets/${fixtures.snippet}/award_emoji`, ['name'], { name: 'tada' }),
  // commit_statuses.rb: before the commit is looked up.
  ...requiredAttributes('commit_statuses.rb', 'POST', () => `${P()}/statuses/${sha()}`, ['state'], { state: 'pending' }),
  {
    source: 'commit_statuses.rb',
    method: 'POST',
    path: () => `${P()}/statuses/0000000000000000000000000000000000000000`,
    params: {},
    body: notGiven('state'),
  },
  // commits.rb
  ...requiredAttributes('commits.rb', 'POST', () => `${P()}/repository/commits/${sha()}/comments`, ['note'], { note: 'x' }),
  // files.rb
  ...requiredAttributes('files.rb', 'POST', () => `${P()}/repository/files`, ['file_path', 'branch_name', 'content', 'commit_message'], {
    file_path: 'b.txt',
    branch_name: 'master',
    content: 'b',
    commit_message: 'add b',
  }),
  ...requiredAttributes('files.rb', 'PUT', () => `${P()}/repository/files`, ['file_path', 'branch_name', 'content', 'commit_message'], {
    file_path: 'README.md',
    branch_name: 'master',
    content: 'b',
    commit_message: 'change',
  }),
  ...requiredAttributes('files.rb', 'DELETE', () => `${P()}/repository/files`, ['file_path', 'branch_name', 'commit_message'], {
    file_path: 'README.md',
    branch_name: 'master',
    commit_message: 'remove',
  }),
  ...requiredAttributes('files.rb', 'GET', () => `${P()}/repository/files`, ['file_path', 'ref'], {
    file_path: 'README.md',
    ref: 'master',
  }),
  // groups.rb
  ...requiredAttributes('groups.rb', 'POST', () => '/groups', ['name', 'path'], { name: 'g', path: 'g' }),
  // issues.rb
  ...requiredAttributes('issues.rb', 'POST', () => `${P()}/issues`, ['title'], { title: 'x' }),
  ...requiredAttributes('issues.rb', 'POST', () => `${P()}/issues/${fixtures.issue}/move`, ['to_project_id'], { to_project_id: 1 }),
  // labels.rb
  ...requiredAttributes('labels.rb', 'POST', () => `${P()}/labels`, ['name', 'color'], { name: 'bug', color: '#ff0000' }),
  ...requiredAttributes('labels.rb', 'PUT', () => `${P()}/labels`, ['name'], { name: 'bug', color: '#00ff00' }),
  ...requiredAttributes('labels.rb', 'DELETE', () => `${P()}/labels`, ['name'], { name: 'bug' }),
  // members.rb
  ...requiredAttributes('members.rb', 'POST', () => `${P()}/members`, ['user_id', 'access_level'], { user_id: 1, access_level: 30 }),
  ...requiredAttributes('members.rb', 'PUT', () => `${P()}/members/${fixtures.user}`, ['access_level'], { access_level: 30 }),
  ...requiredAttributes(
    'members.rb',
    'POST',
    () => `/groups/${fixtures.group}/members`,
    ['user_id', 'access_level'],
    { user_id: 1, access_level: 30 },
    root,
  ),
  ...requiredAttributes(
    'members.rb',
    'PUT',
    () => `/groups/${fixtures.group}/members/${fixtures.user}`,
    ['access_level'],
    { access_level: 30 },
    root,
  ),
  // merge_requests.rb
  ...requiredAttributes('merge_requests.rb', 'POST', () => `${P()}/merge_requests`, ['source_branch', 'target_branch', 'title'], {
    source_branch: 'feature',
    target_branch: 'master',
    title: 'x',
  }),
  ...requiredAttributes('merge_requests.rb', 'POST', () => `${P()}/merge_requests/${fixtures.mergeRequest}/comments`, ['note'], {
    note: 'x',
  }),
  ...requiredAttributes('merge_requests.rb', 'POST', () => `${P()}/merge_request/${fixtures.mergeRequest}/comments`, ['note'], {
    note: 'x',
  }),
  // milestones.rb
  ...requiredAttributes('milestones.rb', 'POST', () => `${P()}/milestones`, ['title'], { title: 'v1' }),
  // project_hooks.rb
  ...requiredAttributes('project_hooks.rb', 'POST', () => `${P()}/hooks`, ['url'], { url: 'http://a.example.com/' }),
  ...requiredAttributes('project_hooks.rb', 'PUT', () => `${P()}/hooks/${fixtures.hook}`, ['url'], { url: 'http://a.example.com/' }),
  // project_snippets.rb
  ...requiredAttributes('project_snippets.rb', 'POST', () => `${P()}/snippets`, ['title', 'file_name', 'code', 'visibility_level'], {
    title: 't',
    file_name: 'a.rb',
    code: 'x',
    visibility_level: 0,
  }),
  // projects.rb
  ...requiredAttributes('projects.rb', 'POST', () => '/projects', ['name'], { name: 'p' }),
  ...requiredAttributes('projects.rb', 'POST', () => `${P()}/share`, ['group_id', 'group_access'], { group_id: 1, group_access: 30 }),
  // repositories.rb
  ...requiredAttributes('repositories.rb', 'GET', () => `${P()}/repository/blobs/master`, ['filepath'], { filepath: 'README.md' }),
  ...requiredAttributes('repositories.rb', 'GET', () => `${P()}/repository/commits/master/blob`, ['filepath'], { filepath: 'README.md' }),
  ...requiredAttributes('repositories.rb', 'GET', () => `${P()}/repository/compare`, ['from', 'to'], { from: 'master', to: 'feature' }),
  // runners.rb
  ...requiredAttributes('runners.rb', 'POST', () => `${P()}/runners`, ['runner_id'], { runner_id: 1 }),
  // system_hooks.rb
  ...requiredAttributes('system_hooks.rb', 'POST', () => '/hooks', ['url'], { url: 'http://a.example.com/' }, root),
  // tags.rb
  ...requiredAttributes('tags.rb', 'POST', () => `${P()}/repository/tags/v1/release`, ['description'], { description: 'x' }),
  ...requiredAttributes('tags.rb', 'PUT', () => `${P()}/repository/tags/v1/release`, ['description'], { description: 'x' }),
  // triggers.rb: checked before the project and the token.
  ...requiredAttributes('triggers.rb', 'POST', () => `${P()}/trigger/builds`, ['ref', 'token'], { ref: 'master', token: 'x' }),
  // users.rb: /users/:id/keys and emails are checked before the user is looked up.
  ...requiredAttributes(
    'users.rb',
    'POST',
    () => '/users',
    ['email', 'password', 'name', 'username'],
    { email: 'a@example.com', password: 'secret123', name: 'A', username: 'a' },
    root,
  ),
  ...requiredAttributes(
    'users.rb',
    'POST',
    () => `/users/${fixtures.user}/keys`,
    ['title', 'key'],
    { title: 't', key: 'ssh-rsa AAAA' },
    root,
  ),
  ...requiredAttributes('users.rb', 'POST', () => '/users/999999/keys', ['title', 'key'], { title: 't', key: 'ssh-rsa AAAA' }, root),
  ...requiredAttributes('users.rb', 'POST', () => '/user/keys', ['title', 'key'], { title: 't', key: 'ssh-rsa AAAA' }),
  ...requiredAttributes('users.rb', 'POST', () => `/users/${fixtures.user}/emails`, ['email'], { email: 'b@example.com' }, root),
  ...requiredAttributes('users.rb', 'POST', () => '/user/emails', ['email'], { email: 'b@example.com' }),
  // variables.rb
  ...requiredAttributes('variables.rb', 'POST', () => `${P()}/variables`, ['key', 'value'], { key: 'K', value: 'v' }),

  // Grape's `requires`: missing is Grape's answer; blank is given, and the record's to refuse.
  {
    source: 'broadcast_messages.rb',
    method: 'POST',
    path: () => '/broadcast_messages',
    params: { color: '#fff' },
    body: grapeMissing('message'),
    as: root,
  },
  {
    source: 'broadcast_messages.rb',
    method: 'POST',
    path: () => '/broadcast_messages',
    params: { message: '  ' },
    body: { message: { message: ["can't be blank"] } },
    as: root,
  },
  {
    source: 'environments.rb',
    method: 'POST',
    path: () => `${P()}/environments`,
    params: { external_url: 'https://a.example.com' },
    body: grapeMissing('name'),
  },
  {
    source: 'environments.rb',
    method: 'POST',
    path: () => `${P()}/environments`,
    params: { name: '' },
    body: { message: { name: ["can't be blank", "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.' and spaces"] } },
  },
  { source: 'lint.rb', method: 'POST', path: () => '/api/v3/ci/lint', params: {}, body: grapeMissing('content') },
  {
    source: 'lint.rb',
    method: 'POST',
    path: () => '/api/v3/ci/lint',
    params: { content: '' },
    status: 200,
    body: { status: 'invalid', errors: ['Please provide content of .gitlab-ci.yml'] },
  },
];

/** The row's path as a route (`/projects/:id/issues/:issue/notes`), for the test's name. */
function routeOf(row: Row): string {
  return row.path
    .toString()
    .replace(/^\(\)\s*=>\s*/, '')
    .replace(/[`'"]/g, '')
    .replace('${P()}', '/projects/:id')
    .replace('${sha()}', ':sha')
    .replace(/\$\{fixtures\.(\w+)\}/g, ':$1');
}

function call(client: ApiClient, method: Method, path: string, params: Record<string, unknown>) {
  if (method === 'GET') return client.get(path, params);
  if (method === 'DELETE') return client.delete(path, params);
  return method === 'POST' ? client.post(path, params) : client.put(path, params);
}

describe('a missing required parameter, as 8.12 answered it', () => {
  for (const row of ROWS) {
    test(`${row.source}: ${row.method} ${routeOf(row)} with ${JSON.stringify(row.params)}`, async () => {
      const client = row.as?.() ?? world.owner.client;
      const response = await call(client, row.method, row.path(), row.params);
      assert.deepEqual([response.status, response.body], [row.status ?? 400, row.body]);
    });
  }
});

describe('the order of answers: 401, 404, 403, then 400', () => {
  test('anonymous callers are 401 before any parameter is read', async () => {
    const response = await app.anonymous.post(`${P()}/issues/${fixtures.issue}/notes`, {});
    assert.deepEqual([response.status, response.body], [401, { message: '401 Unauthorized' }]);
  });

  test('a project the caller may not see is 404 before its parameters', async () => {
    for (const path of [
      `${P()}/issues/${fixtures.issue}/notes`,
      `${P()}/labels`,
      `${P()}/issues/${fixtures.issue}/award_emoji`,
      `${P()}/environments`,
    ]) {
      const response = await world.stranger.client.post(path, {});
      assert.deepEqual([response.status, response.body], [404, { message: '404 Project Not Found' }], path);
    }
  });

  test('a caller who may see but not act is 403 before the parameters', async () => {
    for (const [client, path] of [
      [world.guest.client, `${P()}/labels`],
      [world.guest.client, `${P()}/merge_requests`],
      [world.developer.client, `${P()}/members`],
      [world.guest.client, `${P()}/environments`],
      [world.developer.client, `${P()}/hooks`],
    ] as const) {
      const response = await client.post(path, {});
      assert.deepEqual([response.status, response.body], [403, { message: '403 Forbidden' }], path);
    }
  });
});
