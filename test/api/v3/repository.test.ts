import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApp, type TestApp } from '../../support/app';
import type { ApiClient } from '../../support/client';
import { createPeople, createProjectWorld, type ProjectWorld } from '../../support/project-world';
import { assertCodeAccess } from '../../support/access-matrix';
import { seedCommit } from '../../support/repo';
import { createTag } from '../../../src/git/write';
import { repoPathOf } from '../../../src/services/repository/repositories';

let app: TestApp;
let owner: ApiClient;
let reporter: ApiClient;
/** A private project with history on `master`, a `feature` branch, a tag and a branch of many files. */
let code: ProjectWorld<'reporter' | 'guest' | 'stranger'>;
let open: ProjectWorld<'stranger'>;
let empty: ProjectWorld<'reporter'>;
let sha: { first: string; second: string; feature: string; slashed: string; many: string };
const binary = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0xff, 0xfe, 0x00, 0x42]);
const large = Buffer.alloc(1536 * 1024, 'abcdefghij\n');

const repo = (id: number) => `/projects/${id}/repository`;

before(async () => {
  app = await startApp();
  const people = await createPeople(app, ['reporter', 'guest', 'stranger']);
  owner = people.owner.client;
  reporter = people.reporter.client;

  code = await createProjectWorld(app, {
    people,
    name: 'code',
    visibility: 0,
    roles: ['reporter', 'guest', 'stranger'],
    commits: [
      {
        files: { 'README.md': '# code\n', 'files/a.txt': 'alpha\n', 'files/bin.dat': binary, 'docs/guide.md': 'read me\n' },
        message: 'first commit\n',
        time: new Date('2016-01-01T00:00:00Z'),
        author: { name: 'Ada Lovelace', email: 'ada@example.com' },
      },
      {
        files: { 'README.md': '# code\n\nmore\n', 'files/b.txt': 'beta\n', 'files/large.txt': large },
        message: 'second commit\n',
        time: new Date('2016-02-01T00:00:00Z'),
        author: { name: 'Grace Hopper', email: 'grace@example.com' },
      },
    ],
  });
  open = await createProjectWorld(app, {
    people,
    name: 'open',
    visibility: 20,
    roles: ['stranger'],
    commits: [{ files: { 'README.md': 'open to all\n' } }],
  });
  empty = await createProjectWorld(app, { people, name: 'empty', visibility: 0, roles: ['reporter'] });

  const [first, second] = code.shas;
  const feature = await seedCommit(app, code.id, {
    branch: 'feature',
    startRef: 'master',
    files: { 'feature.txt': 'new feature\n' },
    message: 'feature\n',
    time: new Date('2016-03-01T00:00:00Z'),
  });
  const slashed = await seedCommit(app, code.id, {
    branch: 'topic/one',
    startRef: 'master',
    files: { 'topic.txt': 'topic\n' },
    message: 'topic\n',
  });
  const manyFiles = Object.fromEntries(Array.from({ length: 101 }, (_, index) => [`many/file-${index}.txt`, `${index}\n`]));
  const many = await seedCommit(app, code.id, { branch: 'many', startRef: 'master', files: manyFiles, message: 'many files\n' });
  await createTag(app.ctx.git, repoPathOf(app.ctx, code.id), 'v1.0', first);
  sha = { first, second, feature, slashed, many };
});
after(() => app.close());

/** The callers a repository read allows and refuses, against the private project and the public one. */
const assertReadPermissions = (call: (client: ApiClient, projectId: number) => Promise<{ status: number; body: any }>) =>
  assertCodeAccess({ private: code, public: open }, call);

