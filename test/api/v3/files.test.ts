import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import type { ApiClient } from '../../support/client';
import { createProjectWorld } from '../../support/project-world';
import { eventually } from '../../support/eventually';
import { seedCommit } from '../../support/repo';
import { resolveCommit } from '../../../src/git/commits';
import { log } from '../../../src/git/log';
import { headBranch } from '../../../src/git/refs';
import { blobAtPath, listTree } from '../../../src/git/tree';
import { repoPathOf } from '../../../src/services/repository/repositories';

let app: TestApp;

interface Member {
  client: ApiClient;
  user: { id: number; name: string; email: string };
}

interface Fixture {
  id: number;
  owner: Member;
  developer: Member;
  reporter: Member;
  guest: Member;
  /** master's head; README.md and files/ruby/popen.rb exist */
  head: string;
  /** the commit that last touched files/ruby/popen.rb (one before head) */
  popenCommit: string;
}

let projects = 0;

/** A private project with a member of each role; with commits on master unless `empty`. */
async function fixture(options: { empty?: boolean } = {}): Promise<Fixture> {
  const world = await createProjectWorld(app, {
    name: `files${++projects}`,
    roles: ['developer', 'reporter', 'guest'],
    commits: options.empty
      ? []
      : [
          { files: { 'README.md': '# readme\n' } },
          { files: { 'files/ruby/popen.rb': "require 'fileutils'\nrequire 'open3'\n" } },
          { files: { 'other.txt': 'other\n' } },
        ],
  });
  const [, popenCommit = '', head = ''] = world.shas;
  const { id, owner, developer, reporter, guest } = world;
  return { id, owner, developer, reporter, guest, head, popenCommit };
}

const filesUrl = (p: Fixture) => `/projects/${p.id}/repository/files`;
const repoPath = (p: Fixture) => repoPathOf(app.ctx, p.id);
const fileAt = async (p: Fixture, path: string, ref = 'master') => {
  const commit = await resolveCommit(app.ctx.git, repoPath(p), ref);
  return commit ? (await blobAtPath(app.ctx.git, repoPath(p), commit.id, path))?.content.toString('utf8') : undefined;
};
const newFile = (overrides: Record<string, unknown> = {}) => ({
  file_path: 'newfile.rb',
  branch_name: 'master',
  content: 'puts 8',
  commit_message: 'Added newfile',
  ...overrides,
});

/** The shared fixture of tests that change nothing. */
let p: Fixture;
before(async () => {
  app = await startApp();
  p = await fixture();
});
after(() => app.close());

describe('GET /projects/:id/repository/files', () => {
  test('the file with base64 content, its blob, commit and last commit', async () => {
    const response = await p.reporter.client.get(filesUrl(p), { file_path: 'files/ruby/popen.rb', ref: 'master' });
    assert.equal(response.status, 200);
    const blob = await blobAtPath(app.ctx.git, repoPath(p), p.head, 'files/ruby/popen.rb');
    assert.deepEqual(response.body, {
      file_name: 'popen.rb',
      file_path: 'files/ruby/popen.rb',
      size: blob!.size,
      encoding: 'base64',
      content: Buffer.from("require 'fileutils'\nrequire 'open3'\n").toString('base64'),
      ref: 'master',
      blob_id: blob!.id,
      commit_id: p.head,
      last_commit_id: p.popenCommit,
    });
    assert.equal(Buffer.from(response.body.content, 'base64').toString().split('\n')[0], "require 'fileutils'");
  });

  test('ref may be a commit SHA; a leading slash in the path is ignored', async () => {
    const response = await p.reporter.client.get(filesUrl(p), { file_path: '/README.md', ref: p.popenCommit });
    assert.equal(response.status, 200);
    assert.equal(response.body.file_path, 'README.md');
    assert.equal(response.body.file_name, 'README.md');
    assert.equal(response.body.ref, p.popenCommit);
    assert.equal(response.body.commit_id, p.popenCommit);
  });

  test('file_path and ref are required', async () => {
    const none = await p.reporter.client.get(filesUrl(p));
    assert.equal(none.status, 400);
    assert.deepEqual(none.body, { message: '400 (Bad request) "file_path" not given' });
    const noRef = await p.reporter.client.get(filesUrl(p), { file_path: 'README.md' });
    assert.deepEqual(noRef.body, { message: '400 (Bad request) "ref" not given' });
  });

  test('404 File Not Found, also for a directory', async () => {
    for (const file_path of ['app/models/application.rb', 'files/ruby']) {
      const response = await p.reporter.client.get(filesUrl(p), { file_path, ref: 'master' });
      assert.equal(response.status, 404);
      assert.deepEqual(response.body, { message: '404 File Not Found' });
    }
  });

  test('404 Commit Not Found for an unknown ref', async () => {
    const response = await p.reporter.client.get(filesUrl(p), { file_path: 'README.md', ref: 'nope' });
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 Commit Not Found' });
  });

  test('a guest of a private project gets 403', async () => {
    assert.equal((await p.guest.client.get(filesUrl(p), { file_path: 'README.md', ref: 'master' })).status, 403);
  });
});

