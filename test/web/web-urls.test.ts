import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { seedPipeline } from '../support/ci';
import { registeredRunner, runnerRow } from '../support/ci-world';
import { sshKeyPair } from '../support/ssh';
import { WebClient, type WebResponse } from '../support/web';

/*
 * Every `web_url` and `target_url` the APIs hand out opens a page. The paths are not listed by
 * hand: every GET of the v3 and v4 OpenAPI documents whose answer may carry one is called (as
 * the administrator, over a world where each has something to show), and every URL of this site
 * found in the answers is opened: 200 for an administrator; for an anonymous visitor 200 (the
 * world is public) or a redirect to sign in.
 */

let app: TestApp;
let params: Record<string, (path: string) => Array<string | number>>;
let admin: WebClient;

const KEYS = new Set(['web_url', 'target_url']);

/** Whether a schema (or anything under it) has a `web_url` or `target_url` property. */
function carriesUrl(schema: unknown, seen = new Set<unknown>()): boolean {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return false;
  seen.add(schema);
  const properties = (schema as { properties?: Record<string, unknown> }).properties;
  if (properties && Object.keys(properties).some((key) => KEYS.has(key))) return true;
  return Object.values(schema).some((value) => carriesUrl(value, seen));
}

/** Every `web_url` and `target_url` value in an answer. */
function urlsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) urlsIn(item, found);
  else if (value && typeof value === 'object')
    for (const [key, inner] of Object.entries(value)) {
      if (KEYS.has(key) && typeof inner === 'string') found.push(inner);
      else urlsIn(inner, found);
    }
  return found;
}

/** The kind of record a path parameter belongs to: the segment before it (`issues` in `/issues/{noteable_id}`). */
const kindOf = (path: string, name: string): string => {
  const segments = path.split('/');
  return segments[segments.indexOf(`{${name}}`) - 1];
};

/** The GET paths of a document whose answers carry a URL. */
async function urlPaths(version: 'v3' | 'v4'): Promise<string[]> {
  const document = await (await fetch(`${app.url}/api/${version}/openapi.json`)).json();
  return Object.entries<Record<string, { responses?: unknown }>>(document.paths)
    .filter(([, operations]) => operations.get && carriesUrl(operations.get.responses))
    .map(([path]) => path);
}

/** Every way of filling a path's parameters, from the world's records. */
function fillings(path: string): string[] {
  let paths = [path];
  for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
    const candidates = params[name]?.(path);
    if (!candidates) throw new Error(`no value for {${name}} in ${path}`);
    paths = paths.flatMap((partial) => candidates.map((value) => partial.replace(`{${name}}`, String(value))));
  }
  return paths;
}

/** Opens a page, following this site's redirects (a job's URL is sent on to its build page). */
async function open(client: WebClient, path: string): Promise<WebResponse & { path: string }> {
  let at = path;
  for (let hops = 0; hops < 4; hops++) {
    const page = await client.get(at);
    const location = page.headers.get('location');
    if (page.status < 300 || page.status >= 400 || !location || location.startsWith('/users/sign_in')) return { ...page, path: at };
    at = location.startsWith('/') ? location : new URL(location).pathname + new URL(location).search;
  }
  throw new Error(`${path}: too many redirects`);
}

let urls: Map<string, string>;
let unanswered: string[];

