import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { grantProjectRole } from '../support/roles';
import { seedCommit } from '../support/repo';
import { seedPipeline } from '../support/ci';
import { WebClient } from '../support/web';

/** The merge request pages: list, form, a merge request's tabs, its discussion and merging; writes through the API's services; privacy as the API's. */
let app: TestApp;
type Account = Awaited<ReturnType<TestApp['createUser']>>;
let owner: Account;
let guest: Account;
let stranger: Account;
let open: any;
let secret: any;
let path: string;
let secretPath: string;
let web: Record<'anonymous' | 'owner' | 'guest' | 'stranger', WebClient>;
let branches = 0;

async function signedIn(account: Account): Promise<WebClient> {
  const client = new WebClient(app.url);
  assert.equal((await client.signIn(account.user.username, account.password)).status, 303);
  return client;
}

async function submit(client: WebClient, formPage: string, action: string, fields: Record<string, string>) {
  const form = await client.get(formPage);
  return client.post(action, { ...fields, authenticity_token: WebClient.csrfToken(form.text) });
}

/** A new branch off master with one file, and its head. */
async function newBranch(projectId: number, name = `feature-${++branches}`) {
  const head = await seedCommit(app, projectId, {
    branch: name,
    startRef: 'refs/heads/master',
    files: { [`${name}.txt`]: `hello from ${name}\n` },
    message: `Add ${name}\n`,
  });
  return { branch: name, head };
}

