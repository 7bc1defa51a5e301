import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import type { ApiClient } from '../../support/client';
import { createPeople, createProjectWorld, type ProjectWorld } from '../../support/project-world';
import { assertCodeAccess } from '../../support/access-matrix';
import { HookListener } from '../../support/hook-listener';
import { seedCommit } from '../../support/repo';
import { createTag } from '../../../src/git/write';
import { repoPathOf } from '../../../src/services/repository/repositories';

let app: TestApp;
let owner: ApiClient;
let reporter: ApiClient;
let guest: ApiClient;
let stranger: ApiClient;
let reporterUser: any;
let code: ProjectWorld<'reporter' | 'guest' | 'stranger'>;
let open: ProjectWorld<'stranger'>;
let empty: ProjectWorld<'reporter'>;
let sha: { first: string; second: string; third: string; feature: string; openHead: string };

const commits = (id: number) => `/projects/${id}/repository/commits`;

before(async () => {
  app = await startApp();
  const people = await createPeople(app, ['reporter', 'guest', 'stranger'], {
    owner: { username: 'commits-owner' },
    reporter: { username: 'commits-reporter', name: 'Rita Reporter' },
  });
  owner = people.owner.client;
  reporterUser = people.reporter.user;
  reporter = people.reporter.client;
  guest = people.guest.client;
  stranger = people.stranger.client;

  code = await createProjectWorld(app, {
    people,
    name: 'code',
    visibility: 0,
    roles: ['reporter', 'guest', 'stranger'],
    commits: [
      {
        files: { 'README.md': 'one\ntwo\nthree\n', 'lib/a.rb': 'puts 1\n' },
        message: 'first commit\n\nwith a body\n',
        time: new Date('2016-01-01T10:00:00Z'),
        author: { name: 'Ada Lovelace', email: 'ada@example.com' },
      },
      {
        files: { 'README.md': 'one\n2\nthree\nfour\n', 'lib/b.rb': 'puts 2\n' },
        message: 'second commit\n',
        time: new Date('2016-02-01T10:00:00Z'),
        author: { name: 'Grace Hopper', email: 'grace@example.com' },
      },
      {
        deletes: ['lib/a.rb'],
        message: 'third commit\n',
        time: new Date('2016-03-01T10:00:00Z'),
        author: { name: 'Ada Lovelace', email: 'ada@example.com' },
      },
    ],
  });
  open = await createProjectWorld(app, {
    people,
    name: 'open',
    visibility: 20,
    roles: ['stranger'],
    commits: [{ files: { 'README.md': 'open\n' }, message: 'open\n' }],
  });
  empty = await createProjectWorld(app, { people, name: 'empty', visibility: 0, roles: ['reporter'] });

  const [first, second, third] = code.shas;
  const feature = await seedCommit(app, code.id, {
    branch: 'feature',
    startRef: first,
    files: { 'feature.txt': 'f\n' },
    message: 'feature\n',
    time: new Date('2016-01-15T10:00:00Z'),
  });
  await createTag(app.ctx.git, repoPathOf(app.ctx, code.id), 'v1.0', first);
  sha = { first, second, third, feature, openHead: open.shas[0] };
});
after(() => app.close());

/** A read of the code: reporters and up of the private project, anyone signed in on the public one. */
const assertReadPermissions = (call: (client: ApiClient, projectId: number) => Promise<{ status: number; body: any }>) =>
  assertCodeAccess({ private: code, public: open }, call);