describe('GET /projects/:id/repository/tree', () => {
  test('lists the root of the default branch: directories first, then files, with mode and object id', async () => {
    const response = await reporter.get(`${repo(code.id)}/tree`);
    assert.equal(response.status, 200);
    assert.deepEqual(
      response.body.map((entry: any) => [entry.name, entry.type, entry.mode]),
      [
        ['docs', 'tree', '040000'],
        ['files', 'tree', '040000'],
        ['README.md', 'blob', '100644'],
      ],
    );
    assert.deepEqual(Object.keys(response.body[0]).sort(), ['id', 'mode', 'name', 'type']);
    assert.match(response.body[0].id, /^[0-9a-f]{40}$/);
    assert.equal(response.headers.get('x-total'), null, 'not paginated');
  });

  test('path lists a subdirectory', async () => {
    const response = await reporter.get(`${repo(code.id)}/tree`, { path: 'files' });
    assert.deepEqual(
      response.body.map((entry: any) => entry.name),
      ['a.txt', 'b.txt', 'bin.dat', 'large.txt'],
    );
    const slashes = await reporter.get(`${repo(code.id)}/tree`, { path: '/files/' });
    assert.deepEqual(slashes.body, response.body);
  });

  test('ref_name picks a branch or a tag', async () => {
    const feature = await reporter.get(`${repo(code.id)}/tree`, { ref_name: 'feature' });
    assert.ok(feature.body.some((entry: any) => entry.name === 'feature.txt'));
    const tag = await reporter.get(`${repo(code.id)}/tree`, { ref_name: 'v1.0', path: 'files' });
    assert.deepEqual(
      tag.body.map((entry: any) => entry.name),
      ['a.txt', 'bin.dat'],
    );
  });

  test('a blank ref_name is the default branch', async () => {
    const blank = await reporter.get(`${repo(code.id)}/tree`, { ref_name: '' });
    const plain = await reporter.get(`${repo(code.id)}/tree`);
    assert.deepEqual(blank.body, plain.body);
  });

  test('an unknown ref answers 404 Tree Not Found', async () => {
    const response = await reporter.get(`${repo(code.id)}/tree`, { ref_name: 'foo' });
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 Tree Not Found' });
  });

  test('a path that is no directory there is an empty list, and .. never leaves the repository', async () => {
    for (const path of ['nowhere', 'README.md', '../..', 'files/../../']) {
      const response = await reporter.get(`${repo(code.id)}/tree`, { path });
      assert.equal(response.status, 200, path);
      assert.deepEqual(response.body, [], path);
    }
  });

  test('a ref that looks like an option never reaches git as one', async () => {
    const response = await reporter.get(`${repo(code.id)}/tree`, { ref_name: '--output=/tmp/x' });
    assert.equal(response.status, 404);
  });

  test('an empty repository has no tree: 404 Tree Not Found', async () => {
    const response = await reporter.get(`${repo(empty.id)}/tree`);
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 Tree Not Found' });
  });

  test('needs download_code: anyone signed in on public, reporters; guests of private projects 403, strangers 404, anonymous 401', async () => {
    await assertReadPermissions((client, id) => client.get(`${repo(id)}/tree`));
  });
});

for (const route of ['blobs/:sha', 'commits/:sha/blob']) {
  const url = (id: number, ref: string) => `${repo(id)}/${route.replace(':sha', encodeURIComponent(ref))}`;

  describe(`GET /projects/:id/repository/${route}`, () => {
    test('serves the raw file at a branch, inline, as UTF-8 text', async () => {
      const response = await reporter.get(url(code.id, 'master'), { filepath: 'README.md' });
      assert.equal(response.status, 200);
      assert.equal(response.text, '# code\n\nmore\n');
      assert.equal(response.headers.get('content-type'), 'text/plain; charset=utf-8');
      assert.equal(response.headers.get('content-disposition'), 'inline');
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    });

    test('reads the file as it was at a commit sha, a short sha or a tag', async () => {
      for (const ref of [sha.first, sha.first.slice(0, 8), 'v1.0']) {
        const response = await reporter.get(url(code.id, ref), { filepath: 'README.md' });
        assert.equal(response.text, '# code\n', ref);
      }
    });

    test('a branch name with a slash is sent URL-encoded', async () => {
      const response = await reporter.get(url(code.id, 'topic/one'), { filepath: 'topic.txt' });
      assert.equal(response.status, 200);
      assert.equal(response.text, 'topic\n');
    });

    test('binary files come as application/octet-stream, byte for byte', async () => {
      const response = await fetch(`${app.url}/api/v3${url(code.id, 'master')}?filepath=files/bin.dat`, {
        headers: { 'private-token': reporter.token! },
      });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'application/octet-stream');
      assert.deepEqual(Buffer.from(await response.arrayBuffer()), binary);
    });

    test('large files are served whole', async () => {
      const response = await fetch(`${app.url}/api/v3${url(code.id, 'master')}?filepath=files/large.txt`, {
        headers: { 'private-token': reporter.token! },
      });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'text/plain; charset=utf-8');
      assert.equal(response.headers.get('content-length'), String(large.length));
      assert.ok(Buffer.from(await response.arrayBuffer()).equals(large));
    });

    test('an unknown ref or sha answers 404 Commit Not Found', async () => {
      for (const ref of ['invalid_branch_name', '0000000000000000000000000000000000000000']) {
        const response = await reporter.get(url(code.id, ref), { filepath: 'README.md' });
        assert.equal(response.status, 404, ref);
        assert.deepEqual(response.body, { message: '404 Commit Not Found' });
      }
    });

    test('an unknown path, a directory or a path climbing out answers 404 File Not Found', async () => {
      for (const filepath of ['nothing.txt', 'files', '../README.md', 'files/../../README.md']) {
        const response = await reporter.get(url(code.id, 'master'), { filepath });
        assert.equal(response.status, 404, filepath);
        assert.deepEqual(response.body, { message: '404 File Not Found' });
      }
    });

    test('filepath is required: 400 "filepath" not given', async () => {
      for (const query of [undefined, { filepath: '' }]) {
        const response = await reporter.get(url(code.id, 'master'), query);
        assert.equal(response.status, 400);
        assert.deepEqual(response.body, { message: '400 (Bad request) "filepath" not given' });
      }
    });

    test('an empty repository answers 404 Commit Not Found', async () => {
      const response = await reporter.get(url(empty.id, 'master'), { filepath: 'README.md' });
      assert.equal(response.status, 404);
      assert.deepEqual(response.body, { message: '404 Commit Not Found' });
    });

    test('needs download_code', async () => {
      await assertReadPermissions((client, id) => client.get(url(id, 'master'), { filepath: 'README.md' }));
    });
  });
}

