import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { cloneUrl, git, workTree } from '../../support/git';
import { buildStatuses, onlyPipeline } from '../../support/ci-reads';
import { eventually } from '../../support/eventually';
import { HookListener, type ReceivedHook } from '../../support/hook-listener';
import { registeredRunner } from '../../support/ci-world';
import type { RunnerClient, RunningBuild } from '../../support/runner-client';
import { storedZip } from '../../support/zip';

/*
 * The walkthrough: a three-stage `.gitlab-ci.yml` pushed over git, run from start to end by
 * a client speaking the runner API as gitlab-ci-multi-runner 1.6 does, with the pipeline and its
 * builds checked through the v3 API after every step, and the hooks the project received.
 */

const CI_YAML = `
stages: [build, test, deploy]
compile:
  stage: build
  script: make
  artifacts:
    name: binaries
    paths: [out/]
    expire_in: 1 week
unit:
  stage: test
  script: make test
  dependencies: [compile]
lint:
  stage: test
  script: make lint
  allow_failure: true
ship:
  stage: deploy
  script: ./deploy
  when: manual
`;

let app: TestApp;
let listener: HookListener;
let runner: RunnerClient;
let project: { id: number; sha: string };

before(async () => {
  app = await startApp();
  listener = await HookListener.start();
  const created = await app.root.post('/projects', { name: 'walkthrough' });
  assert.equal(created.status, 201);
  const hook = await app.root.post(`/projects/${created.body.id}/hooks`, {
    url: `${listener.url}?ci`,
    push_events: false,
    build_events: true,
    pipeline_events: true,
  });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  const dir = await workTree('master', { '.gitlab-ci.yml': CI_YAML, Makefile: 'all:\n' });
  const pushed = await git(['push', '-q', cloneUrl(app.url, created.body.path_with_namespace, 'root', 'rootpassword'), 'master'], dir);
  assert.equal(pushed.code, 0, pushed.stderr);
  project = { id: created.body.id, sha: (await git(['rev-parse', 'HEAD'], dir)).stdout.trim() };
  runner = await registeredRunner(app);
});
after(async () => {
  await app.close();
  await listener.close();
});

const pipeline = () => onlyPipeline(app.root, project.id);
const statuses = () => buildStatuses(app.root, project.id);

async function takeBuild(name: string): Promise<RunningBuild> {
  const answer = await runner.requestBuild();
  assert.equal(answer.outcome, 'build', `${answer.response.status} ${answer.response.text}`);
  if (answer.outcome !== 'build') throw new Error('no build');
  assert.equal(answer.build.payload.name, name);
  return answer.build;
}

const buildIds: Record<string, number> = {};
const zip = await storedZip({ 'out/app': 'compiled binary\n' });

