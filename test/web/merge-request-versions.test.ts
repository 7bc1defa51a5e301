import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { grantProjectRole } from '../support/roles';
import { seedCommit } from '../support/repo';
import { eventually } from '../support/eventually';
import { WebClient } from '../support/web';
import { positionLineCode } from '../../src/services/notes/diff-positions';

/** The Changes tab's versions (`?diff_id=`, `&start_sha=`), its inline and side-by-side views, and replies in a discussion. */
let app: TestApp;
type Account = Awaited<ReturnType<TestApp['createUser']>>;
let owner: Account;
let reviewer: Account;
let outsider: Account;
let open: any;
let secret: any;
let web: Record<'anonymous' | 'owner' | 'reviewer' | 'outsider', WebClient>;
let branches = 0;

async function signedIn(account: Account): Promise<WebClient> {
  const client = new WebClient(app.url);
  assert.equal((await client.signIn(account.user.username, account.password)).status, 303);
  return client;
}

/** The line codes of the lines the versions add: `TWO` (line 2) and `four` (line 4). */
const two = positionLineCode('poem.txt', null, 2);
const four = positionLineCode('poem.txt', null, 4);

/**
 * A merge request of two versions: the first changes line 2 of `poem.txt`, the second push adds
 * line 4. Answers its paths and its versions, oldest first.
 */
async function twoVersions(project = open) {
  const branch = `versions-${++branches}`;
  // A message of its own: two calls within one second would otherwise make the same commits, and
  // another merge request's versions would be this one's.
  await seedCommit(app, project.id, {
    branch,
    startRef: 'refs/heads/master',
    files: { 'poem.txt': 'one\nTWO\nthree\n' },
    message: `the poem, for ${branch}\n`,
  });
  const created = await owner.client
    .v4()
    .post(`/projects/${project.id}/merge_requests`, { source_branch: branch, target_branch: 'master', title: `Merge ${branch}` });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const api = `/projects/${project.id}/merge_requests/${created.body.iid}`;
  const pushed = await owner.client
    .v4()
    .put(`/projects/${project.id}/repository/files/poem.txt`, { branch, content: 'one\nTWO\nthree\nfour\n', commit_message: 'four' });
  assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
  await eventually(async () => (await owner.client.v4().get(`${api}/versions`)).body.length === 2, { message: 'a second version' });
  const versions = (await owner.client.v4().get(`${api}/versions`)).body.reverse();
  return { mr: created.body, api, versions, path: `${new URL(project.web_url).pathname}/merge_requests/${created.body.iid}` };
}

/** A comment on a line of the Changes tab as `client`, on the view `query` names; answers the POST. */
async function commentOn(client: WebClient, path: string, query: string, code: string, note: string) {
  const form = await client.get(`${path}/diffs?${query}${query ? '&' : ''}line_code=${code}`);
  assert.equal(form.status, 200);
  assert.match(form.text, /id="form"/);
  const fields = Object.fromEntries(new URLSearchParams(query));
  return client.post(`${path}/discussions`, { authenticity_token: WebClient.csrfToken(form.text), line_code: code, note, ...fields });
}

const lineDiscussions = async (api: string) =>
  (await owner.client.v4().get(`${api}/discussions`)).body.filter((each: any) => !each.individual_note);

before(async () => {
  app = await startApp();
  [owner, reviewer, outsider] = [await app.createUser(), await app.createUser(), await app.createUser()];
  open = (await owner.client.post('/projects', { name: 'versioned-poem', visibility_level: 20 })).body;
  secret = (await owner.client.post('/projects', { name: 'secret-versions', visibility_level: 0 })).body;
  for (const project of [open, secret]) await seedCommit(app, project.id, { files: { 'poem.txt': 'one\ntwo\nthree\n' } });
  await grantProjectRole(app, open.id, reviewer.user.id, 20);
  web = {
    anonymous: new WebClient(app.url),
    owner: await signedIn(owner),
    reviewer: await signedIn(reviewer),
    outsider: await signedIn(outsider),
  };
});
after(() => app?.close());

