import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createPeople, createProjectWorld, type People, type ProjectWorld, type Role } from '../../support/project-world';
import { assertRouteAccess, assertAccess, expectedStatus, REFUSALS } from '../../support/access-matrix';
import { cloneUrl, git, workTree } from '../../support/git';
import { eventually } from '../../support/eventually';
import { registeredRunner } from '../../support/ci-world';
import type { RunnerClient, RunningBuild } from '../../support/runner-client';
import type { ApiClient } from '../../support/client';

/*
 * Deployments as runners make them: `.gitlab-ci.yml` files pushed over git, their builds run to
 * their end by a client speaking the runner API as gitlab-ci-multi-runner 1.6 does, and what was
 * deployed read through the v3 API.
 */

const DEPLOYING_YAML = `
stages: [test, deploy]
unit:
  stage: test
  script: make test
production:
  stage: deploy
  script: ./deploy
  environment: production
review:
  stage: deploy
  script: ./review
  environment:
    name: review/$CI_BUILD_REF_NAME
    url: https://\${CI_BUILD_REF_NAME}.review.example.com
staging:
  stage: deploy
  script: ./stage
  when: manual
  environment: staging
`;

// One stage of deploy jobs: one fails, one expands every form of reference (`%NAME%` only in the URL,
// as a name may not hold `%`), one expands to a name no environment may have.
const ODD_YAML = `
variables:
  BAD_NAME: "bad*name"
broken:
  script: ./deploy
  environment: broken
expanded:
  script: ./deploy
  environment:
    name: review/\${CI_BUILD_NAME}-$CI_BUILD_REF_NAME$UNKNOWN
    url: https://%CI_BUILD_NAME%.example.com
invalid:
  script: ./deploy
  environment: "$BAD_NAME"
`;

let app: TestApp;
let people: People<Role>;
/** A private project with a member of each role, deploying with DEPLOYING_YAML. */
let world: ProjectWorld<Role>;
let runner: RunnerClient;
let sha: string;
/** A project deploying with ODD_YAML. */
let odd: ProjectWorld<never>;

async function push(project: Pick<ProjectWorld<Role>, 'id' | 'path' | 'owner'>, yaml: string, branch = 'master'): Promise<string> {
  const dir = await workTree(branch, { '.gitlab-ci.yml': yaml, Makefile: 'all:\n' });
  const pushed = await git(['push', '-q', cloneUrl(app.url, project.path, project.owner.user.username, project.owner.token), branch], dir);
  assert.equal(pushed.code, 0, pushed.stderr);
  const head = (await git(['rev-parse', 'HEAD'], dir)).stdout.trim();
  await eventually(async () => (await app.root.get(`/projects/${project.id}/pipelines`)).body.length > 0);
  return head;
}

before(async () => {
  app = await startApp();
  people = await createPeople(app);
  world = await createProjectWorld(app, { people, name: 'deploying', visibility: 0 });
  runner = await registeredRunner(app, { projectId: world.id });
  sha = await push(world, DEPLOYING_YAML);
});
after(() => app.close());

const deployments = (project: { id: number } = world, query?: Record<string, unknown>) =>
  app.root.get(`/projects/${project.id}/deployments`, query);

async function takeBuild(from: RunnerClient, name: string): Promise<RunningBuild> {
  const answer = await from.requestBuild();
  assert.equal(answer.outcome, 'build', `${answer.response.status} ${answer.response.text}`);
  if (answer.outcome !== 'build') throw new Error('no build');
  assert.equal(answer.build.payload.name, name);
  return answer.build;
}

async function run(from: RunnerClient, name: string, state: 'success' | 'failed' = 'success'): Promise<number> {
  const build = await takeBuild(from, name);
  assert.equal((await from.finish(build, state, `$ ${name}\n`)).status, 200);
  return build.id;
}

const buildIds: Record<string, number> = {};
const DEPLOYMENT_KEYS = ['id', 'iid', 'ref', 'sha', 'created_at', 'user', 'environment', 'deployable'];
const USER_BASIC_KEYS = ['name', 'username', 'id', 'state', 'avatar_url', 'web_url'];
const BUILD_KEYS = [
  'id',
  'status',
  'stage',
  'name',
  'ref',
  'tag',
  'coverage',
  'created_at',
  'started_at',
  'finished_at',
  'user',
  'artifacts_file',
  'commit',
  'runner',
];