describe('a three-stage pipeline run by a gitlab-ci-multi-runner 1.6 client', () => {
  test('the push makes a pending pipeline whose first stage is pending', async () => {
    await eventually(async () => (await app.root.get(`/projects/${project.id}/pipelines`)).body.length === 1);
    const p = await pipeline();
    assert.equal(p.status, 'pending');
    assert.equal(p.sha, project.sha);
    assert.equal(p.ref, 'master');
    assert.deepEqual(await statuses(), { compile: 'pending', unit: 'created', lint: 'created', ship: 'created' });
  });

  test('build stage: the runner takes compile, streams its trace, uploads artifacts and succeeds', async () => {
    const compile = await takeBuild('compile');
    buildIds.compile = compile.id;
    assert.equal(compile.payload.sha, project.sha);
    assert.deepEqual(compile.payload.options, { artifacts: { name: 'binaries', paths: ['out/'], expire_in: '1 week' } });
    assert.equal((await pipeline()).status, 'running');
    assert.deepEqual(await statuses(), { compile: 'running', unit: 'created', lint: 'created', ship: 'created' });

    const patched = await runner.appendTrace(compile, 'Running with gitlab-ci-multi-runner 1.6.0\n$ make\n');
    assert.equal(patched.status, 202);
    assert.equal(patched.headers.get('build-status'), 'running');
    const live = await app.root.get(`/projects/${project.id}/builds/${compile.id}/trace`);
    assert.equal(live.status, 200);
    assert.equal(live.text, 'Running with gitlab-ci-multi-runner 1.6.0\n$ make\n');

    const uploaded = await runner.uploadArtifacts(compile, zip, { name: 'binaries', expireIn: '1 week' });
    assert.equal(uploaded.status, 201, uploaded.text);
    await runner.appendTrace(compile, 'Uploading artifacts...\n');
    const finished = await runner.finish(compile, 'success');
    assert.equal(finished.status, 200);
    assert.deepEqual(await statuses(), { compile: 'success', unit: 'pending', lint: 'pending', ship: 'created' });
    assert.equal((await pipeline()).status, 'running');
  });

  test("test stage: unit gets compile's artifacts through dependencies; lint fails but may", async () => {
    const unit = await takeBuild('unit');
    const lint = await takeBuild('lint');
    buildIds.unit = unit.id;
    buildIds.lint = lint.id;
    assert.deepEqual(unit.payload.options, { dependencies: ['compile'] });
    const [dependency] = unit.payload.depends_on_builds;
    assert.equal(dependency.name, 'compile');
    assert.deepEqual(dependency.artifacts_file, { filename: 'binaries.zip', size: zip.length });
    const downloaded = await runner.downloadArtifacts(dependency);
    assert.equal(downloaded.status, 200);
    assert.deepEqual(downloaded.bytes, zip);

    assert.equal((await runner.finish(lint, 'failed', '$ make lint\nwarnings\n')).status, 200);
    assert.deepEqual(await statuses(), { compile: 'success', unit: 'running', lint: 'failed', ship: 'created' });
    assert.equal((await pipeline()).status, 'running');
    assert.equal((await runner.finish(unit, 'success', '$ make test\nok\n')).status, 200);
    // The manual job waits, skipped, for someone to play it; the failure was allowed, so the pipeline succeeded.
    assert.deepEqual(await statuses(), { compile: 'success', unit: 'success', lint: 'failed', ship: 'skipped' });
    const p = await pipeline();
    assert.equal(p.status, 'success');
    assert.ok(p.finished_at);
    assert.equal((await runner.requestBuild()).outcome, 'nothing');
  });

  test('deploy stage: the manual job runs once played, and the pipeline succeeds again', async () => {
    const list = await app.root.get(`/projects/${project.id}/builds`);
    const ship = list.body.find((build: any) => build.name === 'ship');
    const played = await app.root.post(`/projects/${project.id}/builds/${ship.id}/play`);
    assert.equal(played.status, 200);
    assert.equal(played.body.status, 'started');
    assert.deepEqual(await statuses(), { compile: 'success', unit: 'success', lint: 'failed', ship: 'pending' });
    assert.equal((await pipeline()).status, 'running');
    const running = await takeBuild('ship');
    buildIds.ship = running.id;
    assert.equal((await runner.finish(running, 'success', '$ ./deploy\n')).status, 200);
    assert.deepEqual(await statuses(), { compile: 'success', unit: 'success', lint: 'failed', ship: 'success' });
    assert.equal((await pipeline()).status, 'success');
  });

  test('the trace and the artifacts stay readable: by build id, and by ref and job name', async () => {
    const trace = await app.root.get(`/projects/${project.id}/builds/${buildIds.compile}/trace`);
    assert.equal(trace.text, 'Running with gitlab-ci-multi-runner 1.6.0\n$ make\nUploading artifacts...\n');
    for (const route of [
      `/projects/${project.id}/builds/${buildIds.compile}/artifacts`,
      `/projects/${project.id}/builds/artifacts/master/download?job=compile`,
    ]) {
      const response = await fetch(`${app.url}/api/v3${route}`, { headers: { 'private-token': app.rootToken } });
      assert.equal(response.status, 200, route);
      assert.equal(response.headers.get('content-disposition'), 'attachment; filename=binaries.zip', route);
      assert.deepEqual(Buffer.from(await response.arrayBuffer()), zip, route);
    }
    const build = await app.root.get(`/projects/${project.id}/builds/${buildIds.compile}`);
    assert.deepEqual(build.body.artifacts_file, { filename: 'binaries.zip', size: zip.length });
  });

  test('the project hook heard every build start and end and every pipeline change', async () => {
    const builds = (hook: ReceivedHook) => hook.headers['x-gitlab-event'] === 'Build Hook';
    const pipelines = (hook: ReceivedHook) => hook.headers['x-gitlab-event'] === 'Pipeline Hook';
    const expectedBuilds = [
      ['compile', 'running'],
      ['compile', 'success'],
      ['unit', 'running'],
      ['lint', 'running'],
      ['lint', 'failed'],
      ['unit', 'success'],
      ['ship', 'running'],
      ['ship', 'success'],
    ];
    await eventually(() => listener.received.filter(builds).length >= expectedBuilds.length);
    const heard = listener.received.filter(builds).map((hook) => [hook.body.build_name, hook.body.build_status]);
    assert.deepEqual(heard.sort(), expectedBuilds.sort());
    const compileDone = listener.received.find(
      (hook) => builds(hook) && hook.body.build_name === 'compile' && hook.body.build_status === 'success',
    )!;
    assert.equal(compileDone.body.object_kind, 'build');
    assert.equal(compileDone.body.sha, project.sha);
    assert.equal(compileDone.body.build_id, buildIds.compile);

    await eventually(() =>
      listener.received
        .filter(pipelines)
        .some(
          (hook) =>
            hook.body.object_attributes.status === 'success' &&
            hook.body.builds.some((b: any) => b.name === 'ship' && b.status === 'success'),
        ),
    );
    const heardPipelines = listener.received.filter(pipelines).map((hook) => hook.body.object_attributes.status);
    assert.deepEqual(heardPipelines, ['pending', 'running', 'success', 'running', 'success']);
  });
});