before(async () => {
  app = await startApp();
  const root = app.root;
  const rootUser = (await root.get('/user')).body;
  const other = await app.createUser();
  const asker = await app.createUser();
  const group = (await root.post('/groups', { name: 'url-group', path: 'url-group', visibility_level: 20 })).body;
  const project = (await root.post('/projects', { name: 'urls', namespace_id: group.id, visibility_level: 20 })).body;
  const id = project.id;
  await root.post(`/projects/${id}/members`, { user_id: other.user.id, access_level: 30 });
  const file = (branch: string, path: string) =>
    root.post(`/projects/${id}/repository/files`, { file_path: path, branch_name: branch, content: 'text', commit_message: `add ${path}` });
  assert.equal((await file('master', 'README.md')).status, 201);
  assert.equal((await root.post(`/projects/${id}/repository/branches`, { branch_name: 'topic', ref: 'master' })).status, 200);
  assert.equal((await file('topic', 'topic.md')).status, 201);
  const sha = (await root.get(`/projects/${id}/repository/commits`)).body[0].id;
  await root.post(`/projects/${id}/repository/commits/${sha}/comments`, { note: 'a commit comment' });
  await root.post(`/projects/${id}/statuses/${sha}`, { state: 'success', target_url: 'https://ci.example.com/1' });
  const milestone = (await root.post(`/projects/${id}/milestones`, { title: 'v1' })).body;
  const issue = (
    await other.client.post(`/projects/${id}/issues`, { title: 'For root', assignee_id: rootUser.id, milestone_id: milestone.id })
  ).body;
  const mergeRequest = (
    await root.post(`/projects/${id}/merge_requests`, {
      source_branch: 'topic',
      target_branch: 'master',
      title: 'A change',
      milestone_id: milestone.id,
    })
  ).body;
  const snippet = (await root.post(`/projects/${id}/snippets`, { title: 's', file_name: 's.rb', code: 'x', visibility_level: 20 })).body;
  const note = async (kind: string, noteableId: number) =>
    (await other.client.post(`/projects/${id}/${kind}/${noteableId}/notes`, { body: `@${rootUser.username} look` })).body;
  const notes = {
    issues: await note('issues', issue.id),
    merge_requests: await note('merge_requests', mergeRequest.id),
    snippets: await note('snippets', snippet.id),
  };
  const award = async (path: string) => (await root.post(`/projects/${id}/${path}/award_emoji`, { name: 'smile' })).body;
  const awards: Record<string, { own: any; note: any }> = {};
  for (const [kind, noteable] of [
    ['issues', issue],
    ['merge_requests', mergeRequest],
    ['snippets', snippet],
  ] as const) {
    awards[kind] = { own: await award(`${kind}/${noteable.id}`), note: await award(`${kind}/${noteable.id}/notes/${notes[kind].id}`) };
  }
  const pipeline = await seedPipeline(app, id, {
    sha,
    user_id: rootUser.id,
    status: 'success',
    builds: [{ name: 'test', status: 'success', user_id: rootUser.id }],
  });
  const runner = await registeredRunner(app, { projectId: id, description: 'specific' });
  const runnerId = (await runnerRow(app, runner.token!))!.id;
  const environment = (await root.post(`/projects/${id}/environments`, { name: 'production' })).body;
  const time = new Date().toISOString();
  const deployment = await app.ctx.db
    .insertInto('deployments')
    .values({
      iid: 1,
      project_id: id,
      environment_id: environment.id,
      ref: 'master',
      tag: 0,
      sha,
      user_id: rootUser.id,
      deployable_id: pipeline.builds[0],
      created_at: time,
      updated_at: time,
    })
    .returning(['id', 'iid'])
    .executeTakeFirstOrThrow();
  const trigger = (await root.v4().post(`/projects/${id}/triggers`, { description: 'a trigger' })).body;
  const key = (await root.post('/user/keys', { title: 'mine', key: (await sshKeyPair()).publicKey })).body;
  await asker.client.post(`/projects/${id}/access_requests`);
  await asker.client.post(`/groups/${group.id}/access_requests`);

  const byKind = (values: Record<string, Array<string | number>>) => (path: string) =>
    values[kindOf(path, path.match(/\{(noteable_id|awardable_id)\}/)![1])];
  const discussions = (await root.v4().get(`/projects/${id}/merge_requests/${mergeRequest.iid}/discussions`)).body as Array<{ id: string }>;
  params = {
    id: (path) =>
      path.includes('/groups/{id}')
        ? [group.id]
        : path.includes('/users/{id}')
          ? [rootUser.id]
          : path.includes('/keys/{id}')
            ? [key.id]
            : path.includes('/runners/{id}')
              ? [runnerId]
              : [id],
    // A project's member is `other` (root owns the group, not the project); a group's and a user's, root.
    user_id: (path) => [path.startsWith('/api/v3/projects') || path.startsWith('/api/v4/projects') ? other.user.id : rootUser.id],
    query: () => ['urls'],
    sha: () => [sha],
    issue_id: () => [issue.id],
    issue_iid: () => [issue.iid],
    merge_request_id: () => [mergeRequest.id, mergeRequest.iid],
    merge_request_iid: () => [mergeRequest.iid],
    noteable_id: byKind({ issues: [issue.id, issue.iid], merge_requests: [mergeRequest.id, mergeRequest.iid], snippets: [snippet.id] }),
    awardable_id: byKind({ issues: [issue.id, issue.iid], merge_requests: [mergeRequest.id, mergeRequest.iid], snippets: [snippet.id] }),
    note_id: (path) => [notes[kindOf(path, path.includes('{noteable_id}') ? 'noteable_id' : 'awardable_id') as keyof typeof notes].id],
    award_id: (path) => {
      const kind = kindOf(path, 'awardable_id');
      return [path.includes('/notes/') ? awards[kind].note.id : awards[kind].own.id];
    },
    build_id: () => pipeline.builds,
    job_id: () => pipeline.builds,
    pipeline_id: () => [pipeline.id],
    milestone_id: () => [milestone.id],
    snippet_id: () => [snippet.id],
    environment_id: () => [environment.id],
    deployment_id: () => [deployment.id, deployment.iid],
    trigger_id: () => [trigger.id],
    discussion_id: () => discussions.map((discussion) => discussion.id),
  };

  // This site's URLs begin as a project's `web_url` does (the external URL); a status's `target_url` elsewhere is not ours.
  const origin = new URL(project.web_url).origin;
  // Each path's first filling that answers 200, and the URLs of this site its answer carries.
  urls = new Map();
  unanswered = [];
  for (const version of ['v3', 'v4'] as const) {
    for (const path of await urlPaths(version)) {
      let answered = false;
      for (const filled of fillings(path)) {
        const response = await fetch(`${app.url}${filled}`, { headers: { 'private-token': app.rootToken } });
        if (response.status !== 200) continue;
        answered = true;
        for (const url of urlsIn(await response.json())) if (url.startsWith(`${origin}/`)) urls.set(url, `${version} GET ${path}`);
        break;
      }
      if (!answered) unanswered.push(`${version} ${path}`);
    }
  }
  admin = new WebClient(app.url);
  assert.equal((await admin.signIn('root', 'rootpassword')).status, 303);
});
after(() => app?.close());