describe('deployments made by successful builds', () => {
  test('a build that is not a deploy job deploys nothing', async () => {
    buildIds.unit = await run(runner, 'unit');
    assert.deepEqual((await deployments()).body, []);
  });

  test("a deploy job that succeeds deploys to its environment: iid 1, the build's ref, sha and user", async () => {
    buildIds.production = await run(runner, 'production');
    const list = await deployments();
    assert.equal(list.status, 200);
    assert.equal(list.body.length, 1);
    const [deployment] = list.body;
    assert.deepEqual(Object.keys(deployment), DEPLOYMENT_KEYS);
    assert.deepEqual([deployment.iid, deployment.ref, deployment.sha], [1, 'master', sha]);
    assert.deepEqual(Object.keys(deployment.user), USER_BASIC_KEYS);
    assert.equal(deployment.user.id, world.owner.user.id);
    assert.deepEqual(Object.keys(deployment.environment), ['id', 'name', 'external_url']);
    assert.deepEqual([deployment.environment.name, deployment.environment.external_url], ['production', null]);
  });

  test("the deployment's deployable is its build, as the builds API shows it (the full User, location included)", async () => {
    const [deployment] = (await deployments()).body;
    const { deployable } = deployment;
    assert.deepEqual(Object.keys(deployable), BUILD_KEYS);
    assert.deepEqual(
      [deployable.id, deployable.name, deployable.status, deployable.stage],
      [buildIds.production, 'production', 'success', 'deploy'],
    );
    assert.equal(deployable.commit.id, sha);
    assert.ok('location' in deployable.user);
    const build = await app.root.get(`/projects/${world.id}/builds/${buildIds.production}`);
    assert.deepEqual(deployable, build.body);
  });

  test("the environment name and url are expanded with the build's variables; a name with a slash has a type", async () => {
    buildIds.review = await run(runner, 'review');
    const list = (await deployments()).body;
    assert.deepEqual(
      list.map((deployment: any) => deployment.iid),
      [1, 2],
    );
    assert.deepEqual(list[1].environment.name, 'review/master');
    assert.deepEqual(list[1].environment.external_url, 'https://master.review.example.com');
    assert.equal(list[1].deployable.id, buildIds.review);
    const row = await app.ctx.db.selectFrom('environments').selectAll().where('id', '=', list[1].environment.id).executeTakeFirstOrThrow();
    assert.equal(row.environment_type, 'review');
    const environments = await app.root.get(`/projects/${world.id}/environments`);
    assert.deepEqual(
      environments.body.map((environment: any) => environment.name),
      ['production', 'review/master'],
    );
  });

  test('a played manual deploy job deploys when it succeeds, as the user who played it', async () => {
    const builds = (await app.root.get(`/projects/${world.id}/builds`)).body;
    const staging = builds.find((build: any) => build.name === 'staging');
    assert.equal(staging.status, 'skipped');
    assert.equal((await deployments()).body.length, 2);
    const played = await world.developer.client.post(`/projects/${world.id}/builds/${staging.id}/play`);
    assert.equal(played.status, 200, JSON.stringify(played.body));
    buildIds.staging = await run(runner, 'staging');
    const list = (await deployments()).body;
    assert.deepEqual(
      list.map((deployment: any) => deployment.iid),
      [1, 2, 3],
    );
    assert.deepEqual([list[2].environment.name, list[2].user.id, list[2].deployable.id], ['staging', world.developer.user.id, staging.id]);
  });

  test('a retried deploy job that succeeds deploys again, to the same environment', async () => {
    const retried = await world.developer.client.post(`/projects/${world.id}/builds/${buildIds.production}/retry`);
    assert.equal(retried.status, 201, JSON.stringify(retried.body));
    const again = await run(runner, 'production');
    assert.equal(again, retried.body.id);
    const list = (await deployments()).body;
    assert.deepEqual(
      list.map((deployment: any) => deployment.iid),
      [1, 2, 3, 4],
    );
    assert.equal(list[3].environment.id, list[0].environment.id);
    assert.equal(list[3].deployable.id, again);
    assert.equal(list[0].deployable.id, buildIds.production);
  });

  test('a failed deploy job deploys nothing and makes no environment; iids are per project; a name that expands to an invalid one deploys nothing, silently', async () => {
    odd = await createProjectWorld(app, { people, name: 'odd-deploys', roles: [] });
    const oddRunner = await registeredRunner(app, { projectId: odd.id });
    await push(odd, ODD_YAML);
    for (let i = 0; i < 3; i++) {
      const build = await oddRunner.requestBuild();
      if (build.outcome !== 'build') throw new Error(`no build: ${build.response.status}`);
      const state = build.build.payload.name === 'broken' ? 'failed' : 'success';
      assert.equal((await oddRunner.finish(build.build, state)).status, 200);
    }
    const statuses = (await odd.owner.client.get(`/projects/${odd.id}/builds`)).body.map((build: any) => [build.name, build.status]).sort();
    assert.deepEqual(statuses, [
      ['broken', 'failed'],
      ['expanded', 'success'],
      ['invalid', 'success'],
    ]);
    const list = (await deployments(odd)).body;
    assert.deepEqual(
      list.map((deployment: any) => [deployment.iid, deployment.environment.name]),
      [[1, 'review/expanded-master']],
    );
    assert.equal(list[0].environment.external_url, 'https://expanded.example.com');
    const environments = (await odd.owner.client.get(`/projects/${odd.id}/environments`)).body;
    assert.deepEqual(
      environments.map((environment: any) => environment.name),
      ['review/expanded-master'],
    );
  });
});