describe('GET /projects/:id/repository/raw_blobs/:sha', () => {
  const blobId = async (dir: string, name: string) =>
    (await reporter.get(`${repo(code.id)}/tree`, { path: dir })).body.find((entry: any) => entry.name === name).id as string;

  test('serves a blob by its sha (full or abbreviated)', async () => {
    const id = await blobId('files', 'a.txt');
    for (const value of [id, id.slice(0, 7)]) {
      const response = await reporter.get(`${repo(code.id)}/raw_blobs/${value}`);
      assert.equal(response.status, 200);
      assert.equal(response.text, 'alpha\n');
      assert.equal(response.headers.get('content-type'), 'text/plain; charset=utf-8');
    }
  });

  test('binary blobs are application/octet-stream', async () => {
    const response = await fetch(`${app.url}/api/v3${repo(code.id)}/raw_blobs/${await blobId('files', 'bin.dat')}`, {
      headers: { 'private-token': reporter.token! },
    });
    assert.equal(response.headers.get('content-type'), 'application/octet-stream');
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), binary);
  });

  test('an unknown sha, a commit sha or a non-sha answers 404 Blob Not Found', async () => {
    for (const value of ['123456', sha.first, 'not-a-sha', 'master']) {
      const response = await reporter.get(`${repo(code.id)}/raw_blobs/${value}`);
      assert.equal(response.status, 404, value);
      assert.deepEqual(response.body, { message: '404 Blob Not Found' });
    }
  });

  test('needs download_code', async () => {
    const readme = async (client: ApiClient, id: number) => {
      const tree = await owner.get(`${repo(id)}/tree`);
      return client.get(`${repo(id)}/raw_blobs/${tree.body.find((entry: any) => entry.name === 'README.md').id}`);
    };
    await assertReadPermissions(readme);
  });
});

