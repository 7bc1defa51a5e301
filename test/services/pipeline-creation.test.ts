import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { createProject } from '../support/create';
import { seedCommit } from '../support/repo';
import { processPush } from '../../src/services/repository/push-processing';

const ZERO = '0'.repeat(40);

const THREE_STAGES = `
stages: [build, test, deploy]
variables:
  GLOBAL: one
compile:
  stage: build
  script: make
  artifacts:
    paths: [out/]
    expire_in: 1 week
lint:
  stage: test
  script: [make lint]
  allow_failure: true
  tags: [docker]
unit:
  stage: test
  image: node:20
  before_script: [npm ci]
  script: npm test
  variables:
    LOCAL: two
ship:
  stage: deploy
  script: ./deploy
  when: manual
  environment: production
  dependencies: [compile]
`;

let app: TestApp;
let rootId: number;

before(async () => {
  app = await startApp();
  rootId = (await app.root.get('/user')).body.id;
});
after(() => app.close());

const newProject = async (name: string, attributes: Record<string, unknown> = {}): Promise<number> =>
  (await createProject(app.root, { name, ...attributes })).id;

/** Commits `files` on `branch` and processes the push as the push job does. */
async function push(projectId: number, files: Record<string, string>, options: { branch?: string; message?: string; oldId?: string } = {}) {
  const branch = options.branch ?? 'master';
  const sha = await seedCommit(app, projectId, { branch, files, message: options.message ?? 'Change\n' });
  await processPush(
    { ...app.services, ctx: app.ctx },
    { projectId, userId: rootId, updates: [{ oldId: options.oldId ?? ZERO, newId: sha, ref: `refs/heads/${branch}` }] },
  );
  return sha;
}

const pipelinesOf = (projectId: number) =>
  app.ctx.db.selectFrom('ci_pipelines').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
const buildsOf = (pipelineId: number) =>
  app.ctx.db.selectFrom('ci_builds').selectAll().where('pipeline_id', '=', pipelineId).orderBy('id').execute();