describe('GET /projects/:id/deployments', () => {
  test('lists the deployments oldest first, paginated', async () => {
    const all = (await deployments()).body.map((deployment: any) => deployment.id);
    assert.equal(all.length, 4);
    assert.deepEqual(
      [...all].sort((a: number, b: number) => a - b),
      all,
    );
    const page = await deployments(world, { per_page: 3, page: 2 });
    assert.equal(page.status, 200);
    assert.deepEqual(
      page.body.map((deployment: any) => deployment.id),
      [all[3]],
    );
    assert.equal(page.headers.get('x-total'), '4');
    assert.equal(page.headers.get('x-total-pages'), '2');
  });

  test('needs read_deployment: reporters and up; guests 403, outsiders 404, anonymous 401', async () => {
    await assertDeploymentAccess((client) => client.get(`/projects/${world.id}/deployments`));
  });

  test('on a public project too, non-members may not read deployments: 403', async () => {
    const open = await createProjectWorld(app, { people, name: 'public-deployments', visibility: 20 });
    await assertAccess(
      open.clients,
      (client) => client.get(`/projects/${open.id}/deployments`),
      (caller) => expectedStatus('public', caller, { minimum: 'reporter' }),
    );
  });

  test('with builds disabled, nobody reads deployments, not even the owner or an admin: 403', async () => {
    const off = await createProjectWorld(app, { people, name: 'no-builds-deployments', roles: [] });
    await app.ctx.db.updateTable('projects').set({ builds_enabled: 0 }).where('id', '=', off.id).execute();
    for (const client of [off.owner.client, app.root]) {
      const response = await client.get(`/projects/${off.id}/deployments`);
      assert.deepEqual([response.status, response.body], [403, REFUSALS[403]]);
    }
  });
});

describe('GET /projects/:id/deployments/:deployment_id', () => {
  test('shows one deployment by its id, as the list does', async () => {
    const list = (await deployments()).body;
    const response = await world.reporter.client.get(`/projects/${world.id}/deployments/${list[1].id}`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, list[1]);
  });

  test('an unknown deployment, or another project\'s, answers 404 "404 Not found"', async () => {
    const foreignId = (await deployments(odd)).body[0].id;
    for (const id of [999999, foreignId]) {
      const response = await world.reporter.client.get(`/projects/${world.id}/deployments/${id}`);
      assert.deepEqual([response.status, response.body], [404, { message: '404 Not found' }], String(id));
    }
    assert.equal((await world.reporter.client.get(`/projects/${world.id}/deployments/abc`)).status, 404);
  });

  test('needs read_deployment: reporters and up', async () => {
    const [first] = (await deployments()).body;
    await assertDeploymentAccess((client) => client.get(`/projects/${world.id}/deployments/${first.id}`));
  });
});

/** The 401/404/403 table of a deployments route on the private world, and GitLab's body for each refusal. */
function assertDeploymentAccess(call: (client: ApiClient) => Promise<{ status: number; body?: unknown }>): Promise<void> {
  return assertRouteAccess(
    { private: world },
    (client) => call(client),
    (visibility, caller) => expectedStatus(visibility, caller, { minimum: 'reporter' }),
  );
}
