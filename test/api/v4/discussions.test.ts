import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { grantProjectRole } from '../../support/roles';
import { seedCommit } from '../../support/repo';

/** GitLab 10's discussions API on merge requests: line comments (`DiffNote` with a position), listing, resolving. */
let app: TestApp;
type Account = Awaited<ReturnType<TestApp['createUser']>>;
let owner: Account;
let developer: Account;
let reporter: Account;
let stranger: Account;
let project: any;
let secret: any;
let branches = 0;

/** A merge request changing line 2 of `poem.txt`, and its latest version's commits. */
async function openMergeRequest(target = project) {
  const branch = `lines-${++branches}`;
  await seedCommit(app, target.id, { branch, startRef: 'refs/heads/master', files: { 'poem.txt': 'one\nTWO\nthree\n' } });
  const created = await owner.client
    .v4()
    .post(`/projects/${target.id}/merge_requests`, { source_branch: branch, target_branch: 'master', title: `Merge ${branch}` });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const [version] = (await owner.client.v4().get(`/projects/${target.id}/merge_requests/${created.body.iid}/versions`)).body;
  const refs = { base_sha: version.base_commit_sha, start_sha: version.start_commit_sha, head_sha: version.head_commit_sha };
  return { mr: created.body, refs, base: `/projects/${target.id}/merge_requests/${created.body.iid}` };
}

const onAddedLine = (refs: object) => ({ ...refs, position_type: 'text', old_path: 'poem.txt', new_path: 'poem.txt', new_line: 2 });

before(async () => {
  app = await startApp();
  [owner, developer, reporter, stranger] = [await app.createUser(), await app.createUser(), await app.createUser(), await app.createUser()];
  project = (await owner.client.post('/projects', { name: 'poems', visibility_level: 20 })).body;
  secret = (await owner.client.post('/projects', { name: 'secret-poems', visibility_level: 0 })).body;
  for (const each of [project, secret]) await seedCommit(app, each.id, { files: { 'poem.txt': 'one\ntwo\nthree\n' } });
  await grantProjectRole(app, project.id, developer.user.id, 30);
  await grantProjectRole(app, project.id, reporter.user.id, 20);
});
after(() => app?.close());

