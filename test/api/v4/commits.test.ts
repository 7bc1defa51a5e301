import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createProjectWorld } from '../../support/project-world';
import { seedCommit } from '../../support/repo';

let app: TestApp;
let world: Awaited<ReturnType<typeof makeWorld>>;

const makeWorld = () =>
  createProjectWorld(app, {
    roles: ['developer', 'reporter'],
    visibility: 20,
    commits: [
      { files: { 'README.md': '# readme\n' }, message: 'first\n' },
      { files: { 'lib/a.rb': 'a\n', 'run.sh': 'echo hi\n' }, message: 'second\n' },
      { files: { 'lib/b.rb': 'b\n' }, message: 'third\n' },
    ],
  });

const base = () => `/projects/${world.id}/repository/commits`;
const fileAt = async (path: string, ref = 'master') =>
  app.root.v4().get(`/projects/${world.id}/repository/files/${encodeURIComponent(path)}/raw`, { ref });

before(async () => {
  app = await startApp();
  world = await makeWorld();
});
after(async () => app?.close());

describe('GET /projects/:id/repository/commits', () => {
  test('pages from 1 with X-Total and a Link to the next page', async () => {
    const first = await app.anonymous.v4().get(base(), { per_page: 2 });
    assert.equal(first.status, 200);
    assert.deepEqual(
      first.body.map((commit: any) => commit.id),
      [world.shas[2], world.shas[1]],
    );
    assert.equal(first.headers.get('x-total'), '3');
    assert.equal(first.headers.get('x-page'), '1');
    assert.equal(first.headers.get('x-next-page'), '2');
    assert.match(first.headers.get('link') ?? '', /page=2&per_page=2>; rel="next"/);
    const second = await app.anonymous.v4().get(base(), { per_page: 2, page: 2 });
    assert.deepEqual(
      second.body.map((commit: any) => commit.id),
      [world.shas[0]],
    );
  });

  test('shows v4 commit fields', async () => {
    const [commit] = (await app.anonymous.v4().get(base(), { per_page: 1 })).body;
    assert.deepEqual(Object.keys(commit), [
      'id',
      'short_id',
      'created_at',
      'parent_ids',
      'title',
      'message',
      'author_name',
      'author_email',
      'authored_date',
      'committer_name',
      'committer_email',
      'committed_date',
    ]);
    assert.deepEqual(commit.parent_ids, [world.shas[1]]);
    assert.equal(commit.title, 'third');
  });

  test('filters by path and lists every branch with all', async () => {
    const byPath = await app.anonymous.v4().get(base(), { path: 'lib/b.rb' });
    assert.deepEqual(
      byPath.body.map((commit: any) => commit.id),
      [world.shas[2]],
    );
    const side = await seedCommit(app, world.id, { branch: 'side', startRef: world.shas[0], files: { 'side.txt': 's' } });
    const master = await app.anonymous.v4().get(base());
    assert.ok(!master.body.some((commit: any) => commit.id === side));
    const all = await app.anonymous.v4().get(base(), { all: true });
    assert.ok(all.body.some((commit: any) => commit.id === side));
    assert.equal(all.headers.get('x-total'), '4');
  });

  test('an invalid since is 400', async () => {
    assert.equal((await app.anonymous.v4().get(base(), { since: 'yesterday' })).status, 400);
  });
});

describe('GET /projects/:id/repository/commits/:sha and its diff, refs, comments, statuses', () => {
  test('one commit with stats, status and project_id', async () => {
    const response = await app.anonymous.v4().get(`${base()}/${world.shas[1]}`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.stats, { additions: 2, deletions: 0, total: 2 });
    assert.equal(response.body.project_id, world.id);
    assert.equal(response.body.last_pipeline, null);
    assert.equal((await app.anonymous.v4().get(`${base()}/nope`)).status, 404);
  });

  test('the diff, paginated', async () => {
    const response = await app.anonymous.v4().get(`${base()}/${world.shas[1]}/diff`, { per_page: 1 });
    assert.equal(response.status, 200);
    assert.equal(response.body.length, 1);
    assert.equal(response.headers.get('x-total'), '2');
    assert.equal(response.body[0].new_path, 'lib/a.rb');
  });

  test('the branches and tags holding it', async () => {
    await app.root.v4().post(`/projects/${world.id}/repository/tags`, { tag_name: 'v1', ref: world.shas[1] });
    const response = await app.anonymous.v4().get(`${base()}/${world.shas[0]}/refs`);
    assert.ok(response.body.some((ref: any) => ref.type === 'branch' && ref.name === 'master'));
    assert.ok(response.body.some((ref: any) => ref.type === 'tag' && ref.name === 'v1'));
    const tags = await app.anonymous.v4().get(`${base()}/${world.shas[0]}/refs`, { type: 'tag' });
    assert.deepEqual(tags.body, [{ type: 'tag', name: 'v1' }]);
  });

  test('comments: posted by a reader, listed with their author as UserBasic', async () => {
    const posted = await world.reporter.client.v4().post(`${base()}/${world.shas[2]}/comments`, { note: 'nice' });
    assert.equal(posted.status, 201);
    assert.equal(posted.body.author.username, world.reporter.user.username);
    assert.match(posted.body.author.web_url, new RegExp(`/${world.reporter.user.username}$`));
    const list = await app.anonymous.v4().get(`${base()}/${world.shas[2]}/comments`);
    assert.deepEqual(
      list.body.map((note: any) => note.note),
      ['nice'],
    );
    assert.equal(list.headers.get('x-total'), '1');
    assert.equal((await app.anonymous.v4().post(`${base()}/${world.shas[2]}/comments`, { note: 'x' })).status, 401);
  });

  test('statuses: posted by a developer, listed', async () => {
    const posted = await world.developer.client
      .v4()
      .post(`/projects/${world.id}/statuses/${world.shas[2]}`, { state: 'success', name: 'ci' });
    assert.equal(posted.status, 201);
    assert.equal(posted.body.status, 'success');
    const list = await app.anonymous.v4().get(`${base()}/${world.shas[2]}/statuses`);
    assert.deepEqual(
      list.body.map((status: any) => status.name),
      ['ci'],
    );
  });
});

