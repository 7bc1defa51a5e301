import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { cloneUrl, commit, git, workTree } from '../../support/git';
import { createProjectWorld, type ProjectWorld } from '../../support/project-world';
import { createMergeRequest, mergeRequestRow } from '../../support/merge-requests';
import { registeredRunner } from '../../support/ci-world';
import { eventually } from '../../support/eventually';
import type { RunnerClient, RunningBuild } from '../../support/runner-client';

// One build, on every branch but master: the merge request's pipeline is the only one a runner sees.
const CI_YAML = 'test:\n  script: make test\n  except: [master]\n';

let app: TestApp;

before(async () => {
  app = await startApp();
});
after(async () => {
  await app.close();
});

type World = ProjectWorld<'master' | 'developer' | 'reporter'>;

interface Scene {
  w: World;
  runner: RunnerClient;
  mr: { id: number; iid: number };
  at: string;
  /** The working copy, with `feature` checked out and `origin` the project. */
  dir: string;
  feature: string;
}

/** master (with the CI file) and `feature` pushed over HTTP by the owner, so `feature` has a pipeline; a merge request of it by the developer. */
async function scene(): Promise<Scene> {
  const w: World = await createProjectWorld(app, { roles: ['master', 'developer', 'reporter'] as const });
  const dir = await workTree('master', { '.gitlab-ci.yml': CI_YAML, 'README.md': 'hello\n' });
  await git(['remote', 'add', 'origin', cloneUrl(app.url, w.path, w.owner.user.username, w.owner.token)], dir);
  assert.equal((await git(['push', '-q', 'origin', 'master'], dir)).code, 0);
  await git(['checkout', '-q', '-b', 'feature'], dir);
  await commit(dir, { 'feature.txt': 'new\n' }, 'Add the feature');
  const pushed = await git(['push', '-q', 'origin', 'feature'], dir);
  assert.equal(pushed.code, 0, pushed.stderr);
  const feature = (await git(['rev-parse', 'HEAD'], dir)).stdout.trim();
  const runner = await registeredRunner(app, { projectId: w.id });
  const mr = await createMergeRequest(app, { targetProjectId: w.id, sourceBranch: 'feature', authorId: w.developer.user.id });
  return { w, runner, mr, at: `/projects/${w.id}/merge_requests/${mr.id}`, dir, feature };
}

/** The next build the runner is given (waiting for push processing to make the pipeline). */
async function nextBuild(runner: RunnerClient): Promise<RunningBuild> {
  const got = await eventually(
    async () => {
      const answer = await runner.requestBuild();
      return answer.outcome === 'build' ? answer.build : undefined;
    },
    { message: 'a build for the runner' },
  );
  return got;
}

/** Waits until no merge request job is left in the queue: what a pipeline change set off has run. */
async function mergeRequestJobsDone(): Promise<void> {
  await eventually(
    async () => {
      const left = await app.ctx.db
        .selectFrom('jobs')
        .select('id')
        .where('kind', 'like', 'merge_requests.%')
        .where('locked_by', 'is distinct from', 'failed')
        .execute();
      return left.length === 0;
    },
    { message: 'merge request jobs done' },
  );
}

function buildFailedTodos(mergeRequestId: number) {
  return app.ctx.db
    .selectFrom('todos')
    .selectAll()
    .where('target_type', '=', 'MergeRequest')
    .where('target_id', '=', mergeRequestId)
    .where('action', '=', 3)
    .execute();
}

async function systemNotes(mergeRequestId: number): Promise<string[]> {
  const rows = await app.ctx.db
    .selectFrom('notes')
    .select('note')
    .where('noteable_type', '=', 'MergeRequest')
    .where('noteable_id', '=', mergeRequestId)
    .where('system', '=', 1)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.note);
}