describe('web_url and target_url of the v3 and v4 APIs', () => {
  test('every GET that may carry one answered over the world', () => {
    assert.deepEqual(unanswered, []);
    // Every kind of page the APIs link to was found: a check that the world gave each something to show.
    const paths = [...urls.keys()].map((url) => new URL(url).pathname + new URL(url).hash);
    for (const kind of [
      /^\/u\/root$|^\/root$/,
      /^\/groups\/url-group$/,
      /^\/url-group\/urls$/,
      /\/issues\/\d+$/,
      /\/merge_requests\/\d+$/,
      /#note_\d+$/,
      /\/snippets\/\d+$/,
      /\/pipelines\/\d+$/,
      /\/-\/jobs\/\d+$/,
    ]) {
      assert.ok(
        paths.some((path) => kind.test(path)),
        `no URL like ${kind} in ${paths.join(' ')}`,
      );
    }
  });

  test('each opens a page for an administrator', async () => {
    const failures: string[] = [];
    for (const [url, source] of urls) {
      const path = new URL(url).pathname;
      const page = await open(admin, path);
      if (page.status !== 200) failures.push(`${path} (${source}): ${page.status}`);
    }
    assert.deepEqual(failures, []);
  });

  test('each opens for an anonymous visitor too, or sends them to sign in', async () => {
    const anonymous = new WebClient(app.url);
    const failures: string[] = [];
    for (const [url, source] of urls) {
      const path = new URL(url).pathname;
      const page = await open(anonymous, path);
      const toSignIn = page.status >= 300 && page.status < 400 && page.headers.get('location')!.startsWith('/users/sign_in');
      if (page.status !== 200 && !toSignIn) failures.push(`${path} (${source}): ${page.status}`);
    }
    assert.deepEqual(failures, []);
  });
});