describe('POST /projects/:id/repository/files', () => {
  test('201 with {file_path, branch_name}; one commit by the caller', async () => {
    const q = await fixture();
    const response = await q.developer.client.post(filesUrl(q), newFile());
    assert.equal(response.status, 201);
    assert.deepEqual(response.body, { file_path: 'newfile.rb', branch_name: 'master' });
    assert.equal(await fileAt(q, 'newfile.rb'), 'puts 8');
    const commit = (await resolveCommit(app.ctx.git, repoPath(q), 'master'))!;
    assert.deepEqual(commit.parentIds, [q.head]);
    assert.equal(commit.message, 'Added newfile');
    assert.deepEqual([commit.author.name, commit.author.email], [q.developer.user.name, q.developer.user.email]);
    assert.deepEqual([commit.committer.name, commit.committer.email], [q.developer.user.name, q.developer.user.email]);
  });

  test('author_email and author_name set the author; the caller stays the committer', async () => {
    const q = await fixture();
    const response = await q.developer.client.form(
      'POST',
      filesUrl(q),
      newFile({ author_email: 'jane@example.com', author_name: 'Jane Doe' }),
    );
    assert.equal(response.status, 201);
    const commit = (await resolveCommit(app.ctx.git, repoPath(q), 'master'))!;
    assert.deepEqual([commit.author.name, commit.author.email], ['Jane Doe', 'jane@example.com']);
    assert.equal(commit.committer.email, q.developer.user.email);
  });

  test('encoding base64 stores the decoded bytes', async () => {
    const q = await fixture();
    const bytes = Buffer.from([0, 1, 2, 250, 255, 10, 13]);
    const response = await q.developer.client.post(
      filesUrl(q),
      newFile({ file_path: 'image.bin', content: bytes.toString('base64'), encoding: 'base64' }),
    );
    assert.equal(response.status, 201);
    const read = await q.developer.client.get(filesUrl(q), { file_path: 'image.bin', ref: 'master' });
    assert.equal(read.body.content, bytes.toString('base64'));
    assert.equal(read.body.file_name, 'image.bin');
    assert.equal(read.body.size, bytes.length);
  });

  test('a leading slash is dropped; directories are made as needed', async () => {
    const q = await fixture();
    const response = await q.developer.client.post(filesUrl(q), newFile({ file_path: '/deep/new/dir/file.txt' }));
    assert.equal(response.status, 201);
    assert.equal(response.body.file_path, 'deep/new/dir/file.txt');
    assert.equal(await fileAt(q, 'deep/new/dir/file.txt'), 'puts 8');
  });

  test('the push is processed: an event is recorded', async () => {
    const q = await fixture();
    await q.developer.client.post(filesUrl(q), newFile());
    const event = await eventually(() =>
      app.ctx.db.selectFrom('events').selectAll().where('project_id', '=', q.id).where('data', 'is not', null).executeTakeFirst(),
    );
    assert.ok(event.data?.includes(q.head), 'the push starts at the old head');
  });

  test('400 when a file with the same name already exists', async () => {
    const response = await p.developer.client.post(filesUrl(p), newFile({ file_path: 'README.md' }));
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: 'Your changes could not be committed because a file with the same name already exists' });
  });

  test('400 for a name with directory traversal or other characters', async () => {
    const traversal = await p.developer.client.post(filesUrl(p), newFile({ file_path: '../secret' }));
    assert.equal(traversal.status, 400);
    assert.deepEqual(traversal.body, {
      message: 'Your changes could not be committed, because the file name cannot include directory traversal. ',
    });
    const spaced = await p.developer.client.post(filesUrl(p), newFile({ file_path: 'new file.txt' }));
    assert.equal(spaced.status, 400);
    assert.deepEqual(spaced.body, {
      message:
        "Your changes could not be committed, because the file name can contain only letters, digits, '_', '-', '@' and '.'. Separate directories with a '/'. ",
    });
  });

  test('400 when a file stands where a directory is needed', async () => {
    const response = await p.developer.client.post(filesUrl(p), newFile({ file_path: 'README.md/inner.txt' }));
    assert.equal(response.status, 400);
    assert.match(response.body.message, /^Your changes could not be committed because /);
  });

  test('400 You can only create or edit files when you are on a branch', async () => {
    const response = await p.developer.client.post(filesUrl(p), newFile({ branch_name: 'no-such-branch' }));
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: 'You can only create or edit files when you are on a branch' });
  });

  test('required parameters, in order: file_path, branch_name, content, commit_message', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'file_path'],
      [{ file_path: 'a.txt' }, 'branch_name'],
      [{ file_path: 'a.txt', branch_name: 'master', content: '' }, 'content'],
      [{ file_path: 'a.txt', branch_name: 'master', content: 'x' }, 'commit_message'],
    ];
    for (const [body, missing] of cases) {
      const response = await p.developer.client.post(filesUrl(p), body);
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, { message: `400 (Bad request) "${missing}" not given` });
    }
  });

  test('a reporter gets 403', async () => {
    const response = await p.reporter.client.post(filesUrl(p), newFile());
    assert.equal(response.status, 403);
    assert.deepEqual(response.body, { message: '403 Forbidden' });
  });

  test('protected branches: developers only where developers may push; masters always', async () => {
    const q = await fixture();
    await app.services.protectedBranches.protect(q.id, 'master', { developersCanPush: false, developersCanMerge: false });
    const refused = await q.developer.client.post(filesUrl(q), newFile());
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body, { message: 'You are not allowed to push into this branch' });
    assert.equal((await q.owner.client.post(filesUrl(q), newFile({ file_path: 'by-master.txt' }))).status, 201);
    await app.services.protectedBranches.protect(q.id, 'mas*', { developersCanPush: true, developersCanMerge: false });
    assert.equal((await q.developer.client.post(filesUrl(q), newFile())).status, 201);
  });

  test('concurrent commits on one branch: none is lost', async () => {
    const q = await fixture();
    const names = Array.from({ length: 12 }, (_, index) => `concurrent/file-${index}.txt`);
    const responses = await Promise.all(
      names.map((name) => q.developer.client.post(filesUrl(q), newFile({ file_path: name, content: name }))),
    );
    assert.deepEqual(
      responses.map((response) => response.status),
      names.map(() => 201),
    );
    const tree = await listTree(app.ctx.git, repoPath(q), 'master', 'concurrent');
    assert.deepEqual(tree?.map((entry) => entry.path).sort(), [...names].sort());
    const history = await log(app.ctx.git, repoPath(q), { ref: 'master', limit: names.length + 1 });
    assert.equal(history[names.length].id, q.head, 'one commit per request, in a line');
  });

  test('writers outside this process racing the files API: every answered commit stays', async () => {
    const q = await fixture();
    const api = Array.from({ length: 6 }, (_, index) => `api-${index}.txt`);
    const outside = Array.from({ length: 6 }, (_, index) => `outside-${index}.txt`);
    const [responses, seeded] = await Promise.all([
      Promise.all(api.map((name) => q.developer.client.post(filesUrl(q), newFile({ file_path: name })))),
      Promise.allSettled(outside.map((name) => seedCommit(app, q.id, { files: { [name]: name } }))),
    ]);
    const written = [
      ...api.filter((_, index) => responses[index].status === 201),
      ...outside.filter((_, index) => seeded[index].status === 'fulfilled'),
    ];
    for (const response of responses) {
      if (response.status !== 201)
        assert.deepEqual(response.body, { message: 'Could not update branch master. Please refresh and try again.' });
    }
    assert.ok(responses.some((response) => response.status === 201));
    const root = (await listTree(app.ctx.git, repoPath(q), 'master'))!.map((entry) => entry.path);
    for (const name of written) assert.ok(root.includes(name), `${name} was lost`);
  });
});