describe('a push with .gitlab-ci.yml creates a pipeline', () => {
  test('one build per job, in stage order, the first stage pending and the rest created', async () => {
    const projectId = await newProject('three-stages');
    const sha = await push(projectId, { '.gitlab-ci.yml': THREE_STAGES });
    const [pipeline] = await pipelinesOf(projectId);
    assert.equal(pipeline.sha, sha);
    assert.equal(pipeline.ref, 'master');
    assert.equal(pipeline.tag, 0);
    assert.equal(pipeline.before_sha, ZERO);
    assert.equal(pipeline.user_id, rootId);
    assert.equal(pipeline.status, 'pending');
    const builds = await buildsOf(pipeline.id);
    assert.deepEqual(
      builds.map((b) => [b.name, b.stage, b.stage_idx, b.status]),
      [
        ['compile', 'build', 0, 'pending'],
        ['lint', 'test', 1, 'created'],
        ['unit', 'test', 1, 'created'],
        ['ship', 'deploy', 2, 'created'],
      ],
    );
    const unit = builds.find((b) => b.name === 'unit')!;
    assert.equal(unit.commands, 'npm ci\nnpm test');
    assert.deepEqual(JSON.parse(unit.options), { image: 'node:20' });
    assert.deepEqual(JSON.parse(unit.yaml_variables), [
      { key: 'GLOBAL', value: 'one', public: true },
      { key: 'LOCAL', value: 'two', public: true },
    ]);
    const lint = builds.find((b) => b.name === 'lint')!;
    assert.equal(lint.allow_failure, 1);
    assert.deepEqual(JSON.parse(lint.tag_list), ['docker']);
    const ship = builds.find((b) => b.name === 'ship')!;
    assert.equal(ship.when, 'manual');
    assert.equal(ship.environment, 'production');
    assert.deepEqual(JSON.parse(ship.options), { dependencies: ['compile'], environment: { name: 'production' } });
    assert.deepEqual(JSON.parse(builds[0].options), { artifacts: { paths: ['out/'], expire_in: '1 week' } });
    // Every build has a token of its own, stored as a digest and sealed, never in the clear.
    assert.equal(new Set(builds.map((b) => b.token_digest)).size, 4);
    for (const build of builds) assert.equal(app.ctx.secrets.unseal(build.token_sealed!).length, 20);
  });

  test('a later push to the branch records the previous commit as before_sha', async () => {
    const projectId = await newProject('before-sha');
    const first = await push(projectId, { '.gitlab-ci.yml': 'job:\n  script: echo\n' });
    await push(projectId, { 'a.txt': 'a\n' }, { oldId: first });
    const pipelines = await pipelinesOf(projectId);
    assert.equal(pipelines.length, 2);
    assert.equal(pipelines[1].before_sha, first);
  });

  test('a tag push makes a tag pipeline', async () => {
    const projectId = await newProject('tagged');
    const sha = await push(projectId, {
      '.gitlab-ci.yml': 'release:\n  script: echo\n  only: [tags]\nunit:\n  script: echo\n  except: [tags]\n',
    });
    const before = (await pipelinesOf(projectId)).length;
    await processPush(
      { ...app.services, ctx: app.ctx },
      { projectId, userId: rootId, updates: [{ oldId: ZERO, newId: sha, ref: 'refs/tags/v1.0' }] },
    );
    // The tag ref does not exist in git here, but the push names it; the pipeline follows the push.
    const pipelines = await pipelinesOf(projectId);
    assert.equal(pipelines.length, before + 1);
    const tagPipeline = pipelines.at(-1)!;
    assert.equal(tagPipeline.ref, 'v1.0');
    assert.equal(tagPipeline.tag, 1);
    assert.deepEqual(
      (await buildsOf(tagPipeline.id)).map((b) => [b.name, b.tag]),
      [['release', 1]],
    );
  });

  test("an invalid file makes a failed pipeline carrying GitLab 8.12's message, even with [ci skip]", async () => {
    const projectId = await newProject('invalid-yaml');
    await push(projectId, { '.gitlab-ci.yml': 'rspec:\n  script: echo\n  stage: nowhere\n' }, { message: 'Broken [ci skip]\n' });
    const [pipeline] = await pipelinesOf(projectId);
    assert.equal(pipeline.status, 'failed');
    assert.equal(pipeline.yaml_errors, 'rspec job: stage parameter should be build, test, deploy');
    assert.deepEqual(await buildsOf(pipeline.id), []);
  });

  test('[ci skip] or [SKIP CI] in the message makes a skipped pipeline with no builds', async () => {
    const projectId = await newProject('skipped');
    await push(projectId, { '.gitlab-ci.yml': 'job:\n  script: echo\n' }, { message: 'Docs only [SKIP CI]\n' });
    const [pipeline] = await pipelinesOf(projectId);
    assert.equal(pipeline.status, 'skipped');
    assert.deepEqual(await buildsOf(pipeline.id), []);
  });

  test('a YAML bomb, deep nesting or a 10 MB file make a failed pipeline with a message', async () => {
    const bomb = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
      .concat(
        ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map((name, i) => `${name}: &${name} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`),
      )
      .join('\n');
    const files = { bomb, nested: '['.repeat(100_000), huge: `job:\n  script: echo\n# ${'x'.repeat(10 * 1024 * 1024)}\n` };
    for (const [name, text] of Object.entries(files)) {
      const projectId = await newProject(`yaml-${name}`);
      await push(projectId, { '.gitlab-ci.yml': text });
      const [pipeline] = await pipelinesOf(projectId);
      assert.equal(pipeline?.status, 'failed', name);
      assert.ok(pipeline.yaml_errors && pipeline.yaml_errors.length > 0, name);
    }
  });
});