describe('GET /projects/:id/repository/archive', () => {
  const download = async (urlPath: string, query = '') => {
    const response = await fetch(`${app.url}/api/v3${repo(code.id)}/${urlPath}${query}`, { headers: { 'private-token': reporter.token! } });
    return { response, body: Buffer.from(await response.arrayBuffer()) };
  };
  const listing = (body: Buffer, extension: string, lister: string[]) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-archive-'));
    const file = path.join(dir, `archive.${extension}`);
    fs.writeFileSync(file, body);
    try {
      return execFileSync(lister[0], [...lister.slice(1), file], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };

  test('streams a tar.gz of the default branch named <project>-<ref>-<sha>.tar.gz', async () => {
    const { response, body } = await download('archive');
    const name = `code-master-${sha.second}`;
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-disposition'), `attachment; filename="${name}.tar.gz"`);
    assert.equal(response.headers.get('content-type'), 'application/octet-stream');
    assert.equal(response.headers.get('content-transfer-encoding'), 'binary');
    assert.equal(response.headers.get('cache-control'), 'private');
    assert.deepEqual([...body.subarray(0, 2)], [0x1f, 0x8b]);
    const files = listing(body, 'tar.gz', ['tar', '-tzf']);
    assert.ok(files.includes(`${name}/README.md`));
    assert.ok(files.includes(`${name}/files/a.txt`));
  });

  test('archive.zip, archive.tar and archive.tar.bz2 pick the format', async () => {
    const zip = await download('archive.zip');
    assert.equal(zip.response.headers.get('content-type'), 'application/zip');
    assert.equal(zip.response.headers.get('content-disposition'), `attachment; filename="code-master-${sha.second}.zip"`);
    assert.ok(listing(zip.body, 'zip', ['unzip', '-Z1']).includes(`code-master-${sha.second}/README.md`));
    const tar = await download('archive.tar');
    assert.equal(tar.response.headers.get('content-disposition'), `attachment; filename="code-master-${sha.second}.tar"`);
    assert.ok(listing(tar.body, 'tar', ['tar', '-tf']).includes(`code-master-${sha.second}/README.md`));
    const bz2 = await download('archive.tar.bz2');
    assert.equal(bz2.response.headers.get('content-disposition'), `attachment; filename="code-master-${sha.second}.tar.bz2"`);
    assert.equal(bz2.body.subarray(0, 3).toString('latin1'), 'BZh');
    const alias = await download('archive.tgz');
    assert.equal(alias.response.headers.get('content-disposition'), `attachment; filename="code-master-${sha.second}.tar.gz"`);
  });

  test('format picks the format too', async () => {
    const zip = await download('archive', '?format=zip');
    assert.equal(zip.response.headers.get('content-disposition'), `attachment; filename="code-master-${sha.second}.zip"`);
    const bz2 = await download('archive', '?format=tbz');
    assert.equal(bz2.response.headers.get('content-disposition'), `attachment; filename="code-master-${sha.second}.tar.bz2"`);
  });

  test('sha picks the commit: a branch (slashes made dashes), a tag or a sha', async () => {
    const feature = await download('archive', '?sha=feature');
    assert.equal(feature.response.headers.get('content-disposition'), `attachment; filename="code-feature-${sha.feature}.tar.gz"`);
    const slashed = await download('archive', '?sha=topic/one');
    assert.equal(slashed.response.headers.get('content-disposition'), `attachment; filename="code-topic-one-${sha.slashed}.tar.gz"`);
    const bySha = await download('archive.zip', `?sha=${sha.first}`);
    assert.equal(bySha.response.headers.get('content-disposition'), `attachment; filename="code-${sha.first}-${sha.first}.zip"`);
    assert.ok(!listing(bySha.body, 'zip', ['unzip', '-Z1']).includes(`code-${sha.first}-${sha.first}/files/b.txt`));
  });

  test('a name that is not plain ASCII is sent in its RFC 5987 form as well', async () => {
    const commit = await seedCommit(app, code.id, { branch: 'café', startRef: 'master', files: { 'menu.txt': 'crème\n' } });
    const { response } = await download('archive', `?sha=${encodeURIComponent('café')}`);
    assert.equal(response.status, 200);
    assert.equal(
      response.headers.get('content-disposition'),
      `attachment; filename="code-caf_-${commit}.tar.gz"; filename*=UTF-8''${encodeURIComponent(`code-café-${commit}.tar.gz`)}`,
    );
  });

  test('a blank sha is the default branch', async () => {
    const { response } = await download('archive', '?sha=');
    assert.equal(response.headers.get('content-disposition'), `attachment; filename="code-master-${sha.second}.tar.gz"`);
  });

  test('an unknown sha answers 404 File Not Found', async () => {
    const response = await reporter.get(`${repo(code.id)}/archive`, { sha: 'xxx' });
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 File Not Found' });
  });

  test('an unknown extension matches no route: 404', async () => {
    const response = await reporter.get(`${repo(code.id)}/archive.exe`);
    assert.equal(response.status, 404);
  });

  test('an empty repository answers 404 File Not Found', async () => {
    const response = await reporter.get(`${repo(empty.id)}/archive`);
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 File Not Found' });
  });

  test('needs download_code', async () => {
    await assertReadPermissions(async (client, id) => {
      const response = await client.raw('GET', `${repo(id)}/archive.zip`);
      return response;
    });
  });
});

describe('GET /projects/:id/repository/compare', () => {
  test('lists the commits of to that from lacks, oldest first, the last as commit, and the diff from the merge base', async () => {
    const response = await reporter.get(`${repo(code.id)}/compare`, { from: 'master', to: 'feature' });
    assert.equal(response.status, 200);
    assert.deepEqual(
      response.body.commits.map((commit: any) => commit.id),
      [sha.feature],
    );
    assert.equal(response.body.commit.id, sha.feature);
    assert.deepEqual(Object.keys(response.body.commit).sort(), [
      'author_email',
      'author_name',
      'created_at',
      'id',
      'message',
      'short_id',
      'title',
    ]);
    assert.deepEqual(response.body.diffs, [
      {
        old_path: 'feature.txt',
        new_path: 'feature.txt',
        a_mode: '0',
        b_mode: '100644',
        diff: '--- /dev/null\n+++ b/feature.txt\n@@ -0,0 +1 @@\n+new feature\n',
        new_file: true,
        renamed_file: false,
        deleted_file: false,
      },
    ]);
    assert.equal(response.body.compare_timeout, false);
    assert.equal(response.body.compare_same_ref, false);
  });

  test('a comparison asked again answers the same JSON; a branch that moves is compared at its new head', async () => {
    const project = await createProjectWorld(app, { roles: [] as const });
    await seedCommit(app, project.id, { files: { 'a.txt': 'a\n' }, message: 'first\n' });
    const moved = await seedCommit(app, project.id, {
      branch: 'moving',
      startRef: 'master',
      files: { 'b.txt': 'b\n' },
      message: 'second\n',
    });
    const first = await project.owner.client.get(`${repo(project.id)}/compare`, { from: 'master', to: 'moving' });
    const again = await project.owner.client.get(`${repo(project.id)}/compare`, { from: 'master', to: 'moving' });
    assert.equal(again.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(again.text, first.text);
    assert.deepEqual(
      again.body.commits.map((commit: any) => commit.id),
      [moved],
    );
    const next = await seedCommit(app, project.id, { branch: 'moving', startRef: 'moving', files: { 'c.txt': 'c\n' }, message: 'third\n' });
    const after = await project.owner.client.get(`${repo(project.id)}/compare`, { from: 'master', to: 'moving' });
    assert.deepEqual(
      after.body.commits.map((commit: any) => commit.id),
      [moved, next],
    );
  });

  test('tags and shas compare too; parent to child has commits, child to parent has none', async () => {
    const forward = await reporter.get(`${repo(code.id)}/compare`, { from: 'v1.0', to: sha.second });
    assert.deepEqual(
      forward.body.commits.map((commit: any) => commit.id),
      [sha.second],
    );
    assert.ok(forward.body.diffs.length > 0);
    const backward = await reporter.get(`${repo(code.id)}/compare`, { from: sha.second, to: sha.first });
    assert.deepEqual(backward.body.commits, []);
    assert.deepEqual(backward.body.diffs, []);
    assert.equal(backward.body.commit, null);
    assert.equal(backward.body.compare_same_ref, false);
  });

  test('the same ref on both sides: nothing, compare_same_ref true', async () => {
    const response = await reporter.get(`${repo(code.id)}/compare`, { from: 'master', to: 'master' });
    assert.deepEqual(response.body, { commit: null, commits: [], diffs: [], compare_timeout: false, compare_same_ref: true });
  });

  test('unknown refs compare as nothing', async () => {
    const response = await reporter.get(`${repo(code.id)}/compare`, { from: 'nope', to: 'master' });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { commit: null, commits: [], diffs: [], compare_timeout: false, compare_same_ref: false });
  });

  test("compare_timeout: the diff went past GitLab's limits (more than 100 files)", async () => {
    const response = await reporter.get(`${repo(code.id)}/compare`, { from: 'master', to: 'many' });
    assert.equal(response.body.diffs.length, 101);
    assert.equal(response.body.compare_timeout, true);
  });

  test('from and to are required', async () => {
    const noFrom = await reporter.get(`${repo(code.id)}/compare`, { to: 'master' });
    assert.equal(noFrom.status, 400);
    assert.deepEqual(noFrom.body, { message: '400 (Bad request) "from" not given' });
    const noTo = await reporter.get(`${repo(code.id)}/compare`, { from: 'master' });
    assert.deepEqual(noTo.body, { message: '400 (Bad request) "to" not given' });
  });

  test('an empty repository compares as nothing', async () => {
    const response = await reporter.get(`${repo(empty.id)}/compare`, { from: 'master', to: 'master' });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.commits, []);
  });

  test('needs download_code', async () => {
    await assertReadPermissions((client, id) => client.get(`${repo(id)}/compare`, { from: 'master', to: 'master' }));
  });
});

describe('GET /projects/:id/repository/contributors', () => {
  test("groups the default branch's authors by e-mail, most recent first, with commit counts and no line counts", async () => {
    const response = await reporter.get(`${repo(code.id)}/contributors`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, [
      { name: 'Grace Hopper', email: 'grace@example.com', commits: 1, additions: 0, deletions: 0 },
      { name: 'Ada Lovelace', email: 'ada@example.com', commits: 1, additions: 0, deletions: 0 },
    ]);
    assert.equal(response.headers.get('x-total'), null, 'not paginated');
  });

  test('an empty repository has none', async () => {
    const response = await reporter.get(`${repo(empty.id)}/contributors`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, []);
  });

  test('needs download_code', async () => {
    await assertReadPermissions((client, id) => client.get(`${repo(id)}/contributors`));
  });
});