describe('GET /projects/:id/repository/commits', () => {
  test('lists the default branch newest first as commit summaries with allow_failure', async () => {
    const response = await reporter.get(commits(code.id));
    assert.equal(response.status, 200);
    assert.deepEqual(
      response.body.map((commit: any) => commit.id),
      [sha.third, sha.second, sha.first],
    );
    assert.deepEqual(response.body[2], {
      id: sha.first,
      short_id: sha.first.slice(0, 8),
      title: 'first commit',
      author_name: 'Ada Lovelace',
      author_email: 'ada@example.com',
      created_at: '2016-01-01T10:00:00.000+00:00',
      message: 'first commit\n\nwith a body\n',
      allow_failure: false,
    });
  });

  test('ref_name picks a branch, a tag or a sha; an unknown ref has no commits', async () => {
    const feature = await reporter.get(commits(code.id), { ref_name: 'feature' });
    assert.deepEqual(
      feature.body.map((commit: any) => commit.id),
      [sha.feature, sha.first],
    );
    const tag = await reporter.get(commits(code.id), { ref_name: 'v1.0' });
    assert.deepEqual(
      tag.body.map((commit: any) => commit.id),
      [sha.first],
    );
    const unknown = await reporter.get(commits(code.id), { ref_name: 'nope' });
    assert.equal(unknown.status, 200);
    assert.deepEqual(unknown.body, []);
  });

  test('since and until keep commits at or after, at or before a time', async () => {
    const since = await reporter.get(commits(code.id), { since: '2016-02-01T10:00:00Z' });
    assert.deepEqual(
      since.body.map((commit: any) => commit.id),
      [sha.third, sha.second],
    );
    const until = await reporter.get(commits(code.id), { until: '2016-02-01T10:00:00Z' });
    assert.deepEqual(
      until.body.map((commit: any) => commit.id),
      [sha.second, sha.first],
    );
    const both = await reporter.get(commits(code.id), { since: '2016-01-15', until: '2016-02-15T00:00:00.000+01:00' });
    assert.deepEqual(
      both.body.map((commit: any) => commit.id),
      [sha.second],
    );
  });

  test('a since or until that is no ISO 8601 timestamp answers 400', async () => {
    for (const name of ['since', 'until']) {
      for (const value of ['invalid-date', '2016-13-01T00:00:00Z', '2016-01-01 10:00']) {
        const response = await reporter.get(commits(code.id), { [name]: value });
        assert.equal(response.status, 400, `${name}=${value}`);
        assert.deepEqual(response.body, { message: `"${name}" must be a timestamp in ISO 8601 format: YYYY-MM-DDTHH:MM:SSZ` });
      }
    }
  });

  test('page counts from 0, per_page defaults to 20, and no pagination headers are sent', async () => {
    const first = await reporter.get(commits(code.id), { per_page: 2 });
    assert.deepEqual(
      first.body.map((commit: any) => commit.id),
      [sha.third, sha.second],
    );
    const second = await reporter.get(commits(code.id), { per_page: 2, page: 1 });
    assert.deepEqual(
      second.body.map((commit: any) => commit.id),
      [sha.first],
    );
    const zero = await reporter.get(commits(code.id), { per_page: 2, page: 0 });
    assert.deepEqual(zero.body, first.body);
    for (const header of ['x-total', 'x-page', 'x-per-page', 'link']) assert.equal(first.headers.get(header), null, header);
    const many = await reporter.get(commits(code.id), { per_page: 0 });
    assert.equal(many.body.length, 3, 'a nonsense page size is the default');
  });

  test('path keeps the commits that touched it', async () => {
    const response = await reporter.get(commits(code.id), { path: 'lib/a.rb' });
    assert.deepEqual(
      response.body.map((commit: any) => commit.id),
      [sha.third, sha.first],
    );
    const outside = await reporter.get(commits(code.id), { path: '../etc' });
    assert.deepEqual(outside.body, []);
  });

  test('an empty repository has no commits', async () => {
    const response = await reporter.get(commits(empty.id));
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, []);
  });

  test('needs download_code', async () => {
    await assertReadPermissions((client, id) => client.get(commits(id)));
  });
});