describe('a push makes no pipeline', () => {
  test('without .gitlab-ci.yml', async () => {
    const projectId = await newProject('no-file');
    await push(projectId, { 'README.md': 'hi\n' });
    assert.deepEqual(await pipelinesOf(projectId), []);
  });

  test('when no job runs on the ref', async () => {
    const projectId = await newProject('no-job');
    await push(projectId, { '.gitlab-ci.yml': 'job:\n  script: echo\n  only: [production]\n' });
    assert.deepEqual(await pipelinesOf(projectId), []);
  });

  test('when builds are disabled for the project', async () => {
    const projectId = await newProject('builds-off', { builds_enabled: false });
    await push(projectId, { '.gitlab-ci.yml': 'job:\n  script: echo\n' });
    assert.deepEqual(await pipelinesOf(projectId), []);
  });

  test('for a deleted branch', async () => {
    const projectId = await newProject('deleted');
    const sha = await push(projectId, { '.gitlab-ci.yml': 'job:\n  script: echo\n' }, { branch: 'feature' });
    await processPush(
      { ...app.services, ctx: app.ctx },
      { projectId, userId: rootId, updates: [{ oldId: sha, newId: ZERO, ref: 'refs/heads/feature' }] },
    );
    assert.equal((await pipelinesOf(projectId)).length, 1);
  });
});

describe('stages open in order as builds finish', () => {
  test('on_success, on_failure, always and manual jobs follow the outcome of earlier stages', async () => {
    const projectId = await newProject('when-matrix');
    await push(projectId, {
      '.gitlab-ci.yml': [
        'stages: [build, test, post_test, deploy, cleanup]',
        'build: {stage: build, script: echo}',
        'test: {stage: test, script: echo}',
        'test_failure: {stage: post_test, script: echo, when: on_failure}',
        'deploy: {stage: deploy, script: echo}',
        'production: {stage: deploy, script: echo, when: manual}',
        'cleanup: {stage: cleanup, script: echo, when: always}',
        'clear cache: {stage: cleanup, script: echo, when: manual}',
      ].join('\n'),
    });
    const [pipeline] = await pipelinesOf(projectId);
    const { transitionBuild } = await import('../../src/services/ci/builds/transitions');
    const { inTransaction } = await import('../../src/db/transaction');
    const finish = async (name: string, event: 'success' | 'drop') => {
      const build = (await buildsOf(pipeline.id)).find((b) => b.name === name)!;
      const moved = await inTransaction(app.ctx.db, (trx) => transitionBuild(app.ctx, trx, build, event));
      assert.ok(moved, `${name} ${event}`);
    };
    const statuses = async () => Object.fromEntries((await buildsOf(pipeline.id)).map((b) => [b.name, b.status]));
    await finish('build', 'success');
    assert.deepEqual(await statuses(), {
      build: 'success',
      test: 'pending',
      test_failure: 'created',
      deploy: 'created',
      production: 'created',
      cleanup: 'created',
      'clear cache': 'created',
    });
    await finish('test', 'drop');
    // The on_failure job runs because the stage before it failed.
    assert.deepEqual(await statuses(), {
      build: 'success',
      test: 'failed',
      test_failure: 'pending',
      deploy: 'created',
      production: 'created',
      cleanup: 'created',
      'clear cache': 'created',
    });
    await finish('test_failure', 'success');
    // The test stage failed: deploy is skipped, production (manual) waits skipped, cleanup (always) runs.
    assert.deepEqual(await statuses(), {
      build: 'success',
      test: 'failed',
      test_failure: 'success',
      deploy: 'skipped',
      production: 'skipped',
      cleanup: 'pending',
      'clear cache': 'skipped',
    });
    await finish('cleanup', 'success');
    const [done] = await pipelinesOf(projectId);
    assert.equal(done.status, 'failed');
    assert.ok(done.finished_at);
  });

  test('a first stage of manual jobs only does not hold the next stage (8.12 left it pending for ever)', async () => {
    const projectId = await newProject('manual-first');
    await push(projectId, {
      '.gitlab-ci.yml': 'stages: [a, b]\nplay: {stage: a, script: echo, when: manual}\nnext: {stage: b, script: echo}\n',
    });
    const [pipeline] = await pipelinesOf(projectId);
    assert.deepEqual(
      (await buildsOf(pipeline.id)).map((b) => [b.name, b.status]),
      [
        ['play', 'skipped'],
        ['next', 'pending'],
      ],
    );
  });
});
