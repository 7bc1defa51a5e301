import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createProjectWorld } from '../../support/project-world';
import { seedCommit } from '../../support/repo';

let app: TestApp;
let world: Awaited<ReturnType<typeof makeWorld>>;

const makeWorld = () =>
  createProjectWorld(app, {
    roles: ['reporter', 'guest'],
    visibility: 20,
    commits: [{ files: { 'README.md': '# readme\n', 'lib/a.rb': 'a\n', 'lib/deep/b.rb': 'b\n' } }, { files: { 'lib/a.rb': 'a2\n' } }],
  });
const repo = (path: string) => `/projects/${world.id}/repository${path}`;

before(async () => {
  app = await startApp();
  world = await makeWorld();
});
after(async () => app?.close());

describe('GET /projects/:id/repository/tree', () => {
  test('lists a directory with paths, paginated', async () => {
    const response = await app.anonymous.v4().get(repo('/tree'), { path: 'lib' });
    assert.equal(response.status, 200);
    assert.deepEqual(
      response.body.map((entry: any) => [entry.type, entry.path]),
      [
        ['tree', 'lib/deep'],
        ['blob', 'lib/a.rb'],
      ],
    );
    assert.equal(response.headers.get('x-total'), '2');
    const page = await app.anonymous.v4().get(repo('/tree'), { per_page: 1, page: 2 });
    assert.deepEqual(
      page.body.map((entry: any) => entry.name),
      ['README.md'],
    );
  });

  test('recursive lists every entry below', async () => {
    const response = await app.anonymous.v4().get(repo('/tree'), { recursive: true, per_page: 100 });
    assert.deepEqual(response.body.map((entry: any) => entry.path).sort(), ['README.md', 'lib', 'lib/a.rb', 'lib/deep', 'lib/deep/b.rb']);
    const first = await app.anonymous.v4().get(repo('/tree'), { recursive: true, ref: world.shas[0], path: 'lib' });
    assert.deepEqual(first.body.map((entry: any) => entry.path).sort(), ['lib/a.rb', 'lib/deep', 'lib/deep/b.rb']);
  });

  test('an unknown ref is 404 Tree Not Found', async () => {
    assert.deepEqual((await app.anonymous.v4().get(repo('/tree'), { ref: 'nope' })).body, { message: '404 Tree Not Found' });
  });
});

describe('GET /projects/:id/repository/blobs/:sha', () => {
  test('answers the blob attributes and its raw bytes', async () => {
    const tree = await app.anonymous.v4().get(repo('/tree'));
    const readme = tree.body.find((entry: any) => entry.name === 'README.md');
    const blob = await app.anonymous.v4().get(repo(`/blobs/${readme.id}`));
    assert.equal(blob.status, 200);
    assert.deepEqual(blob.body, {
      size: 9,
      encoding: 'base64',
      content: Buffer.from('# readme\n').toString('base64'),
      sha: readme.id,
    });
    const raw = await app.anonymous.v4().get(repo(`/blobs/${readme.id}/raw`));
    assert.equal(raw.text, '# readme\n');
    assert.equal((await app.anonymous.v4().get(repo('/blobs/0123456789abcdef'))).status, 404);
  });
});

describe('GET /projects/:id/repository/archive', () => {
  test('answers a tar.gz, or the format of the extension', async () => {
    const response = await app.anonymous.v4().raw('GET', repo('/archive'));
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-disposition') ?? '', /\.tar\.gz"$/);
    const zip = await app.anonymous.v4().raw('GET', repo(`/archive.zip?sha=${world.shas[0]}`));
    assert.equal(zip.headers.get('content-type'), 'application/zip');
    assert.equal((await app.anonymous.v4().raw('GET', repo('/archive.exe'))).status, 404);
  });
});

describe('GET /projects/:id/repository/compare', () => {
  test('compares from the merge base, or straight', async () => {
    const side = await seedCommit(app, world.id, { branch: 'side', startRef: world.shas[0], files: { 'side.txt': 's\n' } });
    const merged = await app.anonymous.v4().get(repo('/compare'), { from: 'master', to: 'side' });
    assert.equal(merged.status, 200);
    assert.deepEqual(
      merged.body.commits.map((commit: any) => commit.id),
      [side],
    );
    assert.equal(merged.body.commit.id, side);
    assert.deepEqual(
      merged.body.diffs.map((diff: any) => diff.new_path),
      ['side.txt'],
    );
    const straight = await app.anonymous.v4().get(repo('/compare'), { from: 'master', to: 'side', straight: true });
    assert.deepEqual(straight.body.diffs.map((diff: any) => diff.new_path).sort(), ['lib/a.rb', 'side.txt']);
    assert.equal((await app.anonymous.v4().get(repo('/compare'), { from: 'master' })).status, 400);
  });
});

describe('GET /projects/:id/repository/contributors', () => {
  test('lists the authors with pagination headers', async () => {
    const response = await app.anonymous.v4().get(repo('/contributors'));
    assert.equal(response.status, 200);
    assert.equal(response.body[0].email, 'ada@example.com');
    assert.equal(response.body[0].commits, 2);
    assert.equal(response.headers.get('x-total'), '1');
  });
});

describe('who may read', () => {
  test('a private project is 404 to anonymous callers and 403 to its guests', async () => {
    const secret = await createProjectWorld(app, { roles: ['guest'], commits: [{ files: { 'a.txt': 'a' } }] });
    assert.equal((await app.anonymous.v4().get(`/projects/${secret.id}/repository/tree`)).status, 404);
    assert.equal((await secret.guest.client.v4().get(`/projects/${secret.id}/repository/tree`)).status, 403);
    assert.equal((await secret.owner.client.v4().get(`/projects/${secret.id}/repository/tree`)).status, 200);
  });
});