describe('GET /projects/:id/repository/commits/:sha', () => {
  test('shows a commit with parents, dates, stats and a null status without pipelines', async () => {
    const response = await reporter.get(`${commits(code.id)}/${sha.second}`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, {
      id: sha.second,
      short_id: sha.second.slice(0, 8),
      title: 'second commit',
      author_name: 'Grace Hopper',
      author_email: 'grace@example.com',
      created_at: '2016-02-01T10:00:00.000+00:00',
      message: 'second commit\n',
      parent_ids: [sha.first],
      committed_date: '2016-02-01T10:00:00.000+00:00',
      authored_date: '2016-02-01T10:00:00.000+00:00',
      stats: { additions: 3, deletions: 1, total: 4 },
      status: null,
    });
  });

  test('a root commit counts every line as added', async () => {
    const response = await reporter.get(`${commits(code.id)}/${sha.first}`);
    assert.deepEqual(response.body.parent_ids, []);
    assert.deepEqual(response.body.stats, { additions: 4, deletions: 0, total: 4 });
  });

  test('a branch name, a tag name or a short sha names a commit', async () => {
    assert.equal((await reporter.get(`${commits(code.id)}/master`)).body.id, sha.third);
    assert.equal((await reporter.get(`${commits(code.id)}/v1.0`)).body.id, sha.first);
    assert.equal((await reporter.get(`${commits(code.id)}/${sha.second.slice(0, 10)}`)).body.id, sha.second);
  });

  test('status is the status of the latest pipeline for the commit', async () => {
    const db = app.ctx.db;
    const at = new Date().toISOString();
    const pipeline = (status: string) => ({
      project_id: code.id,
      ref: 'master',
      sha: sha.third,
      tag: 0 as const,
      status,
      created_at: at,
      updated_at: at,
    });
    await db.insertInto('ci_pipelines').values(pipeline('created')).execute();
    assert.equal((await reporter.get(`${commits(code.id)}/${sha.third}`)).body.status, 'created');
    await db.insertInto('ci_pipelines').values(pipeline('success')).execute();
    assert.equal((await reporter.get(`${commits(code.id)}/master`)).body.status, 'success');
    // Another project's pipeline for the same sha does not count.
    await db
      .insertInto('ci_pipelines')
      .values({ ...pipeline('failed'), project_id: open.id })
      .execute();
    assert.equal((await reporter.get(`${commits(code.id)}/master`)).body.status, 'success');
  });

  test('an unknown sha answers 404 Commit Not Found', async () => {
    for (const value of ['invalid_sha', '0000000000000000000000000000000000000000', 'master..feature', '-p']) {
      const response = await reporter.get(`${commits(code.id)}/${encodeURIComponent(value)}`);
      assert.equal(response.status, 404, value);
      assert.deepEqual(response.body, { message: '404 Commit Not Found' });
    }
  });

  test('needs download_code', async () => {
    await assertReadPermissions((client, id) => client.get(`${commits(id)}/master`));
  });
});

describe('GET /projects/:id/repository/commits/:sha/diff', () => {
  test('lists what the commit changed against its parent', async () => {
    const response = await reporter.get(`${commits(code.id)}/${sha.second}/diff`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, [
      {
        old_path: 'README.md',
        new_path: 'README.md',
        a_mode: '100644',
        b_mode: '100644',
        diff: '--- a/README.md\n+++ b/README.md\n@@ -1,3 +1,4 @@\n one\n-two\n+2\n three\n+four\n',
        new_file: false,
        renamed_file: false,
        deleted_file: false,
      },
      {
        old_path: 'lib/b.rb',
        new_path: 'lib/b.rb',
        a_mode: '0',
        b_mode: '100644',
        diff: '--- /dev/null\n+++ b/lib/b.rb\n@@ -0,0 +1 @@\n+puts 2\n',
        new_file: true,
        renamed_file: false,
        deleted_file: false,
      },
    ]);
  });

  test('a deletion is a deleted file', async () => {
    const response = await reporter.get(`${commits(code.id)}/master/diff`);
    assert.equal(response.body.length, 1);
    assert.equal(response.body[0].deleted_file, true);
    assert.equal(response.body[0].b_mode, '0');
  });

  test('an unknown sha answers 404 Commit Not Found', async () => {
    const response = await reporter.get(`${commits(code.id)}/invalid_sha/diff`);
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 Commit Not Found' });
  });

  test('needs download_code', async () => {
    await assertReadPermissions((client, id) => client.get(`${commits(id)}/master/diff`));
  });
});

