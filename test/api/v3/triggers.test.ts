import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startApp, type TestApp } from '../../support/app';
import type { ApiClient } from '../../support/client';
import { createPeople, createProjectWorld, type People, type ProjectWorld } from '../../support/project-world';
import { assertAccess, expectedStatus, REFUSALS, type Visibility } from '../../support/access-matrix';
import { seedCommit } from '../../support/repo';
import { registeredRunner } from '../../support/ci-world';
import { cloneUrl, git, workTree } from '../../support/git';
import { eventually } from '../../support/eventually';

/*
 * Build triggers: masters manage a project's trigger tokens; anyone holding one starts a pipeline
 * for a ref with `POST /projects/:id/trigger/builds`, no user needed, with variables for its builds.
 */

const CI_YML = `
stages: [build, test]
compile:
  stage: build
  script: make
unit:
  stage: test
  script: make test
on_trigger:
  stage: test
  script: ./nightly
  only: [triggers]
on_push:
  stage: test
  script: ./lint
  except: [triggers]
`;

type Role = 'master' | 'developer' | 'reporter' | 'guest' | 'stranger';

let app: TestApp;
let people: People<Role>;
let world: ProjectWorld<Role>;
let publicWorld: ProjectWorld<Role>;
let other: ProjectWorld<'master'>;
let master: ApiClient;

before(async () => {
  app = await startApp();
  people = await createPeople<Role>(app);
  world = await createProjectWorld(app, {
    people,
    name: 'triggered',
    visibility: 0,
    commits: [
      { files: { 'README.md': '# triggered\n', '.gitlab-ci.yml': CI_YML } },
      { branch: 'no-ci', files: { 'README.md': 'no CI here\n' } },
      { branch: 'broken', files: { '.gitlab-ci.yml': 'compile: {script: make, stage: nowhere}\n' } },
      { branch: 'feature/tagged', files: { '.gitlab-ci.yml': CI_YML }, message: 'tagged commit\n' },
      // `[ci skip]` holds pushes back, never triggers.
      { branch: 'nightly', files: { '.gitlab-ci.yml': CI_YML }, message: 'Nightly set-up [ci skip]\n' },
    ],
  });
  publicWorld = await createProjectWorld(app, { people, name: 'triggered-public', visibility: 20 });
  other = await createProjectWorld(app, { roles: ['master'], name: 'elsewhere', commits: [{ files: { '.gitlab-ci.yml': CI_YML } }] });
  master = world.master.client;
  const tagged = await app.root.post(`/projects/${world.id}/repository/tags`, { tag_name: 'v1.0', ref: 'feature/tagged' });
  assert.equal(tagged.status, 201, tagged.text);
});
after(() => app.close());

const triggersOf = (projectId: number) => `/projects/${projectId}/triggers`;
const triggerBuilds = (project: number | string) =>
  `/projects/${typeof project === 'number' ? project : encodeURIComponent(project)}/trigger/builds`;

async function newTrigger(projectId = world.id, client = master): Promise<{ token: string; created_at: string; last_used: string | null }> {
  const response = await client.post(triggersOf(projectId));
  assert.equal(response.status, 201, response.text);
  return response.body;
}

const triggerNotFound = { message: '404 Trigger Not Found' };
const notFound = { message: '404 Not Found' };
const noBuilds = { message: 'No builds created' };

describe('trigger management: masters only (admin_build)', () => {
  const projects = (): Array<[Visibility, ProjectWorld<Role>]> => [
    ['private', world],
    ['public', publicWorld],
  ];

  test('listing: 401 anonymous, 404 to who cannot see the project, 403 below master', async () => {
    for (const [visibility, project] of projects()) {
      await assertAccess(
        project.clients,
        (client) => client.get(triggersOf(project.id)),
        (caller) => expectedStatus(visibility, caller, { minimum: 'master' }),
        visibility,
      );
    }
  });

  test('showing one', async () => {
    for (const [visibility, project] of projects()) {
      const { token } = await newTrigger(project.id, project.owner.client);
      await assertAccess(
        project.clients,
        (client) => client.get(`${triggersOf(project.id)}/${token}`),
        (caller) => expectedStatus(visibility, caller, { minimum: 'master' }),
        visibility,
      );
    }
  });

  test('creating', async () => {
    for (const [visibility, project] of projects()) {
      await assertAccess(
        project.clients,
        (client) => client.post(triggersOf(project.id)),
        (caller) => expectedStatus(visibility, caller, { minimum: 'master', success: 201 }),
        visibility,
      );
    }
  });

  test('deleting', async () => {
    for (const [visibility, project] of projects()) {
      const call = async (client: ApiClient) =>
        client.delete(`${triggersOf(project.id)}/${(await newTrigger(project.id, project.owner.client)).token}`);
      await assertAccess(project.clients, call, (caller) => expectedStatus(visibility, caller, { minimum: 'master' }), visibility);
    }
  });

  test('refusals carry GitLab’s bodies', async () => {
    assert.deepEqual((await app.anonymous.get(triggersOf(world.id))).body, REFUSALS[401]);
    assert.deepEqual((await world.stranger.client.get(triggersOf(world.id))).body, REFUSALS[404]);
    assert.deepEqual((await world.developer.client.post(triggersOf(world.id))).body, REFUSALS[403]);
  });
});

