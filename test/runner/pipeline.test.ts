import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { buildStatuses, buildsByName, onlyPipeline } from '../support/ci-reads';
import { eventually } from '../support/eventually';
import { HookListener, type ReceivedHook } from '../support/hook-listener';
import { registrationToken } from '../support/ci-world';
import { RunnerProcess, pushCi } from '../support/runner-process';
import { unzipEntries } from '../support/zip';

/*
 * CI on one machine: a three-stage `.gitlab-ci.yml` pushed over git and run from start to end by the
 * real `forge runner` process, everything checked through the consumer API and the project's hooks.
 * The first build waits for a file the test creates, so its `running` state can be seen.
 */

const CI_YAML = `
image: ruby:2.1
stages: [build, test, deploy]
compile:
  stage: build
  script:
    - until [ -f "$GATE_DIR/compile" ]; do sleep 0.05; done
    - mkdir -p out
    - echo "compiled $CI_BUILD_REF" > out/app.txt
    - echo "a log" > build.log
    - echo "not kept" > notes.txt
  artifacts:
    name: binaries-$CI_BUILD_REF_NAME
    paths: [out/, "*.log"]
    expire_in: 1 week
unit:
  stage: test
  script:
    - cat out/app.txt
  dependencies: [compile]
lint:
  stage: test
  script:
    - echo linting
    - exit 3
  allow_failure: true
ship:
  stage: deploy
  script: echo "deploying $CI_BUILD_NAME"
  when: manual
  environment: production
`;

let app: TestApp;
let listener: HookListener;
let runner: RunnerProcess;
let project: { id: number; path_with_namespace: string };
let sha: string;

before(async () => {
  app = await startApp();
  listener = await HookListener.start();
  const created = await app.root.post('/projects', { name: 'one-machine' });
  assert.equal(created.status, 201);
  project = created.body;
  const hook = await app.root.post(`/projects/${project.id}/hooks`, {
    url: listener.url,
    push_events: false,
    build_events: true,
    pipeline_events: true,
  });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  sha = await pushCi(app, project, 'master', CI_YAML);
});
after(async () => {
  await runner?.close();
  await app.close();
  await listener.close();
});

const pipeline = () => onlyPipeline(app.root, project.id);
const builds = () => buildsByName(app.root, project.id);
const statuses = () => buildStatuses(app.root, project.id);

/** The build's trace; '' while it has none. */
async function trace(buildId: number): Promise<string> {
  const response = await app.root.get(`/projects/${project.id}/builds/${buildId}/trace`);
  assert.equal(response.status, 200);
  return response.text;
}

