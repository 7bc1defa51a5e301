import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startApp, type TestApp } from '../../support/app';
import { cloneUrl, git, tempDir, workTree } from '../../support/git';
import { eventually } from '../../support/eventually';
import { registeredRunner, buildRow } from '../../support/ci-world';
import { storedZip } from '../../support/zip';

const CI_YAML = `
stages: [build, test]
variables:
  GLOBAL: one
compile:
  stage: build
  script: make
  artifacts:
    name: binaries
    paths: [out/]
    expire_in: 1 week
unit:
  stage: test
  before_script: [npm ci]
  script: npm test
  variables:
    LOCAL: two
  dependencies: [compile]
`;

let app: TestApp;

before(async () => {
  app = await startApp();
});
after(async () => {
  await app.close();
});

/** A private project of root's, with `files` pushed over HTTP as root (so the push makes a pipeline). */
async function pushedProject(name: string, files: Record<string, string>): Promise<{ id: number; path: string; sha: string }> {
  const created = await app.root.post('/projects', { name });
  assert.equal(created.status, 201);
  const dir = await workTree('master', files);
  const pushed = await git(['push', '-q', cloneUrl(app.url, created.body.path_with_namespace, 'root', 'rootpassword'), 'master'], dir);
  assert.equal(pushed.code, 0, pushed.stderr);
  const sha = (await git(['rev-parse', 'HEAD'], dir)).stdout.trim();
  return { id: created.body.id, path: created.body.path_with_namespace, sha };
}

const clone = async (url: string) => git(['clone', '-q', url, path.join(tempDir(), 'checkout')]);

describe('a pushed .gitlab-ci.yml run by a gitlab-ci-multi-runner 1.6 client', () => {
  test("the runner gets the first stage's build, clones with gitlab-ci-token, streams its trace, uploads artifacts; the next stage downloads them", async () => {
    const p = await pushedProject('pipeline-e2e', { '.gitlab-ci.yml': CI_YAML, 'README.md': 'hi\n' });
    const runner = await registeredRunner(app, { projectId: p.id });

    const got: any = await eventually(
      async () => {
        const answer = await runner.requestBuild();
        return answer.outcome === 'build' ? answer : undefined;
      },
      { message: 'a build from the pushed pipeline' },
    );
    const compile = got.build;
    assert.equal(compile.payload.name, 'compile');
    assert.equal(compile.payload.sha, p.sha);
    assert.equal(compile.payload.commands, 'make');
    assert.deepEqual(compile.payload.options, { artifacts: { name: 'binaries', paths: ['out/'], expire_in: '1 week' } });
    assert.deepEqual(
      compile.payload.variables.filter((v: any) => v.key === 'GLOBAL'),
      [{ key: 'GLOBAL', value: 'one', public: true }],
    );

    // gitlab-ci-token: the running build's token clones its own project; another token does not.
    // (What else it may clone, its user's reach, is test/api/v4/job-token.test.ts's.)
    const cloned = await clone(compile.payload.repo_url);
    assert.equal(cloned.code, 0, cloned.stderr);
    assert.notEqual((await clone(cloneUrl(app.url, p.path, 'gitlab-ci-token', 'not-the-build-token'))).code, 0);

    assert.equal((await runner.updateState(compile, 'running')).status, 200);
    assert.equal((await runner.appendTrace(compile, 'Running with gitlab-ci-multi-runner 1.6.0 (c1ecf97f)\n')).status, 202);
    assert.equal((await runner.appendTrace(compile, '$ make\n')).status, 202);
    const zip = await storedZip({ 'out/app': 'binary\n' });
    const uploaded = await runner.uploadArtifacts(compile, zip, { name: 'binaries', expireIn: '1 week' });
    assert.equal(uploaded.status, 201);
    assert.equal((await runner.finish(compile, 'success')).status, 200);

    // Finished: its token no longer clones.
    assert.notEqual((await clone(compile.payload.repo_url)).code, 0);

    const next: any = await runner.requestBuild();
    assert.equal(next.outcome, 'build');
    const unit = next.build;
    assert.equal(unit.payload.name, 'unit');
    assert.equal(unit.payload.commands, 'npm ci\nnpm test');
    assert.deepEqual(unit.payload.options, { dependencies: ['compile'] });
    const yamlVariables = unit.payload.variables.filter((v: any) => ['GLOBAL', 'LOCAL'].includes(v.key));
    assert.deepEqual(yamlVariables, [
      { key: 'GLOBAL', value: 'one', public: true },
      { key: 'LOCAL', value: 'two', public: true },
    ]);
    const [dependency] = unit.payload.depends_on_builds;
    assert.equal(dependency.name, 'compile');
    assert.deepEqual(dependency.artifacts_file, { filename: 'binaries.zip', size: zip.length });
    const download = await runner.downloadArtifacts(dependency);
    assert.equal(download.status, 200);
    assert.deepEqual(download.bytes, zip);

    assert.equal((await runner.finish(unit, 'success', 'ok\n')).status, 200);
    const pipeline = await app.ctx.db.selectFrom('ci_pipelines').select('status').where('project_id', '=', p.id).executeTakeFirstOrThrow();
    assert.equal(pipeline.status, 'success');
    assert.equal((await buildRow(app, compile.id)).status, 'success');
    assert.equal((await runner.requestBuild()).outcome, 'nothing');
  });

  test('a build canceled while running: the runner learns it from Build-Status on its next part and 404 on its PUT', async () => {
    const p = await pushedProject('cancel-e2e', { '.gitlab-ci.yml': 'job:\n  script: sleep 100\n' });
    const runner = await registeredRunner(app, { projectId: p.id });
    const got: any = await eventually(async () => {
      const answer = await runner.requestBuild();
      return answer.outcome === 'build' ? answer : undefined;
    });
    const build = got.build;
    const canceled = await app.root.post(`/projects/${p.id}/builds/${build.id}/cancel`);
    if (canceled.status !== 201) {
      // The consumer API's cancel is another engineer's; cancel through the state machine meanwhile.
      const { transitionBuild } = await import('../../../src/services/ci/builds/transitions');
      const { inTransaction } = await import('../../../src/db/transaction');
      const ctx = app.ctx;
      const row = await buildRow(app, build.id);
      await inTransaction(ctx.db, (trx) => transitionBuild(ctx, trx, row, 'cancel'));
    }
    const part = await runner.appendTrace(build, 'still going\n');
    assert.equal(part.headers.get('build-status'), 'canceled');
    assert.equal((await runner.finish(build, 'failed')).status, 404);
    assert.equal((await buildRow(app, build.id)).status, 'canceled');
  });
});