describe('merge_when_build_succeeds', () => {
  test('with the head pipeline running, PUT merge answers 200 with merge_when_build_succeeds and merges when the runner reports success', async () => {
    const { w, runner, at, mr, feature } = await scene();
    const build = await nextBuild(runner);
    assert.equal(build.payload.sha, feature);
    assert.equal((await runner.updateState(build, 'running')).status, 200);

    const asked = await w.master.client.put(`${at}/merge`, { merge_when_build_succeeds: true, merge_commit_message: 'Merged when green' });
    assert.equal(asked.status, 200, JSON.stringify(asked.body));
    assert.equal(asked.body.merge_when_build_succeeds, true);
    assert.equal(asked.body.state, 'opened');
    assert.equal(asked.body.merge_commit_sha, null);
    assert.ok((await systemNotes(mr.id)).includes(`Enabled an automatic merge when the build for ${feature} succeeds`));

    assert.equal((await runner.finish(build, 'success', 'ok\n')).status, 200);
    const merged = await eventually(
      async () => {
        const answer = await w.reporter.client.get(`${at}/changes`);
        return answer.body.state === 'merged' ? answer.body : undefined;
      },
      { message: 'merged after the pipeline succeeded' },
    );
    assert.equal(merged.merge_when_build_succeeds, false);
    const log = await git(['--git-dir', app.services.repositories.path(w.id), 'log', '-1', '--format=%P%n%an%n%B', 'master']);
    const [parents, author, ...message] = log.stdout.trim().split('\n');
    assert.equal(parents.split(' ')[1], feature);
    assert.equal(author, w.master.user.name);
    assert.equal(message.join('\n').trim(), 'Merged when green');
  });

  test('without an active pipeline the merge is made at once', async () => {
    const { w, runner, at } = await scene();
    const build = await nextBuild(runner);
    assert.equal((await runner.finish(build, 'success')).status, 200);
    await eventually(
      async () =>
        (
          await app.ctx.db
            .selectFrom('ci_pipelines')
            .select('status')
            .where(
              'id',
              '=',
              (
                await app.ctx.db.selectFrom('ci_builds').select('pipeline_id').where('id', '=', build.id).executeTakeFirstOrThrow()
              ).pipeline_id,
            )
            .executeTakeFirstOrThrow()
        ).status === 'success',
    );
    const answer = await w.master.client.put(`${at}/merge`, { merge_when_build_succeeds: true });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.state, 'merged');
  });

  test('POST …/cancel_merge_when_build_succeeds answers 201 with the merge request, notes it, and the success merges nothing', async () => {
    const { w, runner, at, mr } = await scene();
    const build = await nextBuild(runner);
    assert.equal((await w.master.client.put(`${at}/merge`, { merge_when_build_succeeds: true })).body.merge_when_build_succeeds, true);
    assert.equal((await w.reporter.client.post(`${at}/cancel_merge_when_build_succeeds`, {})).status, 401);
    const cancelled = await w.master.client.post(`/projects/${w.id}/merge_request/${mr.id}/cancel_merge_when_build_succeeds`, {});
    assert.equal(cancelled.status, 201, JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.merge_when_build_succeeds, false);
    assert.equal(cancelled.body.id, mr.id);
    assert.ok((await systemNotes(mr.id)).includes('Canceled the automatic merge'));
    assert.equal((await runner.finish(build, 'success')).status, 200);
    await mergeRequestJobsDone();
    assert.equal((await mergeRequestRow(app, mr.id)).state, 'opened');
  });

  test('the author may cancel too', async () => {
    const { w, runner, at } = await scene();
    await nextBuild(runner);
    await w.master.client.put(`${at}/merge`, { merge_when_build_succeeds: true });
    const cancelled = await w.developer.client.post(`${at}/cancel_merge_when_build_succeeds`, {});
    assert.equal(cancelled.status, 201);
    assert.equal(cancelled.body.merge_when_build_succeeds, false);
  });

  test('a push to the source branch cancels the automatic merge', async () => {
    const { w, runner, at, mr, dir } = await scene();
    await nextBuild(runner);
    await w.master.client.put(`${at}/merge`, { merge_when_build_succeeds: true });
    await commit(dir, { 'more.txt': 'more\n' }, 'More');
    assert.equal((await git(['push', '-q', 'origin', 'feature'], dir)).code, 0);
    await eventually(async () => (await mergeRequestRow(app, mr.id)).merge_when_build_succeeds === 0, { message: 'cancelled by the push' });
    assert.ok((await systemNotes(mr.id)).includes('Canceled the automatic merge'));
    assert.equal((await mergeRequestRow(app, mr.id)).state, 'opened');
  });
});

describe('only_allow_merge_if_build_succeeds, and build_failed todos', () => {
  test('405 while the head pipeline runs or failed; the author gets a build_failed todo on failure, done on retry; 200 once green', async () => {
    const { w, runner, at, mr } = await scene();
    assert.equal((await w.owner.client.put(`/projects/${w.id}`, { only_allow_merge_if_build_succeeds: true })).status, 200);
    const build = await nextBuild(runner);
    assert.equal((await runner.updateState(build, 'running')).status, 200);
    assert.equal((await w.master.client.put(`${at}/merge`, {})).status, 405);

    assert.equal((await runner.finish(build, 'failed')).status, 200);
    const todo = await eventually(
      async () => {
        const listed = await w.developer.client.get('/todos', { action: 'build_failed', type: 'MergeRequest' });
        return listed.body.length > 0 ? listed.body[0] : undefined;
      },
      { message: 'a build_failed todo for the author' },
    );
    assert.equal(todo.action_name, 'build_failed');
    assert.equal(todo.state, 'pending');
    assert.equal(todo.project.id, w.id);
    assert.equal(todo.target_type, 'MergeRequest');
    assert.equal(todo.target.id, mr.id);
    assert.equal((await w.master.client.put(`${at}/merge`, {})).status, 405);

    const retried = await w.master.client.post(`/projects/${w.id}/builds/${build.id}/retry`, {});
    assert.equal(retried.status, 201, JSON.stringify(retried.body));
    await eventually(async () => (await buildFailedTodos(mr.id)).every((row) => row.state === 'done'), {
      message: 'the todo done after the retry',
    });
    assert.equal((await buildFailedTodos(mr.id)).length, 1);

    const again = await nextBuild(runner);
    assert.equal((await runner.finish(again, 'success')).status, 200);
    const merged = await eventually(
      async () => {
        const answer = await w.master.client.put(`${at}/merge`, {});
        return answer.status === 200 ? answer : undefined;
      },
      { message: 'mergeable once green' },
    );
    assert.equal(merged.body.state, 'merged');
  });
});