describe('POST /projects/:id/repository/commits/:sha/comments', () => {
  const post = (client: ApiClient, ref: string, body: Record<string, unknown>, id = code.id) =>
    client.post(`${commits(id)}/${encodeURIComponent(ref)}/comments`, body);

  test('comments on the commit: 201 with path, line and line_type null and the author as a user summary', async () => {
    const response = await post(reporter, sha.second, { note: 'My comment' });
    assert.equal(response.status, 201);
    assert.equal(response.body.note, 'My comment');
    assert.equal(response.body.path, null);
    assert.equal(response.body.line, null);
    assert.equal(response.body.line_type, null);
    assert.match(response.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(response.body.author, {
      name: 'Rita Reporter',
      username: 'commits-reporter',
      id: reporterUser.id,
      state: 'active',
      avatar_url: reporterUser.avatar_url,
      web_url: reporterUser.web_url,
    });
  });

  test('the full sha, path, line and line_type=new put the comment on an added line', async () => {
    const response = await post(reporter, sha.second, { note: 'on line 4', path: 'README.md', line: 4, line_type: 'new' });
    assert.equal(response.status, 201);
    assert.equal(response.body.path, 'README.md');
    assert.equal(response.body.line, 4);
    assert.equal(response.body.line_type, 'new');
  });

  test('line_type=old puts it on a removed line', async () => {
    const response = await post(reporter, sha.second, { note: 'on the removed two', path: 'README.md', line: '2', line_type: 'old' });
    assert.deepEqual([response.body.path, response.body.line, response.body.line_type], ['README.md', 2, 'old']);
  });

  test('a branch name, an unknown path, a line that is not there or an unchanged line put it on the commit as a whole', async () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ['master~1', { path: 'README.md', line: 4, line_type: 'new' }],
      [sha.second.slice(0, 8), { path: 'README.md', line: 4, line_type: 'new' }],
      [sha.second, { path: 'nothing.md', line: 4, line_type: 'new' }],
      [sha.second, { path: 'README.md', line: 40, line_type: 'new' }],
      [sha.second, { path: 'README.md', line: 1, line_type: 'new' }],
      [sha.second, { path: 'README.md', line: 'x', line_type: 'new' }],
      [sha.second, { path: 'README.md', line: 4 }],
    ];
    for (const [ref, placement] of cases) {
      const response = await post(reporter, ref, { note: 'somewhere', ...placement });
      assert.equal(response.status, 201, JSON.stringify([ref, placement]));
      assert.deepEqual(
        [response.body.path, response.body.line, response.body.line_type],
        [null, null, null],
        JSON.stringify([ref, placement]),
      );
    }
  });

  test('note is required: 400 "note" not given', async () => {
    for (const body of [{}, { note: '' }, { note: '  ' }]) {
      const response = await post(reporter, sha.second, body);
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, { message: '400 (Bad request) "note" not given' });
    }
  });

  test('an unknown commit answers 404 Commit Not Found', async () => {
    const response = await post(reporter, '1234ab', { note: 'lost' });
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 Commit Not Found' });
  });

  test('records a "commented on" project event', async () => {
    const created = await post(owner, sha.first, { note: 'event please' });
    assert.equal(created.status, 201);
    const events = await owner.get(`/projects/${code.id}/events`);
    const [event] = events.body;
    assert.deepEqual([event.action_name, event.target_type, event.author_id], ['commented on', 'Note', event.author.id]);
    const { note } = event;
    assert.deepEqual(Object.keys(note), [
      'id',
      'body',
      'attachment',
      'author',
      'created_at',
      'updated_at',
      'system',
      'noteable_id',
      'noteable_type',
      'upvote?',
      'downvote?',
      'upvote',
      'downvote',
    ]);
    assert.deepEqual(
      [
        note.id,
        note.body,
        note.attachment,
        note.author.id,
        note.system,
        note.noteable_id,
        note.noteable_type,
        note['upvote?'],
        note['downvote?'],
        note.upvote,
        note.downvote,
      ],
      [event.target_id, 'event please', null, event.author.id, false, null, 'Commit', false, false, false, false],
    );
    // Only comment events carry a note.
    const all = (await owner.get(`/projects/${code.id}/events`, { per_page: 100 })).body;
    const others = all.filter((item: any) => item.target_type !== 'Note');
    assert.ok(others.length > 0);
    assert.ok(others.every((item: any) => !('note' in item)));
  });

  test('anonymous callers get 401; guests of private projects 403; strangers 404; readers of public projects may comment', async () => {
    const anonymous = await post(app.anonymous, sha.second, { note: 'hi' });
    assert.equal(anonymous.status, 401);
    assert.deepEqual(anonymous.body, { message: '401 Unauthorized' });
    const byGuest = await post(guest, sha.second, { note: 'hi' });
    assert.equal(byGuest.status, 403);
    const byStranger = await post(stranger, sha.second, { note: 'hi' });
    assert.equal(byStranger.status, 404);
    assert.deepEqual(byStranger.body, { message: '404 Project Not Found' });
    const onPublic = await post(stranger, sha.openHead, { note: 'hi' }, open.id);
    assert.equal(onPublic.status, 201);
  });
});