describe('Versions on …/merge_requests/:iid/diffs', () => {
  test('lists each version with its number, short head, commits and time; the latest is shown against the base', async () => {
    const { path, versions } = await twoVersions();
    const page = await web.anonymous.get(`${path}/diffs`);
    assert.equal(page.status, 200);
    const [first, second] = versions;
    for (const [number, version] of [
      [1, first],
      [2, second],
    ] as const) {
      const row = new RegExp(
        `<tr class="version" id="version_${version.id}"><td><a href="${path}/diffs\\?diff_id=${version.id}"[^>]*>version ${number}</a>[\\s\\S]*?<code>${version.head_commit_sha.slice(0, 8)}</code></td><td>${number} commits?</td>`,
      );
      assert.match(page.text, row);
    }
    assert.match(page.text, /Showing <strong>version 2<\/strong> \(latest\) compared with <strong>base<\/strong>/);
    assert.match(page.text, /TWO/);
    assert.match(page.text, /\+four/);
  });

  test('?diff_id= shows an older version against its base, as it was pushed', async () => {
    const { path, versions } = await twoVersions();
    const page = await web.anonymous.get(`${path}/diffs?diff_id=${versions[0].id}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /Showing <strong>version 1<\/strong> compared with <strong>base<\/strong>/);
    assert.match(page.text, /\+TWO/);
    assert.doesNotMatch(page.text, /four/);
  });

  test('&start_sha= shows what changed between two versions only', async () => {
    const { path, versions } = await twoVersions();
    const [first, second] = versions;
    const page = await web.anonymous.get(`${path}/diffs?diff_id=${second.id}&start_sha=${first.head_commit_sha}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /Showing <strong>version 2<\/strong> \(latest\) compared with <strong>version 1<\/strong>/);
    assert.match(page.text, /\+four/);
    assert.doesNotMatch(page.text, /\+TWO|-two/);
    assert.match(page.text, new RegExp(`<option value="${first.head_commit_sha}" selected>version 1`));
  });

  test('an unknown version, another merge request’s, or a start that is no older version is 404', async () => {
    const { path, versions } = await twoVersions();
    const other = await twoVersions();
    const [first, second] = versions;
    for (const query of [
      'diff_id=999999',
      `diff_id=${other.versions[0].id}`,
      'diff_id=abc',
      `diff_id=${first.id}&start_sha=${second.head_commit_sha}`,
      `diff_id=${second.id}&start_sha=${other.versions[0].head_commit_sha}`,
      `start_sha=${'0'.repeat(40)}`,
      'start_sha=not-a-sha',
    ]) {
      assert.equal((await web.owner.get(`${path}/diffs?${query}`)).status, 404, query);
    }
  });

  test('a private project’s versions are 404 for an outsider and a visitor, shown to its owner', async () => {
    const { path, versions } = await twoVersions(secret);
    const asked = `${path}/diffs?diff_id=${versions[0].id}`;
    assert.equal((await web.outsider.get(asked)).status, 404);
    assert.equal((await web.anonymous.get(asked)).status, 404);
    assert.equal((await web.owner.get(asked)).status, 200);
  });

  test('a comment on an older version keeps that version’s commits, and is shown there', async () => {
    const { api, path, versions } = await twoVersions();
    const [first] = versions;
    const posted = await commentOn(web.reviewer, path, `diff_id=${first.id}`, two, 'On the first push');
    assert.equal(posted.status, 303);
    assert.match(posted.headers.get('location') ?? '', new RegExp(`/diffs\\?diff_id=${first.id}#note_\\d+$`));
    const [discussion] = await lineDiscussions(api);
    const { position } = discussion.notes[0];
    assert.deepEqual(
      [position.base_sha, position.start_sha, position.head_sha, position.new_line],
      [first.base_commit_sha, first.start_commit_sha, first.head_commit_sha, 2],
    );
    assert.match((await web.anonymous.get(`${path}/diffs?diff_id=${first.id}`)).text, /On the first push/);
  });

  test('a comment on a comparison of two versions keeps the older head as its base and start', async () => {
    const { api, path, versions } = await twoVersions();
    const [first, second] = versions;
    const query = `diff_id=${second.id}&start_sha=${first.head_commit_sha}`;
    assert.equal((await commentOn(web.reviewer, path, query, four, 'Only four is new')).status, 303);
    const [discussion] = await lineDiscussions(api);
    const { position } = discussion.notes[0];
    assert.deepEqual(
      [position.base_sha, position.start_sha, position.head_sha, position.new_line],
      [first.head_commit_sha, first.head_commit_sha, second.head_commit_sha, 4],
    );
    assert.match((await web.anonymous.get(`${path}/diffs?${query}`)).text, /Only four is new/);
    assert.doesNotMatch((await web.anonymous.get(`${path}/diffs?diff_id=${first.id}`)).text, /Only four is new/);
  });
});