describe('a three-stage pipeline run by forge runner', () => {
  test('the push makes a pending pipeline; no runner, nothing moves', async () => {
    await eventually(async () => (await app.root.get(`/projects/${project.id}/pipelines`)).body.length === 1);
    const p = await pipeline();
    assert.equal(p.status, 'pending');
    assert.equal(p.sha, sha);
    assert.deepEqual(await statuses(), { compile: 'pending', unit: 'created', lint: 'created', ship: 'created' });
  });

  test('the runner registers and takes compile: running, its trace streamed while it runs', async () => {
    runner = RunnerProcess.start(app, { registrationToken: await registrationToken(app) });
    await eventually(async () => (await statuses()).compile === 'running');
    assert.equal((await pipeline()).status, 'running');
    const compile = (await builds()).compile;
    assert.equal(compile.runner.description.startsWith('forge runner on '), true);
    // The trace arrives while the build still waits for its gate.
    const live = await eventually(async () => {
      const text = await trace(compile.id);
      return text.includes('$ until [ -f "$GATE_DIR/compile" ]; do sleep 0.05; done') && text;
    });
    assert.match(live, /^Running with forge runner /);
    assert.match(live, /WARNING: the shell executor ignores image ruby:2\.1/);
    assert.match(live, new RegExp(`Checking out ${sha.slice(0, 8)} as master`));
    assert.equal((await statuses()).compile, 'running');
    await runner.waitForOutput(new RegExp(`build ${compile.id} started: project ${project.id}, job "compile"`));
  });

  test('compile succeeds with its artifacts; unit reads them, lint fails but may; ship waits, skipped', async () => {
    runner.open('compile');
    await eventually(async () => (await pipeline()).status === 'success', { message: 'the pipeline succeeding' });
    assert.deepEqual(await statuses(), { compile: 'success', unit: 'success', lint: 'failed', ship: 'skipped' });
    const all = await builds();

    const compileTrace = await trace(all.compile.id);
    assert.match(compileTrace, /\$ mkdir -p out\n/);
    assert.match(compileTrace, /Uploading artifacts to coordinator\.\.\. ok/);
    assert.match(compileTrace, /Build succeeded\n$/);
    assert.deepEqual(all.compile.artifacts_file, { filename: 'binaries-master.zip', size: all.compile.artifacts_file.size });

    const unitTrace = await trace(all.unit.id);
    assert.match(unitTrace, new RegExp(`Downloading artifacts for compile \\(${all.compile.id}\\)`));
    assert.match(unitTrace, new RegExp(`\\$ cat out/app.txt\ncompiled ${sha}\n`));

    const lintTrace = await trace(all.lint.id);
    assert.match(lintTrace, /\$ echo linting\nlinting\n\$ exit 3\n/);
    assert.match(lintTrace, /ERROR: Build failed: exit code 3\n$/);
    await runner.waitForOutput(new RegExp(`build ${all.lint.id} failed in [\\d.]+ s: exit code 3`));
  });

  test('the artifacts are there by build id and by ref and job, with their expiry', async () => {
    const { compile } = await builds();
    for (const route of [
      `/projects/${project.id}/builds/${compile.id}/artifacts`,
      `/projects/${project.id}/builds/artifacts/master/download?job=compile`,
    ]) {
      const response = await fetch(`${app.url}/api/v3${route}`, { headers: { 'private-token': app.rootToken } });
      assert.equal(response.status, 200, route);
      assert.equal(response.headers.get('content-disposition'), 'attachment; filename=binaries-master.zip', route);
      const entries = await unzipEntries(Buffer.from(await response.arrayBuffer()));
      assert.deepEqual(Object.keys(entries).sort(), ['build.log', 'out/', 'out/app.txt'], route);
      assert.equal(entries['out/app.txt'], `compiled ${sha}\n`, route);
    }
    // The v3 build entity of 8.12 does not show the expiry: the row does.
    const row = await app.ctx.db
      .selectFrom('ci_builds')
      .select('artifacts_expire_at')
      .where('id', '=', compile.id)
      .executeTakeFirstOrThrow();
    const expiresIn = Date.parse(row.artifacts_expire_at!) - Date.now();
    assert.ok(expiresIn > 6 * 86_400_000 && expiresIn <= 7 * 86_400_000, String(row.artifacts_expire_at));
  });

  test('played, the manual deploy job runs on the runner and the pipeline succeeds again', async () => {
    const { ship } = await builds();
    const played = await app.root.post(`/projects/${project.id}/builds/${ship.id}/play`);
    assert.equal(played.status, 200);
    await eventually(async () => (await statuses()).ship === 'success', { message: 'ship succeeding' });
    assert.equal((await pipeline()).status, 'success');
    assert.match(await trace(ship.id), /\$ echo "deploying \$CI_BUILD_NAME"\ndeploying ship\n/);
    // The played job deployed its commit to its environment, as the root user who played it.
    const deployments = await app.root.get(`/projects/${project.id}/deployments`);
    assert.equal(deployments.status, 200);
    assert.equal(deployments.body.length, 1);
    const [deployment] = deployments.body;
    assert.equal(deployment.iid, 1);
    assert.equal(deployment.ref, 'master');
    assert.equal(deployment.sha, sha);
    assert.equal(deployment.environment.name, 'production');
    assert.equal(deployment.user.username, 'root');
    assert.equal(deployment.deployable.id, ship.id);
    assert.equal(deployment.deployable.status, 'success');
  });

  test('the project hook heard every build start and end and every pipeline change', async () => {
    const buildHooks = (hook: ReceivedHook) => hook.headers['x-gitlab-event'] === 'Build Hook';
    const pipelineHooks = (hook: ReceivedHook) => hook.headers['x-gitlab-event'] === 'Pipeline Hook';
    const expected = [
      ['compile', 'running'],
      ['compile', 'success'],
      ['unit', 'running'],
      ['unit', 'success'],
      ['lint', 'running'],
      ['lint', 'failed'],
      ['ship', 'running'],
      ['ship', 'success'],
    ];
    await eventually(() => listener.received.filter(buildHooks).length >= expected.length);
    const heard = listener.received.filter(buildHooks).map((hook) => [hook.body.build_name, hook.body.build_status]);
    assert.deepEqual(heard.sort(), expected.sort());
    await eventually(() =>
      listener.received
        .filter(pipelineHooks)
        .some(
          (hook) =>
            hook.body.object_attributes.status === 'success' &&
            hook.body.builds.some((b: any) => b.name === 'ship' && b.status === 'success'),
        ),
    );
    assert.deepEqual(
      listener.received.filter(pipelineHooks).map((hook) => hook.body.object_attributes.status),
      ['pending', 'running', 'success', 'running', 'success'],
    );
  });
});
