import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { grantProjectRole } from '../support/roles';
import { seedCommit } from '../support/repo';
import { seedPipeline } from '../support/ci';
import { WebClient } from '../support/web';

/** Review basics on a merge request's pages: "looks good" (👍 through the award emoji service) and the head pipeline's jobs. */
let app: TestApp;
type Account = Awaited<ReturnType<TestApp['createUser']>>;
let owner: Account;
let reviewer: Account;
let open: any;
let secret: any;
let web: Record<'anonymous' | 'owner' | 'reviewer', WebClient>;
let branches = 0;

async function signedIn(account: Account): Promise<WebClient> {
  const client = new WebClient(app.url);
  assert.equal((await client.signIn(account.user.username, account.password)).status, 303);
  return client;
}

/** A merge request of a new branch, opened by the owner through the API; its page's path and its head. */
async function openMergeRequest(project = open) {
  const branch = `review-${++branches}`;
  const head = await seedCommit(app, project.id, { branch, startRef: 'refs/heads/master', files: { [`${branch}.txt`]: 'hi\n' } });
  const created = await owner.client
    .v4()
    .post(`/projects/${project.id}/merge_requests`, { source_branch: branch, target_branch: 'master', title: `Merge ${branch}` });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return { mr: created.body, branch, head, path: `${new URL(project.web_url).pathname}/merge_requests/${created.body.iid}` };
}

const awards = async (projectId: number, iid: number) =>
  (await owner.client.v4().get(`/projects/${projectId}/merge_requests/${iid}/award_emoji`)).body.map(
    (award: any) => `${award.name}:${award.user.username}`,
  );

before(async () => {
  app = await startApp();
  owner = await app.createUser();
  reviewer = await app.createUser();
  open = (await owner.client.post('/projects', { name: 'looked-at', visibility_level: 20 })).body;
  secret = (await owner.client.post('/projects', { name: 'hidden-looked-at', visibility_level: 0 })).body;
  for (const project of [open, secret]) await seedCommit(app, project.id, { files: { 'README.md': 'hello\n' } });
  await grantProjectRole(app, open.id, reviewer.user.id, 30);
  web = { anonymous: new WebClient(app.url), owner: await signedIn(owner), reviewer: await signedIn(reviewer) };
});
after(() => app?.close());

describe('"Looks good" on …/merge_requests/:iid/diffs', () => {
  test('gives 👍 as the API’s award emoji does, and a second press takes it back', async () => {
    const { mr, path } = await openMergeRequest();
    const page = await web.reviewer.get(`${path}/diffs`);
    assert.match(page.text, /👍 Looks good/);
    const token = WebClient.csrfToken(page.text);
    const given = await web.reviewer.post(`${path}/toggle_award_emoji`, { authenticity_token: token, name: 'thumbsup' });
    assert.equal(given.status, 303);
    assert.equal(given.headers.get('location'), `${path}/diffs`);
    assert.deepEqual(await awards(open.id, mr.iid), [`thumbsup:${reviewer.user.username}`]);
    assert.equal((await owner.client.v4().get(`/projects/${open.id}/merge_requests/${mr.iid}`)).body.upvotes, 1);
    const after = await web.reviewer.get(`${path}/diffs`);
    assert.match(after.text, /aria-pressed="true">You said it looks good \(undo\)/);
    await web.reviewer.post(`${path}/toggle_award_emoji`, { authenticity_token: token, name: 'thumbsup' });
    assert.deepEqual(await awards(open.id, mr.iid), []);
  });

  test('the author sees the count, no button; a visitor neither button nor write', async () => {
    const { mr, path } = await openMergeRequest();
    const own = await web.owner.get(`${path}/diffs`);
    assert.match(own.text, /👍 0/);
    assert.doesNotMatch(own.text, /Looks good<\/button>/);
    const token = WebClient.csrfToken(own.text);
    // The service refuses a vote on one's own merge request, as the API does.
    assert.equal((await web.owner.post(`${path}/toggle_award_emoji`, { authenticity_token: token, name: 'thumbsup' })).status, 404);
    const anonymous = await web.anonymous.get(`${path}/diffs`);
    assert.doesNotMatch(anonymous.text, /Looks good<\/button>/);
    assert.equal((await web.anonymous.post(`${path}/toggle_award_emoji`, { name: 'thumbsup' })).status, 403);
    assert.deepEqual(await awards(open.id, mr.iid), []);
  });

  test('without the form’s token: 403, nothing awarded', async () => {
    const { mr, path } = await openMergeRequest();
    assert.equal((await web.reviewer.post(`${path}/toggle_award_emoji`, { name: 'thumbsup' })).status, 403);
    assert.deepEqual(await awards(open.id, mr.iid), []);
  });

  test('a private project’s merge request: 404 to those who may not read it', async () => {
    const { path } = await openMergeRequest(secret);
    const token = WebClient.csrfToken((await web.reviewer.get('/explore/projects')).text);
    assert.equal((await web.reviewer.get(`${path}/diffs`)).status, 404);
    assert.equal((await web.reviewer.post(`${path}/toggle_award_emoji`, { authenticity_token: token, name: 'thumbsup' })).status, 404);
  });
});

describe('The head pipeline’s jobs on …/merge_requests/:iid', () => {
  test('by stage, each linking to its build page; a retried job’s earlier try hidden', async () => {
    const { branch, head, path } = await openMergeRequest();
    const pipeline = await seedPipeline(app, open.id, {
      sha: head,
      ref: branch,
      status: 'running',
      builds: [
        { name: 'rspec', status: 'failed', stage: 'test', stage_idx: 1 },
        { name: 'compile', status: 'success', stage: 'build', stage_idx: 0 },
        { name: 'rspec', status: 'running', stage: 'test', stage_idx: 1 },
        { name: 'ship <it>', status: 'created', stage: 'deploy', stage_idx: 2 },
      ],
    });
    const [oldTry, compile, retry, ship] = pipeline.builds;
    const page = (await web.anonymous.get(path)).text;
    const projectPath = new URL(open.web_url).pathname;
    assert.match(page, /<h2 id="pipeline-jobs">Jobs<\/h2>/);
    const order = ['build', 'test', 'deploy'].map((stage) => page.indexOf(`<h3>${stage}</h3>`));
    assert.ok(
      order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1])),
      String(order),
    );
    for (const id of [compile, retry, ship]) assert.match(page, new RegExp(`href="${projectPath}/builds/${id}"`));
    assert.doesNotMatch(page, new RegExp(`href="${projectPath}/builds/${oldTry}"`));
    assert.match(page, /ship &lt;it&gt;/);
  });

  test('no pipeline, no jobs section', async () => {
    const { path } = await openMergeRequest();
    assert.doesNotMatch((await web.anonymous.get(path)).text, /pipeline-jobs/);
  });

  test('builds not public: the jobs are shown to members only', async () => {
    await owner.client.put(`/projects/${open.id}`, { public_builds: false });
    try {
      const { branch, head, path } = await openMergeRequest();
      await seedPipeline(app, open.id, { sha: head, ref: branch, status: 'success', builds: [{ name: 'lint', status: 'success' }] });
      assert.doesNotMatch((await web.anonymous.get(path)).text, /pipeline-jobs/);
      assert.match((await web.reviewer.get(path)).text, /<h2 id="pipeline-jobs">/);
    } finally {
      await owner.client.put(`/projects/${open.id}`, { public_builds: true });
    }
  });
});