describe('trigger management', () => {
  test('a new trigger has a token of 30 hex characters, and has never been used', async () => {
    const before = Date.now();
    const trigger = await newTrigger();
    assert.match(trigger.token, /^[0-9a-f]{30}$/);
    assert.deepEqual(Object.keys(trigger), ['token', 'created_at', 'updated_at', 'deleted_at', 'last_used']);
    assert.ok(Date.parse(trigger.created_at) >= before - 1000);
    assert.equal((trigger as any).deleted_at, null);
    assert.equal(trigger.last_used, null);
    assert.notEqual((await newTrigger()).token, trigger.token);
  });

  test('one trigger is shown by its token; unknown tokens and other projects’ are 404 Trigger Not Found', async () => {
    const trigger = await newTrigger();
    const shown = await master.get(`${triggersOf(world.id)}/${trigger.token}`);
    assert.equal(shown.status, 200);
    assert.deepEqual(shown.body, trigger);
    const unknown = await master.get(`${triggersOf(world.id)}/${'0'.repeat(30)}`);
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, triggerNotFound);
    const foreign = await newTrigger(other.id, other.master.client);
    assert.deepEqual((await master.get(`${triggersOf(world.id)}/${foreign.token}`)).body, triggerNotFound);
  });

  test('the list is paginated, oldest first, and leaves deleted triggers out', async () => {
    const { body: project } = await master.post('/projects', { name: 'listed triggers' });
    const first = await newTrigger(project.id);
    const second = await newTrigger(project.id);
    const third = await newTrigger(project.id);
    assert.equal((await master.delete(`${triggersOf(project.id)}/${second.token}`)).status, 200);
    const page = await master.get(triggersOf(project.id), { per_page: 1 });
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('x-total'), '2');
    assert.equal(page.headers.get('x-total-pages'), '2');
    assert.deepEqual(
      page.body.map((t: any) => t.token),
      [first.token],
    );
    const all = await master.get(triggersOf(project.id));
    assert.deepEqual(
      all.body.map((t: any) => t.token),
      [first.token, third.token],
    );
  });

  test('deletion is soft: the trigger is answered with deleted_at, then gone for every look-up', async () => {
    const trigger = await newTrigger();
    const deleted = await master.delete(`${triggersOf(world.id)}/${trigger.token}`);
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.token, trigger.token);
    assert.ok(deleted.body.deleted_at && Date.parse(deleted.body.deleted_at) >= Date.parse(trigger.created_at));
    assert.deepEqual((await master.get(`${triggersOf(world.id)}/${trigger.token}`)).body, triggerNotFound);
    const again = await master.delete(`${triggersOf(world.id)}/${trigger.token}`);
    assert.equal(again.status, 404);
    assert.deepEqual(again.body, triggerNotFound);
    const used = await app.anonymous.post(triggerBuilds(world.id), { ref: 'master', token: trigger.token });
    assert.equal(used.status, 404);
    assert.deepEqual(used.body, notFound);
  });

  test('last_used is the time of the latest call, whether or not it made a pipeline', async () => {
    const trigger = await newTrigger();
    const first = await app.anonymous.post(triggerBuilds(world.id), { ref: 'no-ci', token: trigger.token });
    assert.equal(first.status, 400);
    const afterFirst = (await master.get(`${triggersOf(world.id)}/${trigger.token}`)).body.last_used;
    assert.ok(afterFirst && Date.parse(afterFirst) >= Date.parse(trigger.created_at));
    await app.anonymous.post(triggerBuilds(world.id), { ref: 'master', token: trigger.token });
    const listed = (await master.get(triggersOf(world.id), { per_page: 100 })).body.find((t: any) => t.token === trigger.token);
    assert.ok(Date.parse(listed.last_used) >= Date.parse(afterFirst));
    const requests = await app.ctx.db
      .selectFrom('ci_trigger_requests')
      .innerJoin('ci_triggers', 'ci_triggers.id', 'ci_trigger_requests.trigger_id')
      .select(['ci_trigger_requests.created_at', 'ci_trigger_requests.pipeline_id'])
      .where('ci_triggers.project_id', '=', world.id)
      .orderBy('ci_trigger_requests.id', 'desc')
      .limit(2)
      .execute();
    assert.equal(requests[0].created_at, listed.last_used);
    assert.equal(requests[1].pipeline_id, null, 'the request that made no pipeline is kept');
    assert.notEqual(requests[0].pipeline_id, null);
  });
});