describe('Inline and side-by-side views', () => {
  test('?view=parallel draws old and new side by side and is remembered; ?view=inline goes back', async () => {
    const { path } = await twoVersions();
    const client = await signedIn(reviewer);
    const parallel = await client.get(`${path}/diffs?view=parallel`);
    assert.match(parallel.text, /<table class="diff parallel">/);
    assert.match(parallel.text, /<td class="src del">-two<\/td><td class="num" id="[0-9a-f_]+">.*?2<\/td><td class="src add">\+TWO<\/td>/);
    assert.equal(client.cookies.get('diff_view'), 'parallel');
    assert.match((await client.get(`${path}/diffs`)).text, /<table class="diff parallel">/);
    assert.match((await client.get(`${path}/diffs?view=inline`)).text, /<table class="diff">/);
    assert.match((await client.get(`${path}/diffs`)).text, /<table class="diff">/);
    assert.doesNotMatch((await web.anonymous.get(`${path}/diffs?view=sideways`)).text, /<table class="diff parallel">/);
  });

  test('a line comment is made from the side-by-side view and shown in both', async () => {
    const { api, path } = await twoVersions();
    const client = await signedIn(reviewer);
    const page = await client.get(`${path}/diffs?view=parallel`);
    assert.match(page.text, new RegExp(`href="${path}/diffs\\?line_code=${four}#form"[^>]*aria-label="Comment on line 4"`));
    assert.equal((await commentOn(client, path, '', four, 'Side by side')).status, 303);
    const parallel = await client.get(`${path}/diffs`);
    assert.match(
      parallel.text,
      /<tr class="line-notes"><td colspan="2"><\/td><td colspan="2"><div class="line-discussion"[\s\S]*?Side by side/,
    );
    const inline = await client.get(`${path}/diffs?view=inline`);
    assert.match(inline.text, new RegExp(`<tr class="add" id="${four}">[\\s\\S]*?<tr class="line-notes">[\\s\\S]*?Side by side`));
    assert.equal((await lineDiscussions(api)).length, 1);
  });
});