describe('POST /projects/:id/repository/files to an empty repository', () => {
  test('the first commit creates the branch, which becomes the protected default branch', async () => {
    const q = await fixture({ empty: true });
    const response = await q.owner.client.post(filesUrl(q), newFile({ branch_name: 'develop', file_path: '/README.md' }));
    assert.equal(response.status, 201);
    assert.deepEqual(response.body, { file_path: 'README.md', branch_name: 'develop' });
    const commit = (await resolveCommit(app.ctx.git, repoPath(q), 'develop'))!;
    assert.deepEqual(commit.parentIds, []);
    assert.equal(await headBranch(repoPath(q)), 'develop');
    assert.equal((await q.owner.client.get(`/projects/${q.id}`)).body.default_branch, 'develop');
    const branch = await q.owner.client.get(`/projects/${q.id}/repository/branches/develop`);
    assert.deepEqual([branch.body.protected, branch.body.developers_can_push, branch.body.developers_can_merge], [true, false, false]);
  });

  test('with full default branch protection, a developer may not make the first commit', async () => {
    const q = await fixture({ empty: true });
    const response = await q.developer.client.post(filesUrl(q), newFile());
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: 'You are not allowed to push into this branch' });
  });

  test('without default branch protection, a developer makes it and it stays unprotected', async () => {
    const q = await fixture({ empty: true });
    const settings = await app.root.put('/application/settings', { default_branch_protection: 0 });
    assert.equal(settings.status, 200);
    try {
      const response = await q.developer.client.post(filesUrl(q), newFile());
      assert.equal(response.status, 201);
      const branch = await q.developer.client.get(`/projects/${q.id}/repository/branches/master`);
      assert.equal(branch.body.protected, false);
    } finally {
      await app.root.put('/application/settings', { default_branch_protection: 2 });
    }
  });
});