/** A merge request of a new branch opened through the API; answers it and its branch. */
async function openMergeRequest(fields: Record<string, unknown> = {}, projectId = open.id) {
  const { branch, head } = await newBranch(projectId);
  const created = await owner.client.v4().post(`/projects/${projectId}/merge_requests`, {
    source_branch: branch,
    target_branch: 'master',
    title: `Merge ${branch}`,
    ...fields,
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return { mr: created.body, branch, head };
}

const api = (suffix: string) => owner.client.v4().get(`/projects/${open.id}${suffix}`);

before(async () => {
  app = await startApp();
  owner = await app.createUser();
  guest = await app.createUser();
  stranger = await app.createUser();
  open = (await owner.client.post('/projects', { name: 'reviews', visibility_level: 20 })).body;
  secret = (await owner.client.post('/projects', { name: 'hidden-reviews', visibility_level: 0 })).body;
  path = new URL(open.web_url).pathname;
  secretPath = new URL(secret.web_url).pathname;
  for (const project of [open, secret]) await seedCommit(app, project.id, { files: { 'README.md': 'hello\n' } });
  await grantProjectRole(app, secret.id, guest.user.id, 10);
  await owner.client.post(`/projects/${open.id}/labels`, { name: 'review', color: '#ff0000' });
  web = {
    anonymous: new WebClient(app.url),
    owner: await signedIn(owner),
    guest: await signedIn(guest),
    stranger: await signedIn(stranger),
  };
});
after(() => app?.close());

describe('GET /:namespace/:project/merge_requests', () => {
  test('lists open merge requests with !iid, escaped title, branches, labels and the head pipeline status', async () => {
    const { mr, branch, head } = await openMergeRequest({ title: 'List <b>me</b>', labels: 'review' });
    await seedPipeline(app, open.id, { sha: head, ref: branch, status: 'running', builds: [{ name: 'test', status: 'running' }] });
    const page = await web.anonymous.get(`${path}/merge_requests`);
    assert.equal(page.status, 200);
    assert.match(page.text, /List &lt;b&gt;me&lt;\/b&gt;/);
    assert.match(page.text, new RegExp(`!${mr.iid} opened by`));
    assert.match(page.text, new RegExp(`<code>${branch}</code> → <code>master</code>`));
    assert.match(page.text, /<span class="label">review<\/span>/);
    assert.match(page.text, /class="ci-status ci-running"/);
    assert.doesNotMatch(page.text, /New merge request/);
    assert.match((await web.owner.get(`${path}/merge_requests`)).text, /New merge request/);
  });

  test('filters by search, label and author; the merged and closed tabs; the project tabs link here', async () => {
    await openMergeRequest({ title: 'Unlabelled search target' });
    const searched = await web.owner.get(`${path}/merge_requests?search=search+target`);
    assert.match(searched.text, /Unlabelled search target/);
    assert.doesNotMatch(searched.text, /List &lt;b&gt;/);
    const labelled = await web.owner.get(`${path}/merge_requests?label_name=review`);
    assert.match(labelled.text, /List &lt;b&gt;/);
    assert.doesNotMatch(labelled.text, /Unlabelled search target/);
    assert.match((await web.owner.get(`${path}/merge_requests?author_id=${owner.user.id}`)).text, /Unlabelled search target/);
    assert.match((await web.owner.get(`${path}/merge_requests?author_id=${stranger.user.id}`)).text, /No merge requests to show/);
    assert.match((await web.owner.get(`${path}/merge_requests?state=merged&search=search+target`)).text, /No merge requests to show/);
    assert.match((await web.owner.get(`${path}/merge_requests?state=all&search=search+target`)).text, /Unlabelled search target/);
    assert.match((await web.anonymous.get(path)).text, new RegExp(`href="${path}/merge_requests"[^>]*>Merge Requests<`));
  });
});

describe('GET and POST /:namespace/:project/merge_requests/new', () => {
  test('anonymous visitors are sent to sign in first; who may not open one gets 404', async () => {
    const page = await web.anonymous.get(`${path}/merge_requests/new`);
    assert.equal(page.status, 303);
    assert.match(page.headers.get('location') ?? '', /^\/users\/sign_in\?redirect_to=/);
    assert.equal((await web.stranger.get(`${path}/merge_requests/new`)).status, 404);
  });

  test('GitLab 8.12 link: merge_request[source_branch] preselects the source branch, the default branch is the target', async () => {
    const { branch } = await newBranch(open.id);
    const page = await web.owner.get(`${path}/merge_requests/new?merge_request%5Bsource_branch%5D=${branch}`);
    assert.equal(page.status, 200);
    assert.match(page.text, new RegExp(`name="source_branch" required>.*<option value="${branch}" selected>`, 's'));
    assert.match(page.text, /name="target_branch" required>.*<option value="master" selected>/s);
  });

  test('a blank title and the same branch twice are refused beside the form, keeping what was typed', async () => {
    const { branch } = await newBranch(open.id);
    const form = `${path}/merge_requests/new`;
    const blank = await submit(web.owner, form, `${path}/merge_requests`, {
      source_branch: branch,
      target_branch: 'master',
      title: ' ',
      description: 'kept <text>',
    });
    assert.equal(blank.status, 400);
    assert.match(blank.text, /id="title_error"[^>]*>Title can&#39;t be blank/);
    assert.match(blank.text, /kept &lt;text&gt;<\/textarea>/);
    assert.match(blank.text, new RegExp(`<option value="${branch}" selected>`));
    const same = await submit(web.owner, form, `${path}/merge_requests`, {
      source_branch: 'master',
      target_branch: 'master',
      title: 'Same',
    });
    assert.equal(same.status, 400);
    assert.match(same.text, /id="base_error"[^>]*>You can not use same project\/branch for source and target/);
    assert.match(same.text, /value="Same"/);
  });

  test('creates the merge request through the API service: the API sees it with its label', async () => {
    const { branch } = await newBranch(open.id);
    const answer = await submit(web.owner, `${path}/merge_requests/new`, `${path}/merge_requests`, {
      source_branch: branch,
      target_branch: 'master',
      title: 'Made on the web',
      description: 'Body',
      labels: 'review',
    });
    assert.equal(answer.status, 303);
    const iid = Number(answer.headers.get('location')!.split('/').pop());
    const mr = await api(`/merge_requests/${iid}`);
    assert.equal(mr.body.title, 'Made on the web');
    assert.equal(mr.body.source_branch, branch);
    assert.deepEqual(mr.body.labels, ['review']);
    assert.equal(mr.body.author.id, owner.user.id);
  });

  test('without a CSRF token the form is refused', async () => {
    const { branch } = await newBranch(open.id);
    const answer = await web.owner.post(`${path}/merge_requests`, { source_branch: branch, target_branch: 'master', title: 'No token' });
    assert.equal(answer.status, 403);
  });
});

describe('GET /:namespace/:project/merge_requests/:iid and its tabs', () => {
  let mr: any;
  let branch: string;
  let pipelineId: number;

  before(async () => {
    const other = await openMergeRequest();
    const opened = await openMergeRequest({ description: `Some **text**, after !${other.mr.iid}` });
    ({ mr, branch } = opened);
    pipelineId = (
      await seedPipeline(app, open.id, { sha: opened.head, ref: branch, status: 'success', builds: [{ name: 'test', status: 'success' }] })
    ).id;
  });

  test('shows the title, state, rendered description with references, branches, the pipeline, and the merge button', async () => {
    const page = await web.owner.get(`${path}/merge_requests/${mr.iid}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /<h1>Merge feature-\d+<\/h1>/);
    assert.match(page.text, /class="badge state-opened">Open/);
    assert.match(page.text, /<strong>text<\/strong>/);
    assert.match(page.text, new RegExp(`href="${path}/merge_requests/${mr.iid - 1}"[^>]*>!${mr.iid - 1}<`));
    assert.match(page.text, new RegExp(`<code class="source-branch">${branch}</code> into <code class="target-branch">master</code>`));
    assert.match(page.text, new RegExp(`href="${path}/pipelines/${pipelineId}">#${pipelineId}</a> <span class="ci-status ci-success">`));
    assert.match(page.text, /<button type="submit" class="primary">Merge<\/button>/);
    assert.match(page.text, /name="should_remove_source_branch"/);
    assert.match(page.text, /Close merge request/);
    assert.match(page.text, /name="note"/);
  });

  test('who may not merge sees no merge button, and anonymous visitors no comment form', async () => {
    const page = await web.anonymous.get(`${path}/merge_requests/${mr.iid}`);
    assert.equal(page.status, 200);
    assert.doesNotMatch(page.text, /action="[^"]*\/merge"/);
    assert.doesNotMatch(page.text, /Close merge request/);
    assert.doesNotMatch(page.text, /name="note"/);
  });

  test('the Commits tab lists the branch commits; the Changes tab renders the diff; …/changes leads to …/diffs', async () => {
    const commits = await web.anonymous.get(`${path}/merge_requests/${mr.iid}/commits`);
    assert.equal(commits.status, 200);
    assert.match(commits.text, new RegExp(`>Add ${branch}</a>`));
    assert.match(commits.text, /aria-current="page">Commits</);
    const diffs = await web.anonymous.get(`${path}/merge_requests/${mr.iid}/diffs`);
    assert.equal(diffs.status, 200);
    assert.match(diffs.text, new RegExp(`<strong>${branch}.txt</strong> <span class="badge">new file</span>`));
    assert.match(diffs.text, new RegExp(`\\+hello from ${branch}`));
    const changes = await web.anonymous.get(`${path}/merge_requests/${mr.iid}/changes`);
    assert.equal(changes.status, 301);
    assert.equal(changes.headers.get('location'), `${path}/merge_requests/${mr.iid}/diffs`);
    assert.equal((await web.anonymous.get(`${path}/merge_requests/999/diffs`)).status, 404);
  });

  test('a comment, close and reopen leave the same records as the API: the note, system notes, the state', async () => {
    const page = `${path}/merge_requests/${mr.iid}`;
    const commented = await submit(web.owner, page, `${page}/notes`, { note: 'A web comment' });
    assert.equal(commented.status, 303);
    assert.match(commented.headers.get('location')!, /#note_\d+$/);
    assert.equal((await submit(web.owner, page, `${page}/close`, {})).status, 303);
    assert.equal((await api(`/merge_requests/${mr.iid}`)).body.state, 'closed');
    const closed = await web.owner.get(page);
    assert.match(closed.text, /Reopen merge request/);
    assert.ok(closed.text.indexOf('A web comment') < closed.text.indexOf('Status changed to closed'));
    assert.equal((await submit(web.owner, page, `${page}/reopen`, {})).status, 303);
    assert.equal((await api(`/merge_requests/${mr.iid}`)).body.state, 'reopened');
    const notes = await api(`/merge_requests/${mr.iid}/notes`);
    assert.ok(notes.body.some((note: any) => note.body === 'A web comment' && note.author.id === owner.user.id));
    assert.ok(notes.body.some((note: any) => note.system && note.body === 'Status changed to reopened'));
  });

  test('a stranger may not close a merge request of a public project', async () => {
    const page = `${path}/merge_requests/${mr.iid}`;
    assert.notEqual((await submit(web.stranger, page, `${page}/close`, {})).status, 303);
    assert.equal((await api(`/merge_requests/${mr.iid}`)).body.state, 'reopened');
  });

  test('Merge merges the branch in git and removes the source branch when asked', async () => {
    const page = `${path}/merge_requests/${mr.iid}`;
    const merged = await submit(web.owner, page, `${page}/merge`, {
      should_remove_source_branch: '1',
      sha: (await api(`/merge_requests/${mr.iid}`)).body.sha,
    });
    assert.equal(merged.status, 303);
    const after = await api(`/merge_requests/${mr.iid}`);
    assert.equal(after.body.state, 'merged');
    const file = await api(`/repository/files/${branch}.txt?ref=master`);
    assert.equal(file.status, 200);
    assert.equal((await api(`/repository/branches/${branch}`)).status, 404);
    const shown = await web.owner.get(page);
    assert.match(shown.text, /class="badge state-merged">Merged/);
    assert.match(shown.text, new RegExp(`Merged by ${owner.user.name}`));
    assert.doesNotMatch(shown.text, /Close merge request/);
  });

  test('a merge refused (the source branch moved since the page) is shown on the page', async () => {
    const { mr: other, branch: otherBranch, head } = await openMergeRequest();
    await seedCommit(app, open.id, { branch: otherBranch, files: { 'more.txt': 'more\n' } });
    const page = `${path}/merge_requests/${other.iid}`;
    const refused = await submit(web.owner, page, `${page}/merge`, { sha: head });
    assert.equal(refused.status, 409);
    assert.match(refused.text, /The source branch changed since the page was shown/);
    assert.equal((await api(`/merge_requests/${other.iid}`)).body.state, 'opened');
  });

  test('merge when pipeline succeeds: offered while the head pipeline runs, set, then cancelled', async () => {
    const { mr: auto, branch: autoBranch, head } = await openMergeRequest();
    await seedPipeline(app, open.id, { sha: head, ref: autoBranch, status: 'running', builds: [{ name: 'test', status: 'running' }] });
    const page = `${path}/merge_requests/${auto.iid}`;
    const shown = await web.owner.get(page);
    assert.match(shown.text, /name="merge_when_pipeline_succeeds" value="1">Merge when pipeline succeeds</);
    const set = await submit(web.owner, page, `${page}/merge`, { merge_when_pipeline_succeeds: '1' });
    assert.equal(set.status, 303);
    const enabled = await api(`/merge_requests/${auto.iid}`);
    assert.equal(enabled.body.merge_when_pipeline_succeeds, true);
    assert.equal(enabled.body.state, 'opened');
    const waiting = await web.owner.get(page);
    assert.match(waiting.text, /Set to be merged automatically when the pipeline succeeds/);
    assert.match(waiting.text, />Cancel automatic merge</);
    assert.equal((await submit(web.owner, page, `${page}/cancel_merge_when_build_succeeds`, {})).status, 303);
    assert.equal((await api(`/merge_requests/${auto.iid}`)).body.merge_when_pipeline_succeeds, false);
    const notes = (await api(`/merge_requests/${auto.iid}/notes`)).body.map((note: any) => note.body);
    assert.ok(notes.some((body: string) => body.startsWith('Enabled an automatic merge')));
    assert.ok(notes.includes('Canceled the automatic merge'));
  });

  test('a work in progress shows no merge button', async () => {
    const { mr: wip } = await openMergeRequest({ title: 'WIP: not yet' });
    const page = await web.owner.get(`${path}/merge_requests/${wip.iid}`);
    assert.match(page.text, /Work in Progress/);
    assert.doesNotMatch(page.text, /action="[^"]*\/merge"/);
  });

  test('merge, comment and close without a CSRF token are refused', async () => {
    const { mr: target } = await openMergeRequest();
    const page = `${path}/merge_requests/${target.iid}`;
    for (const action of ['merge', 'close', 'notes', 'cancel_merge_when_build_succeeds'])
      assert.equal((await web.owner.post(`${page}/${action}`, { note: 'x' })).status, 403);
    assert.equal((await api(`/merge_requests/${target.iid}`)).body.state, 'opened');
  });
});

describe('privacy', () => {
  test('a private project: guests, non-members and anonymous visitors get 404, as for a missing project', async () => {
    const { mr } = await openMergeRequest({ title: 'Private merge request' }, secret.id);
    const missing = await web.anonymous.get(`/${owner.user.username}/nothing-here/merge_requests/1`);
    assert.equal(missing.status, 404);
    for (const suffix of [
      'merge_requests',
      `merge_requests/${mr.iid}`,
      `merge_requests/${mr.iid}/diffs`,
      `merge_requests/${mr.iid}/commits`,
    ]) {
      for (const client of [web.anonymous, web.stranger, web.guest]) {
        const page = await client.get(`${secretPath}/${suffix}`);
        assert.equal(page.status, 404, `${suffix}`);
        assert.doesNotMatch(page.text, /Private merge request/);
      }
    }
    const anonymous = await web.anonymous.get(`${secretPath}/merge_requests/${mr.iid}`);
    assert.equal(
      anonymous.text.replace(/name="authenticity_token" value="[^"]*"/g, ''),
      missing.text.replace(/name="authenticity_token" value="[^"]*"/g, ''),
    );
    const comment = await submit(web.guest, `/${guest.user.username}`, `${secretPath}/merge_requests/${mr.iid}/notes`, { note: 'sneaky' });
    assert.equal(comment.status, 404);
    assert.match((await web.owner.get(`${secretPath}/merge_requests/${mr.iid}`)).text, /Private merge request/);
    // The project's tabs do not offer merge requests to a guest of a private project.
    assert.doesNotMatch((await web.guest.get(secretPath)).text, />Merge Requests</);
  });
});
