import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { grantProjectRole } from '../support/roles';
import { seedCommit } from '../support/repo';
import { eventually } from '../support/eventually';
import { WebClient } from '../support/web';
import { positionLineCode } from '../../src/services/notes/diff-positions';

/** Comments on a line of a merge request's Changes tab, the Discussion tab, outdated comments, resolving. */
let app: TestApp;
type Account = Awaited<ReturnType<TestApp['createUser']>>;
let owner: Account;
let reviewer: Account;
let guest: Account;
let open: any;
let secret: any;
let web: Record<'anonymous' | 'owner' | 'reviewer' | 'guest', WebClient>;
let branches = 0;

async function signedIn(account: Account): Promise<WebClient> {
  const client = new WebClient(app.url);
  assert.equal((await client.signIn(account.user.username, account.password)).status, 303);
  return client;
}

/** A merge request whose branch changes line 2 of `poem.txt`; its page's path. */
async function openMergeRequest(project = open) {
  const branch = `lines-${++branches}`;
  await seedCommit(app, project.id, { branch, startRef: 'refs/heads/master', files: { 'poem.txt': 'one\nTWO\nthree\n' } });
  const created = await owner.client
    .v4()
    .post(`/projects/${project.id}/merge_requests`, { source_branch: branch, target_branch: 'master', title: `Merge ${branch}` });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return {
    mr: created.body,
    branch,
    api: `/projects/${project.id}/merge_requests/${created.body.iid}`,
    path: `${new URL(project.web_url).pathname}/merge_requests/${created.body.iid}`,
  };
}

/** The line code of the added line 2 (old side: none). */
const addedLine = positionLineCode('poem.txt', null, 2);

/** Comments on the added line through the page, as `client`; answers the POST. */
async function commentOnLine(client: WebClient, path: string, note: string) {
  const form = await client.get(`${path}/diffs?line_code=${addedLine}`);
  assert.equal(form.status, 200);
  assert.match(form.text, /id="form"/);
  return client.post(`${path}/discussions`, { authenticity_token: WebClient.csrfToken(form.text), line_code: addedLine, note });
}

before(async () => {
  app = await startApp();
  [owner, reviewer, guest] = [await app.createUser(), await app.createUser(), await app.createUser()];
  open = (await owner.client.post('/projects', { name: 'poem', visibility_level: 20 })).body;
  secret = (await owner.client.post('/projects', { name: 'secret-poem', visibility_level: 0 })).body;
  for (const project of [open, secret]) await seedCommit(app, project.id, { files: { 'poem.txt': 'one\ntwo\nthree\n' } });
  await grantProjectRole(app, open.id, reviewer.user.id, 20);
  await grantProjectRole(app, secret.id, guest.user.id, 10);
  web = {
    anonymous: new WebClient(app.url),
    owner: await signedIn(owner),
    reviewer: await signedIn(reviewer),
    guest: await signedIn(guest),
  };
});
after(() => app?.close());