describe('PUT /projects/:id/repository/files', () => {
  test('200 with {file_path, branch_name}; the content is replaced', async () => {
    const q = await fixture();
    const response = await q.developer.client.put(
      filesUrl(q),
      newFile({ file_path: 'README.md', content: 'new readme', commit_message: 'Update' }),
    );
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { file_path: 'README.md', branch_name: 'master' });
    assert.equal(await fileAt(q, 'README.md'), 'new readme');
  });

  test('author_email and author_name set the author', async () => {
    const q = await fixture();
    await q.developer.client.put(
      filesUrl(q),
      newFile({ file_path: 'README.md', author_email: 'jane@example.com', author_name: 'Jane Doe' }),
    );
    const commit = (await resolveCommit(app.ctx.git, repoPath(q), 'master'))!;
    assert.deepEqual([commit.author.name, commit.author.email], ['Jane Doe', 'jane@example.com']);
  });

  test('400 when the file does not exist', async () => {
    const response = await p.developer.client.put(filesUrl(p), newFile({ file_path: 'missing.txt' }));
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: "A file with this name doesn't exist" });
  });

  test('400 when a parameter is missing', async () => {
    const response = await p.developer.client.put(filesUrl(p), { file_path: 'README.md', branch_name: 'master', content: 'x' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: '400 (Bad request) "commit_message" not given' });
  });

  test('a reporter gets 403', async () => {
    assert.equal((await p.reporter.client.put(filesUrl(p), newFile({ file_path: 'README.md' }))).status, 403);
  });
});