describe('POST /projects/:id/merge_requests/:iid/discussions', () => {
  test('with a position makes a DiffNote, answered as a discussion', async () => {
    const { refs, base } = await openMergeRequest();
    const created = await reporter.client.v4().post(`${base}/discussions`, { body: 'Why shout?', position: onAddedLine(refs) });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.match(created.body.id, /^[0-9a-f]{40}$/);
    assert.equal(created.body.individual_note, false);
    const [note] = created.body.notes;
    assert.equal(note.type, 'DiffNote');
    assert.equal(note.body, 'Why shout?');
    assert.deepEqual(note.position, { ...onAddedLine(refs), old_line: null });
    assert.equal(note.resolvable, true);
    assert.equal(note.resolved, false);
  });

  test('the note is in …/notes with its type and position, and other notes are not', async () => {
    const { refs, base } = await openMergeRequest();
    await owner.client.v4().post(`${base}/notes`, { body: 'Plain comment' });
    await owner.client.v4().post(`${base}/discussions`, { body: 'On the line', position: onAddedLine(refs) });
    const notes = (await owner.client.v4().get(`${base}/notes`)).body;
    const plain = notes.find((note: any) => note.body === 'Plain comment');
    const line = notes.find((note: any) => note.body === 'On the line');
    assert.equal(plain.type, null);
    assert.equal('position' in plain, false);
    assert.equal(line.type, 'DiffNote');
    assert.equal(line.position.new_line, 2);
    assert.equal(line.position.head_sha, refs.head_sha);
  });

  test('a form body with position[...] works too; a removed line names its old line', async () => {
    const { refs, base } = await openMergeRequest();
    const created = await owner.client.v4().form('POST', `${base}/discussions`, {
      body: 'Gone',
      'position[base_sha]': refs.base_sha,
      'position[start_sha]': refs.start_sha,
      'position[head_sha]': refs.head_sha,
      'position[position_type]': 'text',
      'position[old_path]': 'poem.txt',
      'position[new_path]': 'poem.txt',
      'position[old_line]': '2',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual([created.body.notes[0].position.old_line, created.body.notes[0].position.new_line], [2, null]);
  });

  test('a line not in the diff, or commits of no version, is 400', async () => {
    const { refs, base } = await openMergeRequest();
    const far = await owner.client.v4().post(`${base}/discussions`, { body: 'x', position: { ...onAddedLine(refs), new_line: 99 } });
    assert.equal(far.status, 400);
    const other = await owner.client
      .v4()
      .post(`${base}/discussions`, { body: 'x', position: { ...onAddedLine(refs), head_sha: '0'.repeat(40) } });
    assert.equal(other.status, 400);
    assert.equal((await owner.client.v4().post(`${base}/discussions`, { position: onAddedLine(refs) })).status, 400);
  });

  test('without a position it is an individual note', async () => {
    const { base } = await openMergeRequest();
    const created = await owner.client.v4().post(`${base}/discussions`, { body: 'Alone' });
    assert.equal(created.status, 201);
    assert.equal(created.body.individual_note, true);
    assert.equal(created.body.notes[0].type, null);
  });

  test('a stranger of a private project gets 404; an anonymous caller 401', async () => {
    const { refs, base } = await openMergeRequest(secret);
    assert.equal((await stranger.client.v4().post(`${base}/discussions`, { body: 'x', position: onAddedLine(refs) })).status, 404);
    assert.equal((await stranger.client.v4().get(`${base}/discussions`)).status, 404);
    assert.equal((await app.anonymous.v4().post(`${base}/discussions`, { body: 'x' })).status, 401);
  });
});

describe('GET /projects/:id/merge_requests/:iid/discussions', () => {
  test('lists every discussion oldest first, and one by its id', async () => {
    const { refs, base } = await openMergeRequest();
    await owner.client.v4().post(`${base}/notes`, { body: 'First' });
    const line = (await owner.client.v4().post(`${base}/discussions`, { body: 'Second', position: onAddedLine(refs) })).body;
    const list = await reporter.client.v4().get(`${base}/discussions`);
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.map((each: any) => [each.individual_note, each.notes.map((note: any) => note.body)]),
      [
        [true, ['First']],
        [false, ['Second']],
      ],
    );
    const one = await reporter.client.v4().get(`${base}/discussions/${line.id}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.notes[0].position.new_line, 2);
    assert.equal((await reporter.client.v4().get(`${base}/discussions/${'f'.repeat(40)}`)).status, 404);
  });
});

describe('PUT /projects/:id/merge_requests/:iid/discussions/:discussion_id', () => {
  test('resolved=true resolves, resolved=false unresolves', async () => {
    const { refs, base } = await openMergeRequest();
    const line = (await reporter.client.v4().post(`${base}/discussions`, { body: 'Fix', position: onAddedLine(refs) })).body;
    const resolved = await developer.client.v4().put(`${base}/discussions/${line.id}?resolved=true`);
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
    assert.equal(resolved.body.notes[0].resolved, true);
    assert.equal(resolved.body.notes[0].resolved_by.username, developer.user.username);
    const again = await reporter.client.v4().put(`${base}/discussions/${line.id}`, { resolved: false });
    assert.equal(again.status, 200);
    assert.equal(again.body.notes[0].resolved, false);
    assert.equal(again.body.notes[0].resolved_by, null);
  });

  test('someone else without the right to update the merge request is refused; a plain note is not resolvable', async () => {
    const { refs, base } = await openMergeRequest();
    const line = (await developer.client.v4().post(`${base}/discussions`, { body: 'Fix', position: onAddedLine(refs) })).body;
    assert.equal((await reporter.client.v4().put(`${base}/discussions/${line.id}?resolved=true`)).status, 403);
    assert.equal((await stranger.client.v4().put(`${base}/discussions/${line.id}?resolved=true`)).status, 403);
    const alone = (await owner.client.v4().post(`${base}/discussions`, { body: 'Alone' })).body;
    assert.equal((await owner.client.v4().put(`${base}/discussions/${alone.id}?resolved=true`)).status, 400);
    assert.equal((await owner.client.v4().put(`${base}/discussions/${line.id}?resolved=maybe`)).status, 400);
  });
});