describe('Replies in a discussion', () => {
  test('a reply from the Changes tab is a note of the same discussion, with its position, in v4', async () => {
    const { api, path } = await twoVersions();
    await commentOn(web.reviewer, path, '', four, 'Why four?');
    const [discussion] = await lineDiscussions(api);
    const page = await web.owner.get(`${path}/diffs`);
    assert.match(page.text, new RegExp(`action="${path}/discussions/${discussion.id}/notes"`));
    const replied = await web.owner.post(`${path}/discussions/${discussion.id}/notes`, {
      authenticity_token: WebClient.csrfToken(page.text),
      note: 'Because *four*.',
      back: 'diffs',
    });
    assert.equal(replied.status, 303);
    assert.match(replied.headers.get('location') ?? '', new RegExp(`^${path}/diffs#note_\\d+$`));
    const shown = (await owner.client.v4().get(`${api}/discussions/${discussion.id}`)).body;
    assert.equal(shown.notes.length, 2);
    const [first, reply] = shown.notes;
    assert.equal(reply.body, 'Because *four*.');
    assert.equal(reply.author.username, owner.user.username);
    assert.equal(reply.type, 'DiffNote');
    assert.deepEqual(reply.position, first.position);
    assert.match((await web.anonymous.get(`${path}/diffs`)).text, /Why four\?[\s\S]*?Because <em>four<\/em>\./);
  });

  test('the Discussion tab draws the thread as one, with its reply form', async () => {
    const { api, path } = await twoVersions();
    await commentOn(web.reviewer, path, '', four, 'First word');
    const [discussion] = await lineDiscussions(api);
    const page = await web.reviewer.get(path);
    const replied = await web.reviewer.post(`${path}/discussions/${discussion.id}/notes`, {
      authenticity_token: WebClient.csrfToken(page.text),
      note: 'Second word',
      back: 'discussion',
    });
    assert.match(replied.headers.get('location') ?? '', new RegExp(`^${path}#note_\\d+$`));
    const after = await web.anonymous.get(path);
    assert.match(after.text, /First word<\/p>\n?<\/div><ol class="notes replies"><li class="note" id="note_\d+">[\s\S]*?Second word/);
    assert.doesNotMatch(after.text, new RegExp(`action="${path}/discussions/${discussion.id}/notes"`));
  });

  test('resolving applies to the whole thread, and a reply to a resolved thread is resolved with it', async () => {
    const { api, path } = await twoVersions();
    await commentOn(web.reviewer, path, '', four, 'Resolve us both');
    const [discussion] = await lineDiscussions(api);
    const v4 = owner.client.v4();
    assert.equal((await v4.post(`${api}/discussions/${discussion.id}/notes`, { body: 'Answer' })).status, 201);
    const resolved = await v4.put(`${api}/discussions/${discussion.id}?resolved=true`);
    assert.deepEqual(
      resolved.body.notes.map((note: any) => note.resolved),
      [true, true],
    );
    const late = await v4.post(`${api}/discussions/${discussion.id}/notes`, { body: 'Late answer' });
    assert.equal(late.status, 201);
    assert.equal(late.body.resolved, true);
    const unresolved = await v4.put(`${api}/discussions/${discussion.id}`, { resolved: false });
    assert.deepEqual(
      unresolved.body.notes.map((note: any) => note.resolved),
      [false, false, false],
    );
  });

  test('v4: a reply to a comment of its own makes it a thread; a note of a discussion is changed and removed there', async () => {
    const { api } = await twoVersions();
    const v4 = owner.client.v4();
    const comment = await v4.post(`${api}/notes`, { body: 'A plain comment' });
    const [plain] = (await v4.get(`${api}/discussions`)).body.filter((each: any) => each.notes[0].id === comment.body.id);
    assert.equal(plain.individual_note, true);
    const reply = await v4.post(`${api}/discussions/${plain.id}/notes`, { body: 'Answered' });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    assert.equal(reply.body.type, 'DiscussionNote');
    const thread = (await v4.get(`${api}/discussions/${plain.id}`)).body;
    assert.equal(thread.individual_note, false);
    assert.deepEqual(
      thread.notes.map((note: any) => note.body),
      ['A plain comment', 'Answered'],
    );
    const changed = await v4.put(`${api}/discussions/${plain.id}/notes/${reply.body.id}`, { body: 'Answered again' });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.body, 'Answered again');
    const other = await twoVersions();
    assert.equal((await v4.put(`${other.api}/discussions/${plain.id}/notes/${reply.body.id}`, { body: 'x' })).status, 404);
    assert.equal((await v4.delete(`${api}/discussions/${plain.id}/notes/${reply.body.id}`)).status, 204);
    assert.equal((await v4.get(`${api}/discussions/${plain.id}`)).body.notes.length, 1);
    assert.equal((await v4.post(`${api}/discussions/${plain.id}/notes`, {})).status, 400);
    assert.equal((await v4.post(`${api}/discussions/${'f'.repeat(40)}/notes`, { body: 'x' })).status, 404);
  });

  test('someone else may not change a reply; an outsider of a private project gets 404 for replies', async () => {
    const { api } = await twoVersions();
    const comment = await owner.client.v4().post(`${api}/discussions`, {
      body: 'Owner speaks',
      position: { position_type: 'text', new_path: 'poem.txt', old_path: 'poem.txt', new_line: 4 },
    });
    assert.equal(comment.status, 201, JSON.stringify(comment.body));
    const reply = await owner.client.v4().post(`${api}/discussions/${comment.body.id}/notes`, { body: 'Owner again' });
    const refused = await reviewer.client.v4().put(`${api}/discussions/${comment.body.id}/notes/${reply.body.id}`, { body: 'Mine now' });
    assert.equal(refused.status, 403);
    const hidden = await twoVersions(secret);
    const token = WebClient.csrfToken((await web.outsider.get('/')).text);
    const discussion = await owner.client.v4().post(`${hidden.api}/discussions`, { body: 'Secret talk' });
    assert.equal(
      (await web.outsider.post(`${hidden.path}/discussions/${discussion.body.id}/notes`, { authenticity_token: token, note: 'x' })).status,
      404,
    );
    assert.equal((await outsider.client.v4().post(`${hidden.api}/discussions/${discussion.body.id}/notes`, { body: 'x' })).status, 404);
    assert.equal((await owner.client.v4().get(`${hidden.api}/discussions/${discussion.body.id}`)).body.notes.length, 1);
  });
});
