import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createRootProject } from '../../support/repo';
import { RunnerClient, RUNNER_USER_AGENT } from '../../support/runner-client';
import { buildRow, clearQueue, registeredRunner, runnerRow, seedPipeline } from '../../support/ci-world';

let app: TestApp;
let projects = 0;

before(async () => {
  app = await startApp();
});
after(async () => {
  await app.close();
});

/** A project of root's with a commit; shared runners enabled (GitLab's default). */
async function project() {
  return createRootProject(app, `builds${++projects}`);
}

/** Raw calls with a chosen User-Agent (the runner client always sends its own). */
async function rawRegister(token: string | undefined, userAgent?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (userAgent !== undefined) headers['user-agent'] = userAgent;
  else headers['user-agent'] = '';
  return fetch(`${app.url}/ci/api/v1/builds/register.json`, {
    method: 'POST',
    headers,
    body: JSON.stringify(token === undefined ? {} : { token }),
  });
}

describe('POST /ci/api/v1/builds/register', () => {
  test('a pending build of a project the runner is assigned to is handed out: 201, running, assigned', async () => {
    const p = await project();
    const { builds } = await seedPipeline(app, p.id, { sha: p.head, builds: [{ name: 'spinach' }] });
    const runner = await registeredRunner(app, { projectId: p.id });
    const got = await runner.requestBuild();
    assert.equal(got.outcome, 'build');
    assert.equal(got.response.status, 201);
    assert.equal(got.response.headers.get('content-type'), 'application/json');
    const build = (got as any).build.payload;
    assert.equal(build.id, builds[0].id);
    assert.equal(build.sha, p.head);
    assert.equal(build.token, builds[0].token);
    assert.equal(build.status, 'running');
    assert.deepEqual(build.options, { image: 'ruby:2.1', services: ['postgres'] });
    const row = await buildRow(app, builds[0].id);
    assert.equal(row.status, 'running');
    assert.equal(row.runner_id, (await runnerRow(app, runner.token!))!.id);
    assert.ok(row.started_at);
  });

  test("the payload has GitLab's keys in GitLab's order, repo_url with gitlab-ci-token and 40 zeros for a missing before_sha", async () => {
    const p = await project();
    await seedPipeline(app, p.id, { sha: p.head, builds: [{ name: 'rspec', commands: 'bundle\nrake spec' }] });
    const runner = await registeredRunner(app, { projectId: p.id });
    const got: any = await runner.requestBuild();
    const payload = got.build.payload;
    assert.deepEqual(Object.keys(payload), [
      'id',
      'ref',
      'tag',
      'sha',
      'status',
      'name',
      'token',
      'stage',
      'project_id',
      'project_name',
      'commands',
      'repo_url',
      'before_sha',
      'allow_git_fetch',
      'options',
      'timeout',
      'variables',
      'depends_on_builds',
    ]);
    const projectRow = await app.root.get(`/projects/${p.id}`);
    const url = new URL(app.ctx.config.externalUrl);
    assert.equal(
      payload.repo_url,
      `${url.protocol}//gitlab-ci-token:${payload.token}@${url.host}/${projectRow.body.path_with_namespace}.git`,
    );
    assert.equal(payload.before_sha, '0'.repeat(40));
    assert.equal(payload.project_name, projectRow.body.name);
    assert.equal(payload.commands, 'bundle\nrake spec');
    assert.equal(payload.timeout, 3600);
    assert.equal(payload.allow_git_fetch, true);
    assert.equal(payload.ref, 'master');
    assert.equal(payload.tag, false);
    assert.deepEqual(payload.depends_on_builds, []);
  });

  test("variables come in GitLab's order: predefined, project, pipeline, runner, YAML, user, secret", async () => {
    const p = await project();
    const projectRow = (await app.root.get(`/projects/${p.id}`)).body;
    const rootUser = (await app.root.get('/user')).body;
    assert.equal((await app.root.post(`/projects/${p.id}/variables`, { key: 'SECRET_KEY', value: 'secret_value' })).status, 201);
    const { pipelineId, builds } = await seedPipeline(app, p.id, {
      sha: p.head,
      before_sha: 'b'.repeat(40),
      user_id: rootUser.id,
      builds: [{ name: 'spinach' }],
    });
    const runner = await registeredRunner(app, { projectId: p.id, tagList: 'ruby, postgres', description: 'my runner' });
    const got: any = await runner.requestBuild();
    const runnerId = (await runnerRow(app, runner.token!))!.id;
    const external = app.ctx.config.externalUrl;
    const [namespace, path] = projectRow.path_with_namespace.split('/');
    assert.deepEqual(got.build.payload.variables, [
      { key: 'CI', value: 'true', public: true },
      { key: 'GITLAB_CI', value: 'true', public: true },
      { key: 'CI_BUILD_ID', value: String(builds[0].id), public: true },
      { key: 'CI_BUILD_TOKEN', value: builds[0].token, public: false },
      { key: 'CI_BUILD_REF', value: p.head, public: true },
      { key: 'CI_BUILD_BEFORE_SHA', value: 'b'.repeat(40), public: true },
      { key: 'CI_BUILD_REF_NAME', value: 'master', public: true },
      { key: 'CI_BUILD_NAME', value: 'spinach', public: true },
      { key: 'CI_BUILD_STAGE', value: 'test', public: true },
      { key: 'CI_SERVER_NAME', value: 'GitLab', public: true },
      { key: 'CI_SERVER_VERSION', value: '8.12.0', public: true },
      { key: 'CI_SERVER_REVISION', value: 'forge00', public: true },
      { key: 'CI_PROJECT_ID', value: String(p.id), public: true },
      { key: 'CI_PROJECT_NAME', value: path, public: true },
      { key: 'CI_PROJECT_PATH', value: projectRow.path_with_namespace, public: true },
      { key: 'CI_PROJECT_NAMESPACE', value: namespace, public: true },
      { key: 'CI_PROJECT_URL', value: `${external}/${projectRow.path_with_namespace}`, public: true },
      { key: 'CI_PIPELINE_ID', value: String(pipelineId), public: true },
      { key: 'CI_RUNNER_ID', value: String(runnerId), public: true },
      { key: 'CI_RUNNER_DESCRIPTION', value: 'my runner', public: true },
      { key: 'CI_RUNNER_TAGS', value: 'ruby, postgres', public: true },
      { key: 'DB_NAME', value: 'postgres', public: true },
      { key: 'GITLAB_USER_ID', value: String(rootUser.id), public: true },
      { key: 'GITLAB_USER_EMAIL', value: rootUser.email, public: true },
      { key: 'SECRET_KEY', value: 'secret_value', public: false },
    ]);
  });

  test('a tag pipeline adds CI_BUILD_TAG and a manual job CI_BUILD_MANUAL', async () => {
    const p = await project();
    await seedPipeline(app, p.id, { sha: p.head, ref: 'v1.0', tag: true, builds: [{ when: 'manual' }] });
    const runner = await registeredRunner(app, { projectId: p.id });
    const got: any = await runner.requestBuild();
    const variables = got.build.payload.variables as Array<{ key: string; value: string }>;
    const keys = variables.map((v) => v.key);
    assert.deepEqual(keys.slice(12, 14), ['CI_BUILD_TAG', 'CI_BUILD_MANUAL']);
    assert.equal(variables[12].value, 'v1.0');
    assert.equal(got.build.payload.tag, true);
  });

  test("multiple builds: the next stage's build lists the earlier stage's in depends_on_builds with its own token", async () => {
    const p = await project();
    const { builds } = await seedPipeline(app, p.id, {
      sha: p.head,
      builds: [
        { name: 'spinach', stage: 'test', stage_idx: 0, status: 'success' },
        { name: 'deploy', stage: 'deploy', stage_idx: 1 },
      ],
    });
    const runner = await registeredRunner(app, { projectId: p.id });
    const got: any = await runner.requestBuild();
    assert.equal(got.build.payload.name, 'deploy');
    const deps = got.build.payload.depends_on_builds;
    assert.equal(deps.length, 1);
    assert.equal(deps[0].id, builds[0].id);
    assert.equal(deps[0].name, 'spinach');
    assert.equal(deps[0].token, builds[0].token);
    assert.equal(deps[0].artifacts_file, undefined);
  });

  test('when the only build has succeeded: 204 for a stable or beta runner, 404 for other clients', async () => {
    const p = await project();
    await seedPipeline(app, p.id, { sha: p.head, builds: [{ status: 'success' }] });
    const runner = await registeredRunner(app, { projectId: p.id });
    assert.equal((await runner.requestBuild()).response.status, 204);
    for (const ua of [
      'gitlab-ci-multi-runner 1.5.2 (1-5-stable; go1.6.3; linux/amd64)',
      'gitlab-ci-multi-runner 1.6.0~beta.167.g2b2bacc (1-5-stable; go1.6.3; linux/amd64)',
    ]) {
      const response = await rawRegister(runner.token, ua);
      assert.equal(response.status, 204, ua);
      assert.equal(await response.text(), '');
      assert.equal(response.headers.get('content-type'), null);
    }
    for (const ua of [
      'Go-http-client/1.1',
      'gitlab-ci-multi-runner 1.6.0-rc.1 (1-6-stable; go1.6.3; linux/amd64)',
      'gitlab-ci-multi-runner dev (HEAD; go1.6.3; linux/amd64)',
    ]) {
      const response = await rawRegister(runner.token, ua);
      assert.equal(response.status, 404, ua);
      assert.deepEqual(await response.json(), { message: '404 Not Found' });
    }
  });

  test('no User-Agent at all: 404 (8.12 answered 500 here; Forge answers as for any other client)', async () => {
    const p = await project();
    const runner = await registeredRunner(app, { projectId: p.id });
    const response = await rawRegister(runner.token);
    assert.equal(response.status, 404);
  });

  test('when only another project has a pending build: nothing for a specific runner', async () => {
    const p = await project();
    const other = await project();
    await seedPipeline(app, other.id, { sha: other.head, builds: [{}] });
    const runner = await registeredRunner(app, { projectId: p.id });
    assert.equal((await runner.requestBuild()).outcome, 'nothing');
  });

  test('an invalid or missing runner token: 403', async () => {
    assert.equal((await rawRegister('not-a-runner-token', RUNNER_USER_AGENT)).status, 403);
    assert.equal((await rawRegister(undefined, RUNNER_USER_AGENT)).status, 403);
    assert.equal((await new RunnerClient(app.url, 'nope').requestBuild()).outcome, 'forbidden');
  });

  test('a paused runner gets 404 whatever its User-Agent, and no build', async () => {
    const p = await project();
    const { builds } = await seedPipeline(app, p.id, { sha: p.head, builds: [{}] });
    const runner = await registeredRunner(app, { projectId: p.id });
    await app.ctx.db
      .updateTable('ci_runners')
      .set({ active: 0 })
      .where('id', '=', (await runnerRow(app, runner.token!))!.id)
      .execute();
    const got = await runner.requestBuild();
    assert.equal(got.response.status, 404);
    assert.equal((await buildRow(app, builds[0].id)).status, 'pending');
  });

  test('info[name|version|revision|platform|architecture] is stored on the runner, as JSON or as a form', async () => {
    const p = await project();
    const runner = await registeredRunner(app, { projectId: p.id });
    await runner.requestBuild();
    let row = (await runnerRow(app, runner.token!))!;
    assert.deepEqual(
      [row.name, row.version, row.revision, row.platform, row.architecture],
      ['gitlab-ci-multi-runner', '1.6.0', 'c1ecf97f', 'linux', 'amd64'],
    );
    assert.ok(row.contacted_at);
    const form = new URLSearchParams({ token: runner.token!, 'info[platform]': 'darwin', 'info[name]': 'name_value' });
    const response = await fetch(`${app.url}/ci/api/v1/builds/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': RUNNER_USER_AGENT },
      body: form.toString(),
    });
    assert.equal(response.status, 204);
    row = (await runnerRow(app, runner.token!))!;
    assert.equal(row.platform, 'darwin');
    assert.equal(row.name, 'name_value');
  });

  test('untagged build: a runner with run_untagged gets it, one without does not', async () => {
    const p = await project();
    await seedPipeline(app, p.id, { sha: p.head, builds: [{}] });
    const strict = await registeredRunner(app, { projectId: p.id, tagList: 'docker', runUntagged: false });
    assert.equal((await strict.requestBuild()).outcome, 'nothing');
    const tagged = await registeredRunner(app, { projectId: p.id, tagList: 'docker' });
    assert.equal((await tagged.requestBuild()).outcome, 'build');
  });

  test('a tagged build goes to a runner having all its tags (extra runner tags are fine), never to one missing a tag', async () => {
    const p = await project();
    await seedPipeline(app, p.id, { sha: p.head, builds: [{ tag_list: ['ruby', 'postgres'] }] });
    const missing = await registeredRunner(app, { projectId: p.id, tagList: 'ruby' });
    assert.equal((await missing.requestBuild()).outcome, 'nothing');
    const untaggedRunner = await registeredRunner(app, { projectId: p.id });
    assert.equal((await untaggedRunner.requestBuild()).outcome, 'nothing');
    const all = await registeredRunner(app, { projectId: p.id, tagList: 'postgres,ruby,extra' });
    assert.equal((await all.requestBuild()).outcome, 'build');
  });

  test('shared runners serve projects with shared runners and builds enabled; not others', async () => {
    await clearQueue(app);
    const on = await project();
    const off = await project();
    const noBuilds = await project();
    await app.ctx.db.updateTable('projects').set({ shared_runners_enabled: 0 }).where('id', '=', off.id).execute();
    await app.ctx.db.updateTable('projects').set({ builds_enabled: 0 }).where('id', '=', noBuilds.id).execute();
    const offBuild = await seedPipeline(app, off.id, { sha: off.head, builds: [{}] });
    const noBuildsBuild = await seedPipeline(app, noBuilds.id, { sha: noBuilds.head, builds: [{}] });
    const onBuild = await seedPipeline(app, on.id, { sha: on.head, builds: [{}] });
    const shared = await registeredRunner(app);
    const got: any = await shared.requestBuild();
    assert.equal(got.build.id, onBuild.builds[0].id);
    assert.equal((await shared.requestBuild()).outcome, 'nothing');
    assert.equal((await buildRow(app, offBuild.builds[0].id)).status, 'pending');
    assert.equal((await buildRow(app, noBuildsBuild.builds[0].id)).status, 'pending');
  });

  test('shared runners: the project using shared runners least goes first (fair share), then the oldest build', async () => {
    await clearQueue(app);
    const busy = await project();
    const idle = await project();
    const first = await seedPipeline(app, busy.id, { sha: busy.head, builds: [{ name: 'a' }, { name: 'b' }] });
    const later = await seedPipeline(app, idle.id, { sha: idle.head, builds: [{ name: 'c' }] });
    const shared = await registeredRunner(app);
    const one: any = await shared.requestBuild();
    assert.equal(one.build.id, first.builds[0].id);
    // busy now runs one build on a shared runner, idle none: idle's newer build goes first.
    const two: any = await shared.requestBuild();
    assert.equal(two.build.id, later.builds[0].id);
    const three: any = await shared.requestBuild();
    assert.equal(three.build.id, first.builds[1].id);
  });

  test('a locked shared runner never gets a build', async () => {
    const p = await project();
    const seeded = await seedPipeline(app, p.id, { sha: p.head, builds: [{}] });
    const shared = await registeredRunner(app);
    await app.ctx.db
      .updateTable('ci_runners')
      .set({ locked: 1 })
      .where('id', '=', (await runnerRow(app, shared.token!))!.id)
      .execute();
    assert.equal((await shared.requestBuild()).outcome, 'nothing');
    assert.equal((await buildRow(app, seeded.builds[0].id)).status, 'pending');
  });
});

describe('PUT /ci/api/v1/builds/:id', () => {
  async function running() {
    const p = await project();
    const seeded = await seedPipeline(app, p.id, {
      sha: p.head,
      builds: [
        { name: 'one', stage_idx: 0 },
        { name: 'two', stage: 'deploy', stage_idx: 1, status: 'created' },
      ],
    });
    const runner = await registeredRunner(app, { projectId: p.id });
    const got: any = await runner.requestBuild();
    return { p, seeded, runner, build: got.build };
  }

  test('a running build of this runner: 200, and the trace stays when no trace is sent', async () => {
    const { runner, build } = await running();
    await runner.appendTrace(build, 'BUILD TRACE');
    const response = await runner.updateState(build, 'running');
    assert.equal(response.status, 200);
    assert.equal((await buildRow(app, build.id)).status, 'running');
    const trace = await app.ctx.files.stat(`builds/${build.payload.project_id}/${build.id}/trace.log`);
    assert.equal(trace?.size, 11);
  });

  test('state success ends the build and opens the next stage; failed drops it', async () => {
    const { runner, build, seeded } = await running();
    assert.equal((await runner.finish(build, 'success', 'done\n')).status, 200);
    assert.equal((await buildRow(app, build.id)).status, 'success');
    assert.equal((await buildRow(app, seeded.builds[1].id)).status, 'pending');
    const next: any = await runner.requestBuild();
    assert.equal((await runner.finish(next.build, 'failed', 'boom\n')).status, 200);
    assert.equal((await buildRow(app, next.build.id)).status, 'failed');
  });

  test('a state that is not success or failed changes nothing', async () => {
    const { runner, build } = await running();
    for (const state of ['running', 'canceled', 'pending', 'bogus']) assert.equal((await runner.updateState(build, state)).status, 200);
    assert.equal((await runner.json('PUT', `builds/${build.id}.json`, { token: runner.token, state: 42 })).status, 200);
    assert.equal((await buildRow(app, build.id)).status, 'running');
  });

  test('the full trace replaces the stored one only when it is longer or there is none yet', async () => {
    const { runner, build } = await running();
    await runner.appendTrace(build, 'a long trace sent by parts\n');
    const key = `builds/${build.payload.project_id}/${build.id}/trace.log`;
    assert.equal(
      (await runner.json('PUT', `builds/${build.id}.json`, { token: runner.token, state: 'running', trace: 'short' })).status,
      200,
    );
    assert.equal((await app.ctx.files.stat(key))?.size, 27);
    assert.equal((await runner.json('PUT', `builds/${build.id}.json`, { token: runner.token, state: 'running', trace: '' })).status, 200);
    assert.equal((await app.ctx.files.stat(key))?.size, 27);
    await runner.finish(build, 'success', 'a long trace sent by parts\nand its end\n');
    assert.equal((await app.ctx.files.stat(key))?.size, 39);
  });

  test('not a running build of this runner (unknown, -1, another runner\'s, canceled): 404 {"message":"404 Not found"}', async () => {
    const { runner, build, p } = await running();
    const other = await registeredRunner(app, { projectId: p.id });
    for (const id of ['999999', '-1', '99999999999999999999', 'abc', '0']) {
      const response = await runner.json('PUT', `builds/${id}`, { token: runner.token, state: 'success' });
      assert.equal(response.status, 404, id);
      assert.deepEqual(response.body, { message: '404 Not found' });
    }
    assert.equal((await other.finish(build, 'success', 'x')).status, 404);
    await app.ctx.db.updateTable('ci_builds').set({ status: 'canceled' }).where('id', '=', build.id).execute();
    assert.equal((await runner.finish(build, 'success', 'x')).status, 404);
    assert.equal((await buildRow(app, build.id)).status, 'canceled');
  });

  test('verify: PUT builds/-1 answers 404 for a valid runner token and 403 for an invalid one', async () => {
    const p = await project();
    const runner = await registeredRunner(app, { projectId: p.id });
    assert.equal((await runner.verify()).status, 404);
    assert.equal((await new RunnerClient(app.url, 'gone').verify()).status, 403);
    assert.equal((await new RunnerClient(app.url).verify()).status, 403);
  });

  test('an erased build: 403', async () => {
    const { runner, build } = await running();
    await app.ctx.db.updateTable('ci_builds').set({ erased_at: new Date().toISOString() }).where('id', '=', build.id).execute();
    const response = await runner.finish(build, 'success', 'x');
    assert.equal(response.status, 403);
    assert.deepEqual(response.body, { message: '403 Forbidden - Build has been erased!' });
  });

  test('bad input never answers 500: garbage JSON, wrong types, huge and negative ids', async () => {
    const { runner, build } = await running();
    const url = `${app.url}/ci/api/v1/builds/${build.id}`;
    const garbage = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"token": ' });
    assert.equal(garbage.status, 400);
    for (const body of [{ token: 42 }, { token: ['a'] }, { token: { a: 1 } }, { token: runner.token, trace: 12, state: ['success'] }]) {
      const response = await runner.json('PUT', `builds/${build.id}`, body);
      assert.ok(response.status < 500, JSON.stringify(body));
    }
    const array = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '[1,2]' });
    assert.ok(array.status < 500);
    const registerGarbage = await fetch(`${app.url}/ci/api/v1/builds/register.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'nope',
    });
    assert.equal(registerGarbage.status, 400);
  });
});
