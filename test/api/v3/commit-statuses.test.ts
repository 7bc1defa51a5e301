import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createProjectWorld, type Person } from '../../support/project-world';
import { seedCommit } from '../../support/repo';
import type { ApiClient } from '../../support/client';
import { createBranch, deleteBranch } from '../../../src/git/write';
import { repoPathOf } from '../../../src/services/repository/repositories';
import { ensurePipeline } from '../../../src/services/ci/pipelines/commit-statuses';

let app: TestApp;
let owner: Person;
let developer: Person;
let reporter: ApiClient;
let guest: ApiClient;
let outsider: ApiClient;
let projectId: number;
/** The commit on master and develop that carries GitLab's six fixture statuses. */
let sha: string;
let fixture: Record<'S1' | 'S2' | 'S3' | 'S4' | 'S5' | 'S6', number>;

const repoPath = () => repoPathOf(app.ctx, projectId);

/** A status or build written straight into the database, as GitLab's factories do. */
async function insertStatus(
  pipelineId: number,
  values: { name: string; ref: string; status: string; allow_failure?: 0 | 1; type?: string; stage?: string },
): Promise<number> {
  const time = new Date().toISOString();
  const row = await app.ctx.db
    .insertInto('ci_builds')
    .values({
      project_id: projectId,
      pipeline_id: pipelineId,
      type: values.type ?? 'GenericCommitStatus',
      name: values.name,
      stage: values.stage ?? 'external',
      stage_idx: 0,
      ref: values.ref,
      tag: 0,
      status: values.status,
      allow_failure: values.allow_failure ?? 0,
      when: 'on_success',
      user_id: developer.user.id,
      options: '',
      yaml_variables: '',
      created_at: time,
      updated_at: time,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

before(async () => {
  app = await startApp();
  const world = await createProjectWorld(app, { name: 'statuses', visibility: 0, roles: ['developer', 'reporter', 'guest', 'stranger'] });
  projectId = world.id;
  ({ owner, developer } = world);
  reporter = world.reporter.client;
  guest = world.guest.client;
  outsider = world.stranger.client;

  sha = await seedCommit(app, projectId, { files: { 'README.md': '# statuses\n' } });
  await createBranch(app.ctx.git, repoPath(), 'develop', sha);
  const [master, develop] = await app.ctx.db
    .transaction()
    .execute(async (trx) => [
      await ensurePipeline(trx, projectId, sha, 'master', developer.user.id),
      await ensurePipeline(trx, projectId, sha, 'develop', developer.user.id),
    ]);
  fixture = {
    S1: await insertStatus(master.id, { name: 'default', ref: 'master', status: 'running' }),
    S2: await insertStatus(master.id, { name: 'coverage', ref: 'master', status: 'pending' }),
    S3: await insertStatus(develop.id, { name: 'default', ref: 'develop', status: 'running', allow_failure: 1 }),
    S4: await insertStatus(master.id, { name: 'coverage', ref: 'master', status: 'success' }),
    S5: await insertStatus(develop.id, { name: 'coverage', ref: 'develop', status: 'success' }),
    S6: await insertStatus(master.id, { name: 'default', ref: 'master', status: 'success' }),
  };
});
after(() => app.close());

const listPath = (commit = sha, id = projectId) => `/projects/${id}/repository/commits/${commit}/statuses`;
const postPath = (commit: string, id = projectId) => `/projects/${id}/statuses/${commit}`;
const ids = (body: any[]) => body.map((status) => status.id);

describe('GET /projects/:id/repository/commits/:sha/statuses', () => {
  test('lists the latest status of each name in each pipeline, by id, paginated', async () => {
    const response = await reporter.get(listPath());
    assert.equal(response.status, 200);
    assert.deepEqual(ids(response.body), [fixture.S3, fixture.S4, fixture.S5, fixture.S6]);
    assert.deepEqual(
      response.body.map((s: any) => s.allow_failure),
      [true, false, false, false],
    );
    assert.equal(response.headers.get('x-total'), '4');
    const first = response.body[0];
    assert.deepEqual(Object.keys(first), [
      'id',
      'sha',
      'ref',
      'status',
      'name',
      'target_url',
      'description',
      'created_at',
      'started_at',
      'finished_at',
      'allow_failure',
      'author',
    ]);
    assert.equal(first.sha, sha);
    assert.equal(first.ref, 'develop');
    assert.equal(first.author.id, developer.user.id);

    const page = await reporter.get(listPath(), { per_page: 3, page: 2 });
    assert.deepEqual(ids(page.body), [fixture.S6]);
    assert.equal(page.headers.get('x-total-pages'), '2');
  });

  test('all=true lists every status', async () => {
    const response = await reporter.get(listPath(), { all: 'true' });
    assert.deepEqual(ids(response.body), [fixture.S1, fixture.S2, fixture.S3, fixture.S4, fixture.S5, fixture.S6]);
  });

  test('ref (or ref_name) filters by ref', async () => {
    for (const key of ['ref', 'ref_name']) {
      const response = await reporter.get(listPath(), { [key]: 'develop' });
      assert.deepEqual(ids(response.body), [fixture.S3, fixture.S5], key);
    }
  });

  test('without a ref, the statuses of the default branch are listed (the spec)', async () => {
    const setDefault = (branch: string | null) =>
      app.ctx.db.updateTable('projects').set({ default_branch: branch }).where('id', '=', projectId).execute();
    await setDefault('master');
    try {
      const response = await reporter.get(listPath());
      assert.deepEqual(ids(response.body), [fixture.S4, fixture.S6]);
    } finally {
      await setDefault(null);
    }
  });

  test('name filters by name', async () => {
    const response = await reporter.get(listPath(), { name: 'coverage' });
    assert.deepEqual(ids(response.body), [fixture.S4, fixture.S5]);
  });

  test('builds of the commit appear next to external statuses; stage filters by stage', async () => {
    const pipeline = await app.ctx.db
      .selectFrom('ci_pipelines')
      .select('id')
      .where('project_id', '=', projectId)
      .where('ref', '=', 'master')
      .executeTakeFirstOrThrow();
    const build = await insertStatus(pipeline.id, { name: 'rspec', ref: 'master', status: 'failed', type: 'Build', stage: 'test' });
    try {
      const all = await reporter.get(listPath());
      assert.deepEqual(ids(all.body), [fixture.S3, fixture.S4, fixture.S5, fixture.S6, build]);
      const staged = await reporter.get(listPath(), { stage: 'test' });
      assert.deepEqual(ids(staged.body), [build]);
    } finally {
      await app.ctx.db.deleteFrom('ci_builds').where('id', '=', build).execute();
    }
  });

  test('a commit without pipelines has no statuses', async () => {
    const other = await seedCommit(app, projectId, { branch: 'lonely', startRef: sha, files: { 'x.txt': 'x\n' } });
    const response = await reporter.get(listPath(other));
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, []);
  });

  test('the commit may be named by a branch or a short sha', async () => {
    const byBranch = await reporter.get(listPath('develop'));
    assert.deepEqual(ids(byBranch.body), [fixture.S3, fixture.S4, fixture.S5, fixture.S6]);
    const byShortSha = await reporter.get(listPath(sha.slice(0, 8)));
    assert.equal(byShortSha.body.length, 4);
  });

  test('an unknown commit answers 404 Commit Not Found', async () => {
    const response = await reporter.get(listPath('0123456789abcdef0123456789abcdef01234567'));
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 Commit Not Found' });
  });

  test('guests of a private project get 403, outsiders 404, anonymous callers 401', async () => {
    assert.deepEqual([(await guest.get(listPath())).status, (await guest.get(listPath())).body], [403, { message: '403 Forbidden' }]);
    const hidden = await outsider.get(listPath());
    assert.deepEqual([hidden.status, hidden.body], [404, { message: '404 Project Not Found' }]);
    assert.equal((await app.anonymous.get(listPath())).status, 401);
  });

  test('any signed-in user reads the statuses of a public project; anonymous callers still get 401', async () => {
    const created = await owner.client.post('/projects', { name: 'public statuses', visibility_level: 20 });
    const commit = await seedCommit(app, created.body.id, { files: { 'a.txt': 'a\n' } });
    const response = await outsider.get(listPath(commit, created.body.id));
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, []);
    assert.equal((await app.anonymous.get(listPath(commit, created.body.id))).status, 401);
  });
});

describe('POST /projects/:id/statuses/:sha', () => {
  for (const state of ['pending', 'running', 'success', 'failed', 'canceled']) {
    test(`state ${state} adds a status named default on the first branch holding the commit`, async () => {
      const commit = await seedCommit(app, projectId, {
        branch: `only-${state}`,
        startRef: sha,
        files: { [`${state}.txt`]: `${state}\n` },
      });
      const response = await developer.client.post(postPath(commit), { state });
      assert.equal(response.status, 201, JSON.stringify(response.body));
      assert.equal(response.body.sha, commit);
      assert.equal(response.body.status, state);
      assert.equal(response.body.name, 'default');
      assert.equal(response.body.ref, `only-${state}`);
      assert.equal(response.body.target_url, null);
      assert.equal(response.body.description, null);
      assert.equal(response.body.allow_failure, false);
      assert.equal(response.body.author.id, developer.user.id);
      assert.equal(response.body.started_at !== null, state === 'running');
      assert.equal(response.body.finished_at !== null, ['success', 'failed', 'canceled'].includes(state));
    });
  }

  for (const state of ['running', 'success', 'failed', 'canceled']) {
    test(`after pending, posting ${state} moves the same status on (no new record)`, async () => {
      const commit = await seedCommit(app, projectId, { branch: `moved-${state}`, startRef: sha, files: { 'm.txt': state } });
      const pending = await developer.client.post(postPath(commit), { state: 'pending' });
      const moved = await developer.client.post(postPath(commit), { state });
      assert.equal(moved.status, 201, JSON.stringify(moved.body));
      assert.equal(moved.body.id, pending.body.id);
      assert.equal(moved.body.status, state);
      const all = await reporter.get(listPath(commit), { all: true });
      assert.deepEqual(ids(all.body), [pending.body.id]);
    });
  }

  test('a running status gets started_at, and finished_at when it ends', async () => {
    const commit = await seedCommit(app, projectId, { branch: 'timed', startRef: sha, files: { 't.txt': 't\n' } });
    const running = await developer.client.post(postPath(commit), { state: 'running' });
    assert.notEqual(running.body.started_at, null);
    assert.equal(running.body.finished_at, null);
    const done = await developer.client.post(postPath(commit), { state: 'success' });
    assert.equal(done.body.id, running.body.id);
    assert.equal(done.body.started_at, running.body.started_at);
    assert.notEqual(done.body.finished_at, null);
  });

  test('a finished status is not reused: posting again adds a new one', async () => {
    const commit = await seedCommit(app, projectId, { branch: 'twice', startRef: sha, files: { 'w.txt': 'w\n' } });
    const first = await developer.client.post(postPath(commit), { state: 'success' });
    const second = await developer.client.post(postPath(commit), { state: 'failed' });
    assert.notEqual(second.body.id, first.body.id);
    const latest = await reporter.get(listPath(commit));
    assert.deepEqual(
      latest.body.map((s: any) => [s.id, s.status]),
      [[second.body.id, 'failed']],
    );
  });

  test("an impossible transition answers 400 with the state machine's message", async () => {
    const commit = await seedCommit(app, projectId, { branch: 'impossible', startRef: sha, files: { 'i.txt': 'i\n' } });
    await developer.client.post(postPath(commit), { state: 'pending' });
    const again = await developer.client.post(postPath(commit), { state: 'pending' });
    assert.equal(again.status, 400);
    assert.deepEqual(again.body, {
      message: 'Cannot transition status via :enqueue from :pending (Reason(s): Status cannot transition via "enqueue")',
    });
    await developer.client.post(postPath(commit), { state: 'running' });
    const running = await developer.client.post(postPath(commit), { state: 'running' });
    assert.deepEqual(
      [running.status, running.body],
      [400, { message: 'Cannot transition status via :run from :running (Reason(s): Status cannot transition via "run")' }],
    );
  });

  test('context, ref, target_url and description are taken and echoed', async () => {
    const response = await developer.client.post(postPath(sha), {
      state: 'success',
      context: 'coverage',
      ref: 'develop',
      target_url: 'http://ci.example.com/1',
      description: 'test',
    });
    assert.equal(response.status, 201);
    assert.equal(response.body.name, 'coverage');
    assert.equal(response.body.ref, 'develop');
    assert.equal(response.body.target_url, 'http://ci.example.com/1');
    assert.equal(response.body.description, 'test');
    await app.ctx.db.deleteFrom('ci_builds').where('id', '=', response.body.id).execute();
  });

  test('name wins over context; the commit may be named by its branch', async () => {
    const commit = await seedCommit(app, projectId, { branch: 'named', startRef: sha, files: { 'n.txt': 'n\n' } });
    const response = await developer.client.form('POST', postPath('named'), { state: 'pending', name: 'lint', context: 'ignored' });
    assert.equal(response.status, 201);
    assert.equal(response.body.name, 'lint');
    assert.equal(response.body.sha, commit);
  });

  test('the pipeline of the commit and ref follows its statuses', async () => {
    const commit = await seedCommit(app, projectId, { branch: 'piped', startRef: sha, files: { 'p.txt': 'p\n' } });
    const pipelineStatus = async () =>
      await app.ctx.db
        .selectFrom('ci_pipelines')
        .select(['status', 'started_at', 'finished_at'])
        .where('sha', '=', commit)
        .executeTakeFirstOrThrow();
    await developer.client.post(postPath(commit), { state: 'pending' });
    assert.equal((await pipelineStatus()).status, 'pending');
    await developer.client.post(postPath(commit), { state: 'running' });
    assert.equal((await pipelineStatus()).status, 'running');
    assert.notEqual((await pipelineStatus()).started_at, null);
    await developer.client.post(postPath(commit), { state: 'running', name: 'other' });
    await developer.client.post(postPath(commit), { state: 'failed' });
    assert.equal((await pipelineStatus()).status, 'running');
    await developer.client.post(postPath(commit), { state: 'success', name: 'other' });
    const finished = await pipelineStatus();
    assert.equal(finished.status, 'failed');
    assert.notEqual(finished.finished_at, null);
  });

  test('a missing state answers 400 "state" not given; an unknown one 400 invalid state', async () => {
    const missing = await developer.client.post(postPath(sha), {});
    assert.deepEqual([missing.status, missing.body], [400, { message: '400 (Bad request) "state" not given' }]);
    const invalid = await developer.client.post(postPath(sha), { state: 'invalid' });
    assert.deepEqual([invalid.status, invalid.body], [400, { message: 'invalid state' }]);
  });

  test('an unknown commit answers 404 Commit Not Found', async () => {
    const response = await developer.client.post(postPath('invalid_sha'), { state: 'success' });
    assert.deepEqual([response.status, response.body], [404, { message: '404 Commit Not Found' }]);
  });

  test('without ref, a commit on no branch answers 404 References for commit Not Found', async () => {
    const orphan = await seedCommit(app, projectId, { branch: 'doomed', startRef: sha, files: { 'd.txt': 'd\n' } });
    await deleteBranch(repoPath(), 'doomed');
    const response = await developer.client.post(postPath(orphan), { state: 'success' });
    assert.deepEqual([response.status, response.body], [404, { message: '404 References for commit Not Found' }]);
    const withRef = await developer.client.post(postPath(orphan), { state: 'success', ref: 'doomed' });
    assert.equal(withRef.status, 201);
  });

  test('reporters and guests get 403, outsiders 404, anonymous callers 401', async () => {
    for (const client of [reporter, guest]) {
      const response = await client.post(postPath(sha), { state: 'success' });
      assert.deepEqual([response.status, response.body], [403, { message: '403 Forbidden' }]);
    }
    assert.equal((await outsider.post(postPath(sha), { state: 'success' })).status, 404);
    assert.equal((await app.anonymous.post(postPath(sha), { state: 'success' })).status, 401);
  });
});