describe('Note Hook for commit comments', () => {
  test("project hooks with note_events get GitLab 8.12's note payload; inline comments carry line_code and st_diff", async () => {
    const post = (client: ApiClient, ref: string, body: Record<string, unknown>) =>
      client.post(`${commits(code.id)}/${ref}/comments`, body);
    const listener = await HookListener.start();
    try {
      const hook = await owner.post(`/projects/${code.id}/hooks`, { url: listener.url, note_events: true, push_events: false });
      assert.equal(hook.status, 201);
      const whole = await post(reporter, sha.second, { note: 'hook me' });
      const inline = await post(reporter, sha.second, { note: 'hook this line', path: 'README.md', line: 4, line_type: 'new' });
      const received = await listener.waitFor((request) => request.body?.object_attributes?.note === 'hook me');
      assert.equal(received.headers['x-gitlab-event'], 'Note Hook');
      const body = received.body;
      assert.deepEqual(Object.keys(body), ['object_kind', 'user', 'project_id', 'project', 'repository', 'object_attributes', 'commit']);
      assert.equal(body.object_kind, 'note');
      assert.deepEqual(body.user, { name: 'Rita Reporter', username: 'commits-reporter', avatar_url: reporterUser.avatar_url });
      assert.equal(body.project_id, code.id);
      assert.equal(body.project.path_with_namespace, 'commits-owner/code');
      assert.deepEqual(Object.keys(body.repository), ['name', 'url', 'description', 'homepage']);
      const attributes = body.object_attributes;
      assert.deepEqual(Object.keys(attributes), [
        'id',
        'note',
        'noteable_type',
        'author_id',
        'created_at',
        'updated_at',
        'project_id',
        'attachment',
        'line_code',
        'commit_id',
        'noteable_id',
        'system',
        'st_diff',
        'url',
      ]);
      assert.deepEqual(
        [
          attributes.noteable_type,
          attributes.author_id,
          attributes.project_id,
          attributes.commit_id,
          attributes.noteable_id,
          attributes.system,
          attributes.line_code,
          attributes.st_diff,
        ],
        ['Commit', reporterUser.id, code.id, sha.second, null, false, null, null],
      );
      assert.match(attributes.created_at, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
      assert.match(attributes.url, new RegExp(`/commits-owner/code/commit/${sha.second}#note_\\d+$`));
      assert.deepEqual(body.commit, {
        id: sha.second,
        message: 'second commit\n',
        timestamp: '2016-02-01T10:00:00+00:00',
        url: `${code.project.web_url}/commit/${sha.second}`,
        author: { name: 'Grace Hopper', email: 'grace@example.com' },
      });
      assert.equal(whole.status, 201);

      assert.equal(inline.body.line, 4);
      const placed = (await listener.waitFor((request) => request.body?.object_attributes?.note === 'hook this line')).body
        .object_attributes;
      const readmeSha1 = createHash('sha1').update('README.md').digest('hex');
      assert.equal(placed.line_code, `${readmeSha1}_4_4`);
      assert.deepEqual(placed.st_diff, {
        diff: '--- a/README.md\n+++ b/README.md\n@@ -1,3 +1,4 @@\n one\n-two\n+2\n three\n+four\n',
        new_path: 'README.md',
        old_path: 'README.md',
        a_mode: '100644',
        b_mode: '100644',
        new_file: false,
        renamed_file: false,
        deleted_file: false,
      });
    } finally {
      await listener.close();
    }
  });
});

describe('GET /projects/:id/repository/commits/:sha/comments', () => {
  let target: string;
  before(async () => {
    target = await seedCommit(app, code.id, {
      branch: 'commented',
      startRef: sha.first,
      files: { 'c.txt': 'c\n' },
      message: 'commented\n',
    });
    for (const note of ['first note', 'second note', 'third note']) await reporter.post(`${commits(code.id)}/${target}/comments`, { note });
    await reporter.post(`${commits(code.id)}/${target}/comments`, { note: 'inline', path: 'c.txt', line: 1, line_type: 'new' });
  });

  test('lists the comments oldest first, each with its author (e-mail and creation time included)', async () => {
    const response = await reporter.get(`${commits(code.id)}/${target}/comments`);
    assert.equal(response.status, 200);
    assert.deepEqual(
      response.body.map((note: any) => note.note),
      ['first note', 'second note', 'third note', 'inline'],
    );
    const [first] = response.body;
    assert.deepEqual(first.author, {
      name: 'Rita Reporter',
      username: 'commits-reporter',
      id: reporterUser.id,
      state: 'active',
      avatar_url: reporterUser.avatar_url,
      web_url: reporterUser.web_url,
      email: reporterUser.email,
      created_at: reporterUser.created_at,
    });
    assert.deepEqual([first.path, first.line, first.line_type], [null, null, null]);
    assert.deepEqual([response.body[3].path, response.body[3].line, response.body[3].line_type], ['c.txt', 1, 'new']);
  });

  test('is paginated', async () => {
    const response = await reporter.get(`${commits(code.id)}/commented/comments`, { per_page: 2, page: 2 });
    assert.deepEqual(
      response.body.map((note: any) => note.note),
      ['third note', 'inline'],
    );
    assert.equal(response.headers.get('x-total'), '4');
    assert.equal(response.headers.get('x-page'), '2');
  });

  test('comments of another project on the same commit are not listed', async () => {
    const fork = await stranger.post(`/projects/fork/${open.id}`);
    assert.equal(fork.status, 201);
    await stranger.post(`${commits(fork.body.id)}/${sha.openHead}/comments`, { note: 'in the fork' });
    await owner.post(`${commits(open.id)}/${sha.openHead}/comments`, { note: 'in the parent' });
    const parent = await owner.get(`${commits(open.id)}/${sha.openHead}/comments`);
    assert.ok(parent.body.some((note: any) => note.note === 'in the parent'));
    assert.ok(!parent.body.some((note: any) => note.note === 'in the fork'));
  });

  test('a commit without comments has an empty list', async () => {
    const response = await reporter.get(`${commits(code.id)}/${sha.third}/comments`);
    assert.deepEqual(response.body, []);
  });

  test('an unknown commit answers 404 Commit Not Found', async () => {
    const response = await reporter.get(`${commits(code.id)}/1234ab/comments`);
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 Commit Not Found' });
  });

  test('needs download_code', async () => {
    await assertReadPermissions((client, id) => client.get(`${commits(id)}/master/comments`));
  });
});