describe('DELETE /projects/:id/repository/files', () => {
  test('200 with {file_path, branch_name}; the file is gone', async () => {
    const q = await fixture();
    const response = await q.developer.client.delete(filesUrl(q), {
      file_path: 'README.md',
      branch_name: 'master',
      commit_message: 'Remove',
    });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { file_path: 'README.md', branch_name: 'master' });
    assert.equal(await fileAt(q, 'README.md'), undefined);
    assert.equal((await resolveCommit(app.ctx.git, repoPath(q), 'master'))!.message, 'Remove');
  });

  test('author_email and author_name set the author', async () => {
    const q = await fixture();
    await q.developer.client.delete(filesUrl(q), {
      file_path: 'README.md',
      branch_name: 'master',
      commit_message: 'Remove',
      author_email: 'jane@example.com',
      author_name: 'Jane Doe',
    });
    const commit = (await resolveCommit(app.ctx.git, repoPath(q), 'master'))!;
    assert.deepEqual([commit.author.name, commit.author.email], ['Jane Doe', 'jane@example.com']);
  });

  test('400 when the file does not exist', async () => {
    const response = await p.developer.client.delete(filesUrl(p), {
      file_path: 'missing.txt',
      branch_name: 'master',
      commit_message: 'Remove',
    });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: "A file with this name doesn't exist" });
  });

  test('400 when a parameter is missing', async () => {
    const response = await p.developer.client.delete(filesUrl(p), { file_path: 'README.md', branch_name: 'master' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: '400 (Bad request) "commit_message" not given' });
  });

  test('a reporter gets 403', async () => {
    const response = await p.reporter.client.delete(filesUrl(p), {
      file_path: 'README.md',
      branch_name: 'master',
      commit_message: 'Remove',
    });
    assert.equal(response.status, 403);
  });
});

describe('NUL bytes in what the files API hands to git', () => {
  // Every parameter but `content` refuses NUL bytes before anything runs (src/http/params.ts).
  const invalid = (field: string) => ({ message: `400 (Bad request) "${field}" is invalid` });

  test('a commit message with a NUL byte: 400 on create, update and delete; nothing is committed', async () => {
    const created = await p.developer.client.post(filesUrl(p), newFile({ file_path: 'new.txt', content: 'x', commit_message: 'a\u0000b' }));
    assert.deepEqual([created.status, created.body], [400, invalid('commit_message')]);
    const updated = await p.developer.client.put(filesUrl(p), newFile({ file_path: 'README.md', commit_message: 'a\u0000b' }));
    assert.deepEqual([updated.status, updated.body], [400, invalid('commit_message')]);
    const deleted = await p.developer.client.delete(filesUrl(p), {
      file_path: 'README.md',
      branch_name: 'master',
      commit_message: '\u0000',
    });
    assert.deepEqual([deleted.status, deleted.body], [400, invalid('commit_message')]);
    assert.equal((await resolveCommit(app.ctx.git, repoPath(p), 'master'))!.id, p.head);
  });

  test('a NUL byte in a file path, branch name, author name or e-mail is refused', async () => {
    for (const [field, response] of [
      ['file_path', await p.developer.client.post(filesUrl(p), newFile({ file_path: 'a\u0000b.txt' }))],
      ['file_path', await p.developer.client.put(filesUrl(p), newFile({ file_path: 'README.md\u0000x' }))],
      [
        'file_path',
        await p.developer.client.delete(filesUrl(p), { file_path: 'README.md\u0000', branch_name: 'master', commit_message: 'Remove' }),
      ],
      ['branch_name', await p.developer.client.post(filesUrl(p), newFile({ branch_name: 'mas\u0000ter' }))],
      ['author_name', await p.developer.client.post(filesUrl(p), newFile({ author_name: 'Ja\u0000ne' }))],
      ['author_email', await p.developer.client.post(filesUrl(p), newFile({ author_email: 'jane@exa\u0000mple.com' }))],
    ] as const) {
      assert.deepEqual([response.status, response.body], [400, invalid(field)]);
    }
    assert.equal((await resolveCommit(app.ctx.git, repoPath(p), 'master'))!.id, p.head);
  });

  test('file content may hold NUL bytes: it goes to git only', async () => {
    const q = await fixture();
    const response = await q.developer.client.post(filesUrl(q), newFile({ file_path: 'nul.bin', content: 'a\u0000b' }));
    assert.equal(response.status, 201, JSON.stringify(response.body));
    const raw = await q.developer.client.get(`/projects/${q.id}/repository/files`, { file_path: 'nul.bin', ref: 'master' });
    assert.equal(Buffer.from(raw.body.content, 'base64').toString('latin1'), 'a\u0000b');
  });
});