describe('POST /projects/:id/repository/commits', () => {
  test('applies every action in one commit', async () => {
    const response = await world.developer.client.v4().post(base(), {
      branch: 'master',
      commit_message: 'many actions',
      author_name: 'Someone Else',
      author_email: 'else@example.com',
      actions: [
        { action: 'create', file_path: 'new/one.txt', content: 'one' },
        { action: 'update', file_path: 'README.md', content: Buffer.from('# new\n').toString('base64'), encoding: 'base64' },
        { action: 'move', file_path: 'lib/moved.rb', previous_path: 'lib/a.rb' },
        { action: 'delete', file_path: 'lib/b.rb' },
        { action: 'chmod', file_path: 'run.sh', execute_filemode: true },
      ],
    });
    assert.equal(response.status, 201, JSON.stringify(response.body));
    assert.equal(response.body.title, 'many actions');
    assert.equal(response.body.author_name, 'Someone Else');
    assert.equal(response.body.committer_name, world.developer.user.name);
    assert.equal((await fileAt('new/one.txt')).text, 'one');
    assert.equal((await fileAt('README.md')).text, '# new\n');
    assert.equal((await fileAt('lib/moved.rb')).text, 'a\n');
    assert.equal((await fileAt('lib/a.rb')).status, 404);
    assert.equal((await fileAt('lib/b.rb')).status, 404);
    const tree = await app.root.v4().get(`/projects/${world.id}/repository/tree`);
    assert.equal(tree.body.find((entry: any) => entry.name === 'run.sh').mode, '100755');
    const diff = await app.root.v4().get(`${base()}/${response.body.id}/diff`);
    assert.equal(diff.headers.get('x-total'), '5');
  });

  test('a failing action changes nothing', async () => {
    const before = (await app.root.v4().get(`/projects/${world.id}/repository/branches/master`)).body.commit.id;
    const response = await world.developer.client.v4().post(base(), {
      branch: 'master',
      commit_message: 'half',
      actions: [
        { action: 'create', file_path: 'half.txt', content: 'x' },
        { action: 'create', file_path: 'README.md', content: 'x' },
      ],
    });
    assert.deepEqual([response.status, response.body], [400, { message: 'A file with this name already exists' }]);
    const missing = await world.developer.client.v4().post(base(), {
      branch: 'master',
      commit_message: 'half',
      actions: [
        { action: 'create', file_path: 'half.txt', content: 'x' },
        { action: 'update', file_path: 'nope.txt', content: 'x' },
      ],
    });
    assert.deepEqual([missing.status, missing.body], [400, { message: "A file with this name doesn't exist" }]);
    assert.equal((await app.root.v4().get(`/projects/${world.id}/repository/branches/master`)).body.commit.id, before);
    assert.equal((await fileAt('half.txt')).status, 404);
  });

  test('a new branch from start_branch; an unknown start_branch is 400', async () => {
    const client = world.developer.client.v4();
    const response = await client.post(base(), {
      branch: 'topic',
      start_branch: 'master',
      commit_message: 'on topic',
      actions: [{ action: 'create', file_path: 'topic.txt', content: 't' }],
    });
    assert.equal(response.status, 201);
    assert.equal((await fileAt('topic.txt', 'topic')).text, 't');
    assert.equal((await fileAt('topic.txt')).status, 404);
    const unknown = await client.post(base(), {
      branch: 'other',
      start_branch: 'nope',
      commit_message: 'x',
      actions: [{ action: 'create', file_path: 'x.txt', content: 'x' }],
    });
    assert.equal(unknown.status, 400);
  });

  test('bad input is 400: no actions, an unknown action, a move without previous_path', async () => {
    const client = world.developer.client.v4();
    const post = (actions: unknown) => client.post(base(), { branch: 'master', commit_message: 'x', actions });
    assert.equal((await post([])).status, 400);
    assert.equal((await post([{ action: 'explode', file_path: 'x' }])).status, 400);
    const move = await post([{ action: 'move', file_path: 'y' }]);
    assert.deepEqual([move.status, move.body], [400, { message: 'actions[0][previous_path] is missing' }]);
  });

  test('a reporter is 403, anonymous 401', async () => {
    const body = { branch: 'master', commit_message: 'x', actions: [{ action: 'create', file_path: 'r.txt', content: 'x' }] };
    assert.equal((await world.reporter.client.v4().post(base(), body)).status, 403);
    assert.equal((await app.anonymous.v4().post(base(), body)).status, 401);
  });
});