describe('A comment on a line of …/merge_requests/:iid/diffs', () => {
  test('each line links to its form; the comment is drawn under the line, in the discussion, and in v4 with its position', async () => {
    const { api, path } = await openMergeRequest();
    const page = await web.reviewer.get(`${path}/diffs`);
    assert.match(page.text, new RegExp(`href="${path}/diffs\\?line_code=${addedLine}#form"`));
    assert.doesNotMatch(page.text, /id="form"/);
    const posted = await commentOnLine(web.reviewer, path, 'Why *shout*?');
    assert.equal(posted.status, 303);
    const notes = (await owner.client.v4().get(`${api}/notes`)).body;
    const note = notes.find((each: any) => each.type === 'DiffNote');
    assert.equal(note.body, 'Why *shout*?');
    assert.equal(note.author.username, reviewer.user.username);
    assert.deepEqual([note.position.new_path, note.position.old_line, note.position.new_line], ['poem.txt', null, 2]);
    assert.equal(posted.headers.get('location'), `${path}/diffs#note_${note.id}`);
    const changes = await web.anonymous.get(`${path}/diffs`);
    assert.match(
      changes.text,
      new RegExp(`<tr class="add" id="${addedLine}">[\\s\\S]*?<tr class="line-notes">[\\s\\S]*?Why <em>shout</em>\\?`),
    );
    const discussion = await web.anonymous.get(path);
    assert.match(discussion.text, /on <code>poem\.txt<\/code> line 2/);
    assert.match(discussion.text, /Why <em>shout<\/em>\?/);
    assert.doesNotMatch(discussion.text, /outdated/);
  });

  test('a push changing the line makes the comment outdated: kept on the Discussion tab, gone from the diff', async () => {
    const { api, branch, path } = await openMergeRequest();
    assert.equal((await commentOnLine(web.owner, path, 'Quieter please')).status, 303);
    const changed = await owner.client
      .v4()
      .put(`/projects/${open.id}/repository/files/poem.txt`, { branch, content: 'one\nTwo!\nthree\n', commit_message: 'calmer' });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    await eventually(async () => (await owner.client.v4().get(`${api}/versions`)).body.length === 2, { message: 'a new version' });
    const changes = await web.owner.get(`${path}/diffs`);
    assert.match(changes.text, /Two!/);
    assert.doesNotMatch(changes.text, /Quieter please/);
    const discussion = await web.owner.get(path);
    assert.match(discussion.text, /Quieter please/);
    assert.match(discussion.text, /line 2 <span class="badge">outdated<\/span>/);
  });

  test('resolve and unresolve from the page, as v4 shows it', async () => {
    const { api, path } = await openMergeRequest();
    await commentOnLine(web.reviewer, path, 'Resolve me');
    const [line] = (await owner.client.v4().get(`${api}/discussions`)).body.filter((each: any) => !each.individual_note);
    const page = await web.owner.get(`${path}/diffs`);
    assert.match(page.text, /Resolve discussion/);
    const token = WebClient.csrfToken(page.text);
    const resolved = await web.owner.post(`${path}/discussions/${line.id}/resolve`, { authenticity_token: token, back: 'diffs' });
    assert.equal(resolved.status, 303);
    assert.equal(resolved.headers.get('location'), `${path}/diffs#discussion_${line.id}`);
    let shown = (await owner.client.v4().get(`${api}/discussions/${line.id}`)).body;
    assert.equal(shown.notes[0].resolved, true);
    assert.equal(shown.notes[0].resolved_by.username, owner.user.username);
    assert.match((await web.owner.get(path)).text, /Unresolve discussion/);
    await web.owner.post(`${path}/discussions/${line.id}/unresolve`, { authenticity_token: token });
    shown = (await owner.client.v4().get(`${api}/discussions/${line.id}`)).body;
    assert.equal(shown.notes[0].resolved, false);
  });

  test('“Comment & resolve discussion” replies and resolves in one step; “Comment & unresolve” undoes it', async () => {
    const { api, path } = await openMergeRequest();
    await commentOnLine(web.reviewer, path, 'Settle me');
    const [line] = (await owner.client.v4().get(`${api}/discussions`)).body.filter((each: any) => !each.individual_note);
    const page = await web.owner.get(`${path}/diffs`);
    assert.match(page.text, /name="resolve_discussion" value="resolve">Comment &amp; resolve discussion/);
    const token = WebClient.csrfToken(page.text);
    const settled = await web.owner.post(`${path}/discussions/${line.id}/notes`, {
      authenticity_token: token,
      back: 'diffs',
      note: 'Fixed in the next push',
      resolve_discussion: 'resolve',
    });
    assert.equal(settled.status, 303);
    let shown = (await owner.client.v4().get(`${api}/discussions/${line.id}`)).body;
    assert.deepEqual(
      shown.notes.map((note: any) => [note.body, note.resolved]),
      [
        ['Settle me', true],
        ['Fixed in the next push', true],
      ],
    );
    assert.equal(shown.notes[0].resolved_by.username, owner.user.username);
    assert.match((await web.owner.get(path)).text, /Comment &amp; unresolve discussion/);
    await web.owner.post(`${path}/discussions/${line.id}/notes`, {
      authenticity_token: token,
      note: 'Not quite',
      resolve_discussion: 'unresolve',
    });
    shown = (await owner.client.v4().get(`${api}/discussions/${line.id}`)).body;
    assert.equal(shown.notes.length, 3);
    assert.ok(shown.notes.every((note: any) => note.resolved === false));
  });

  test('one who may not resolve is offered no “Comment & resolve” and is refused it with nothing written', async () => {
    const { api, path } = await openMergeRequest();
    await commentOnLine(web.owner, path, 'Mine to settle');
    const [line] = (await owner.client.v4().get(`${api}/discussions`)).body.filter((each: any) => !each.individual_note);
    const page = await web.reviewer.get(`${path}/diffs`);
    assert.match(page.text, /Reply/);
    assert.doesNotMatch(page.text, /Comment &amp; resolve/);
    const refused = await web.reviewer.post(`${path}/discussions/${line.id}/notes`, {
      authenticity_token: WebClient.csrfToken(page.text),
      note: 'I would settle it',
      resolve_discussion: 'resolve',
    });
    assert.equal(refused.status, 403);
    const shown = (await owner.client.v4().get(`${api}/discussions/${line.id}`)).body;
    assert.equal(shown.notes.length, 1);
    assert.equal(shown.notes[0].resolved, false);
  });

  test('the comment’s author may resolve; another reporter sees no button and is refused', async () => {
    const { api, path } = await openMergeRequest();
    await commentOnLine(web.owner, path, 'Not yours');
    const [line] = (await owner.client.v4().get(`${api}/discussions`)).body.filter((each: any) => !each.individual_note);
    const page = await web.reviewer.get(`${path}/diffs`);
    assert.doesNotMatch(page.text, /Resolve discussion/);
    const refused = await web.reviewer.post(`${path}/discussions/${line.id}/resolve`, {
      authenticity_token: WebClient.csrfToken(page.text),
    });
    assert.equal(refused.status, 403);
    assert.equal((await owner.client.v4().get(`${api}/discussions/${line.id}`)).body.notes[0].resolved, false);
  });

  test('a guest of a private project gets 404 for its changes and its writes; no CSRF token, no comment', async () => {
    const { path } = await openMergeRequest(secret);
    assert.equal((await web.guest.get(`${path}/diffs`)).status, 404);
    const token = WebClient.csrfToken((await web.guest.get('/')).text);
    assert.equal((await web.guest.post(`${path}/discussions`, { authenticity_token: token, line_code: addedLine, note: 'x' })).status, 404);
    const mine = await openMergeRequest();
    const forged = await web.owner.post(`${mine.path}/discussions`, { line_code: addedLine, note: 'forged' });
    assert.equal(forged.status, 403);
    assert.equal((await owner.client.v4().get(`${mine.api}/discussions`)).body.length, 0);
    assert.equal((await web.anonymous.post(`${mine.path}/discussions`, { line_code: addedLine, note: 'x' })).status, 403);
  });
});