describe('POST /projects/:id/trigger/builds: its checks, in 8.12’s order', () => {
  let token: string;
  before(async () => {
    token = (await newTrigger()).token;
  });

  test('ref, then token, are required (400), before anything is looked up', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'ref'],
      [{ token }, 'ref'],
      [{ ref: '', token }, 'ref'],
      [{ ref: 'master' }, 'token'],
      [{ ref: 'master', token: '  ' }, 'token'],
    ];
    for (const [body, missing] of cases) {
      const response = await app.anonymous.post(triggerBuilds(999999), body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.deepEqual(response.body, { message: `400 (Bad request) "${missing}" not given` });
    }
  });

  test('an unknown project or token is 404 Not Found; a token of another project 401', async () => {
    for (const [project, given] of [
      [999999, token],
      [world.id, 'f'.repeat(30)],
      ['nobody/nothing', token],
    ] as const) {
      const response = await app.anonymous.post(triggerBuilds(project), { ref: 'master', token: given });
      assert.equal(response.status, 404, String(project));
      assert.deepEqual(response.body, notFound);
    }
    const foreign = await newTrigger(other.id, other.master.client);
    const response = await app.anonymous.post(triggerBuilds(world.id), {
      ref: 'master',
      token: foreign.token,
      variables: 'not even a hash',
    });
    assert.equal(response.status, 401);
    assert.deepEqual(response.body, { message: '401 Unauthorized' });
  });

  test('variables must be a hash, then a hash of strings (JSON and forms alike)', async () => {
    const hash = { message: 'variables needs to be a hash' };
    const strings = { message: 'variables needs to be a map of key-valued strings' };
    const json: Array<[unknown, unknown]> = [
      ['value', hash],
      [['a'], hash],
      [5, hash],
      [{ key: ['1', '2'] }, strings],
      [{ key: 1 }, strings],
      [{ key: { deeper: 'x' } }, strings],
    ];
    for (const [variables, message] of json) {
      const response = await app.anonymous.post(triggerBuilds(world.id), { ref: 'master', token, variables });
      assert.equal(response.status, 400, JSON.stringify(variables));
      assert.deepEqual(response.body, message, JSON.stringify(variables));
    }
    const forms: Array<[string, unknown]> = [
      ['variables=value', hash],
      ['variables[key][]=1&variables[key][]=2', strings],
      ['variables[key][]=1', strings],
      ['variables[key][deeper]=1', strings],
    ];
    for (const [form, message] of forms) {
      const response = await app.anonymous.raw('POST', triggerBuilds(world.id), {
        body: `ref=master&token=${token}&${form}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(response.status, 400, form);
      assert.deepEqual(response.body, message, form);
    }
  });

  test('No builds created (400) for a ref without .gitlab-ci.yml, an unknown ref, a sha, or builds disabled', async () => {
    for (const ref of ['no-ci', 'other-branch', world.shas[0], 'refs/heads/no-ci']) {
      const response = await app.anonymous.post(triggerBuilds(world.id), { ref, token });
      assert.equal(response.status, 400, ref);
      assert.deepEqual(response.body, noBuilds, ref);
    }
    const { body: project } = await master.post('/projects', { name: 'no builds' });
    await seedCommit(app, project.id, { files: { '.gitlab-ci.yml': CI_YML } });
    const own = await newTrigger(project.id);
    assert.equal((await app.anonymous.post(triggerBuilds(project.id), { ref: 'master', token: own.token })).status, 201);
    assert.equal((await master.put(`/projects/${project.id}`, { builds_enabled: false })).status, 200);
    const disabled = await app.anonymous.post(triggerBuilds(project.id), { ref: 'master', token: own.token });
    assert.equal(disabled.status, 400);
    assert.deepEqual(disabled.body, noBuilds);
  });
});

describe('POST /projects/:id/trigger/builds: the pipeline it makes', () => {
  let token: string;
  before(async () => {
    token = (await newTrigger()).token;
  });

  async function pipelineOf(sha: string, ref: string): Promise<any> {
    const list = await master.get(`/projects/${world.id}/pipelines`, { per_page: 100 });
    return list.body.find((pipeline: any) => pipeline.sha === sha && pipeline.ref === ref);
  }

  async function buildsOf(sha: string): Promise<Array<{ name: string; status: string; user: unknown }>> {
    return (await master.get(`/projects/${world.id}/repository/commits/${sha}/builds`, { per_page: 100 })).body;
  }

  test('201 with the request; a pipeline without user, [ci skip] ignored, only the jobs for triggers', async () => {
    const response = await app.anonymous.post(triggerBuilds(world.id), { ref: 'nightly', token, variables: { DEPLOY_TO: 'staging' } });
    assert.equal(response.status, 201, response.text);
    assert.deepEqual(Object.keys(response.body), ['id', 'variables']);
    assert.equal(typeof response.body.id, 'number');
    assert.deepEqual(response.body.variables, { DEPLOY_TO: 'staging' });
    const pipeline = await pipelineOf(world.shas[4], 'nightly');
    assert.ok(pipeline, 'the pipeline is listed');
    assert.equal(pipeline.status, 'pending');
    assert.equal(pipeline.user, null);
    assert.equal(pipeline.tag, false);
    assert.equal(pipeline.before_sha, '0'.repeat(40));
    const builds = await buildsOf(world.shas[4]);
    assert.deepEqual(builds.map((b) => b.name).sort(), ['compile', 'on_trigger', 'unit']);
    assert.deepEqual(Object.fromEntries(builds.map((b) => [b.name, b.status])), {
      compile: 'pending',
      unit: 'created',
      on_trigger: 'created',
    });
    assert.ok(builds.every((b) => b.user === null));
  });

  test('without variables the request’s are null; the project may be named by its path', async () => {
    const response = await app.anonymous.post(triggerBuilds(world.path), { ref: 'master', token });
    assert.equal(response.status, 201, response.text);
    assert.deepEqual(response.body, { id: response.body.id, variables: null });
    const withNull = await app.anonymous.post(triggerBuilds(world.id), { ref: 'master', token, variables: null });
    assert.equal(withNull.status, 201, withNull.text);
    assert.equal(withNull.body.variables, null);
  });

  test('form variables as `variables[KEY]=value`, with the ref and token in the query string', async () => {
    const response = await app.anonymous.raw('POST', `${triggerBuilds(world.id)}?ref=master&token=${token}`, {
      body: 'variables[ONE]=1&variables[TWO]=two%20words',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(response.status, 201, response.text);
    assert.deepEqual(response.body.variables, { ONE: '1', TWO: 'two words' });
  });

  test('a .gitlab-ci.yml with errors still makes a failed pipeline (201)', async () => {
    const response = await app.anonymous.post(triggerBuilds(world.id), { ref: 'broken', token });
    assert.equal(response.status, 201, response.text);
    const sha = (await master.get(`/projects/${world.id}/repository/branches/broken`)).body.commit.id;
    const pipeline = await pipelineOf(sha, 'broken');
    assert.equal(pipeline.status, 'failed');
    assert.match(pipeline.yaml_errors, /stage parameter should be/);
    assert.deepEqual(await buildsOf(sha), []);
  });

  test('a tag makes a tag pipeline of the tagged commit', async () => {
    const response = await app.anonymous.post(triggerBuilds(world.id), { ref: 'v1.0', token });
    assert.equal(response.status, 201, response.text);
    const pipeline = await pipelineOf(world.shas[3], 'v1.0');
    assert.ok(pipeline);
    assert.equal(pipeline.tag, true);
  });

  test('a private project is triggered by its token alone, whoever calls', async () => {
    const response = await world.stranger.client.post(triggerBuilds(world.id), { ref: 'master', token });
    assert.equal(response.status, 201);
  });
});

describe('a triggered build, as its runner receives it', () => {
  test('CI_BUILD_TRIGGERED and the trigger’s variables come last, over secret variables; a retry keeps them', async () => {
    const { body: project } = await master.post('/projects', { name: 'triggered runner' });
    await seedCommit(app, project.id, { files: { '.gitlab-ci.yml': CI_YML } });
    assert.equal((await master.post(`/projects/${project.id}/variables`, { key: 'SHARED', value: 'secret' })).status, 201);
    const runner = await registeredRunner(app, { projectId: project.id });
    const { token } = await newTrigger(project.id);
    const triggered = await app.anonymous.post(triggerBuilds(project.id), {
      ref: 'master',
      token,
      variables: { SHARED: 'from trigger', EXTRA: 'x' },
    });
    assert.equal(triggered.status, 201, triggered.text);

    const taken = await runner.requestBuild();
    assert.equal(taken.outcome, 'build');
    const variables: Array<{ key: string; value: string; public: boolean }> =
      taken.outcome === 'build' ? taken.build.payload.variables : [];
    const keys = variables.map((v) => v.key);
    assert.deepEqual(
      variables.find((v) => v.key === 'CI_BUILD_TRIGGERED'),
      { key: 'CI_BUILD_TRIGGERED', value: 'true', public: true },
    );
    // Predefined: after CI_BUILD_TAG's place, before the project's.
    assert.ok(
      keys.indexOf('CI_BUILD_TRIGGERED') > keys.indexOf('CI_SERVER_REVISION') &&
        keys.indexOf('CI_BUILD_TRIGGERED') < keys.indexOf('CI_PROJECT_ID'),
    );
    assert.deepEqual(variables.slice(-3), [
      { key: 'SHARED', value: 'secret', public: false },
      { key: 'SHARED', value: 'from trigger', public: false },
      { key: 'EXTRA', value: 'x', public: false },
    ]);
    assert.ok(!keys.includes('GITLAB_USER_ID'), 'a triggered pipeline has no user');

    const buildId = taken.outcome === 'build' ? taken.build.id : 0;
    assert.equal((await master.post(`/projects/${project.id}/builds/${buildId}/cancel`)).status, 201);
    const retried = await master.post(`/projects/${project.id}/builds/${buildId}/retry`);
    assert.equal(retried.status, 201, retried.text);
    const again = await runner.requestBuild();
    assert.equal(again.outcome, 'build');
    const retriedVariables: Array<{ key: string; value: string }> = again.outcome === 'build' ? again.build.payload.variables : [];
    assert.equal(again.outcome === 'build' && again.build.id, retried.body.id);
    assert.ok(retriedVariables.some((v) => v.key === 'CI_BUILD_TRIGGERED'));
    assert.deepEqual(
      retriedVariables.slice(-2).map((v) => [v.key, v.value]),
      [
        ['SHARED', 'from trigger'],
        ['EXTRA', 'x'],
      ],
    );
  });

  test('a triggered deploy job expands its environment with the trigger’s variables', async () => {
    const { body: project } = await master.post('/projects', { name: 'triggered deploy' });
    await seedCommit(app, project.id, { files: { '.gitlab-ci.yml': 'deploy:\n  script: ./deploy\n  environment: review/$TARGET\n' } });
    const runner = await registeredRunner(app, { projectId: project.id });
    const { token } = await newTrigger(project.id);
    assert.equal(
      (await app.anonymous.post(triggerBuilds(project.id), { ref: 'master', token, variables: { TARGET: 'nightly' } })).status,
      201,
    );
    const taken = await runner.requestBuild();
    assert.equal(taken.outcome, 'build');
    if (taken.outcome !== 'build') return;
    assert.equal((await runner.finish(taken.build, 'success', '$ ./deploy\n')).status, 200);
    const deployments = await master.get(`/projects/${project.id}/deployments`);
    assert.deepEqual(
      deployments.body.map((d: any) => [d.environment.name, d.deployable.id]),
      [['review/nightly', taken.build.id]],
    );
  });

  test('a pushed pipeline’s builds are not triggered, and run the jobs except triggers', async () => {
    const { body: project } = await master.post('/projects', { name: 'pushed runner' });
    const runner = await registeredRunner(app, { projectId: project.id });
    const work = await workTree('master', { '.gitlab-ci.yml': CI_YML });
    try {
      const pushed = await git(
        ['push', '-q', cloneUrl(app.url, project.path_with_namespace, world.master.user.username, world.master.token), 'master'],
        work,
      );
      assert.equal(pushed.code, 0, pushed.stderr);
      const sha = (await git(['rev-parse', 'HEAD'], work)).stdout.trim();
      const builds = await eventually(
        async () => {
          const listed = (await master.get(`/projects/${project.id}/repository/commits/${sha}/builds`)).body;
          return listed.length > 0 && listed;
        },
        { message: 'the builds of the push' },
      );
      assert.deepEqual(builds.map((b: any) => b.name).sort(), ['compile', 'on_push', 'unit']);
      const taken = await runner.requestBuild();
      assert.equal(taken.outcome, 'build');
      const keys = taken.outcome === 'build' ? taken.build.payload.variables.map((v: any) => v.key) : [];
      assert.ok(keys.includes('GITLAB_USER_ID'));
      assert.ok(!keys.includes('CI_BUILD_TRIGGERED'));
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});
