import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createProjectWorld, type ProjectWorld } from '../../support/project-world';

/*
 * The legacy trigger of the runner API, `POST /ci/api/v1/projects/:id/refs/:ref/trigger` (reference
 * §2.10), as GitLab 8.12's `spec/requests/ci/api/triggers_spec.rb` calls it. Forge's `:id` is the
 * project id (a Forge project's CI id is its id).
 */

const CI_YML = `
stages: [build, test, deploy]
rspec: {stage: build, script: rspec}
spinach: {stage: build, script: spinach}
lint: {stage: test, script: lint}
staging: {stage: deploy, script: deploy staging}
production: {stage: deploy, script: deploy production}
`;

let app: TestApp;
let world: ProjectWorld<'master'>;
let other: ProjectWorld<'master'>;
let token: string;

before(async () => {
  app = await startApp();
  world = await createProjectWorld(app, {
    roles: ['master'],
    commits: [
      {
        files: { '.gitlab-ci.yml': CI_YML },
        message: 'Add CI\n\nwith a body\n',
        author: { name: 'Grace Hopper', email: 'grace@example.com' },
      },
      { branch: 'feature/x', files: { '.gitlab-ci.yml': CI_YML } },
    ],
  });
  other = await createProjectWorld(app, { roles: ['master'] });
  token = (await world.master.client.post(`/projects/${world.id}/triggers`)).body.token;
});
after(() => app.close());

const triggerUrl = (projectId: number | string, ref: string) => `/ci/api/v1/projects/${projectId}/refs/${encodeURIComponent(ref)}/trigger`;
const post = (projectId: number | string, ref: string, body: Record<string, unknown>) =>
  app.anonymous.post(triggerUrl(projectId, ref), body);

describe('POST /ci/api/v1/projects/:id/refs/:ref/trigger', () => {
  test('a missing token is 400', async () => {
    for (const body of [{}, { token: '' }, { token: null }]) {
      const response = await post(world.id, 'master', body);
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, { message: '400 (Bad request) "token" not given' });
    }
  });

  test('an unknown project or token is 404; a trigger of another project 401', async () => {
    for (const [id, given] of [
      [0, token],
      ['abc', token],
      ['99999999999', token],
      [world.id, 'a'.repeat(30)],
    ] as const) {
      const response = await post(id, 'master', { token: given });
      assert.equal(response.status, 404, String(id));
      assert.deepEqual(response.body, { message: '404 Not Found' });
    }
    const response = await post(other.id, 'master', { token });
    assert.equal(response.status, 401);
    assert.deepEqual(response.body, { message: '401 Unauthorized' });
  });

  test('201 with the request and its pipeline: 5 builds, the 2 of the first stage pending', async () => {
    const response = await post(world.id, 'master', { token });
    assert.equal(response.status, 201, response.text);
    const { commit } = response.body;
    assert.deepEqual(Object.keys(response.body), ['id', 'variables', 'commit']);
    assert.equal(response.body.variables, null);
    assert.deepEqual(
      { ...commit, id: 0, created_at: '' },
      {
        id: 0,
        sha: world.shas[0],
        project_id: world.id,
        created_at: '',
        status: 'pending',
        finished_at: null,
        duration: null,
        git_commit_message: 'Add CI\n\nwith a body\n',
        git_author_name: 'Grace Hopper',
        git_author_email: 'grace@example.com',
      },
    );
    const pipeline = await world.master.client.get(`/projects/${world.id}/pipelines/${commit.id}`);
    assert.equal(pipeline.status, 200);
    assert.equal(pipeline.body.created_at, commit.created_at);
    const builds = (await world.master.client.get(`/projects/${world.id}/repository/commits/${world.shas[0]}/builds`)).body;
    assert.equal(builds.length, 5);
    assert.deepEqual(
      builds
        .filter((b: any) => b.status === 'pending')
        .map((b: any) => b.name)
        .sort(),
      ['rspec', 'spinach'],
    );
  });

  test('a ref with no commit is 400 No builds created', async () => {
    const response = await post(world.id, 'other-branch', { token });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: 'No builds created' });
  });

  test('the ref is one path segment: a `/` in a branch name is sent encoded', async () => {
    const response = await post(world.id, 'feature/x', { token });
    assert.equal(response.status, 201, response.text);
    assert.equal(response.body.commit.sha, world.shas[1]);
    assert.equal((await app.anonymous.post(`/ci/api/v1/projects/${world.id}/refs/feature/x/trigger`, { token })).status, 404);
  });

  test('variables: a hash of strings, stored on the request and answered', async () => {
    const notHash = await post(world.id, 'master', { token, variables: 'value' });
    assert.equal(notHash.status, 400);
    assert.deepEqual(notHash.body, { message: 'variables needs to be a hash' });
    const notStrings = await post(world.id, 'master', { token, variables: { key: ['1', '2'] } });
    assert.equal(notStrings.status, 400);
    assert.deepEqual(notStrings.body, { message: 'variables needs to be a map of key-valued strings' });
    const variables = { TRIGGER_KEY: 'TRIGGER_VALUE' };
    const response = await post(world.id, 'master', { token, variables });
    assert.equal(response.status, 201, response.text);
    assert.deepEqual(response.body.variables, variables);
    const stored = await app.ctx.db
      .selectFrom('ci_trigger_requests')
      .select('variables')
      .where('id', '=', response.body.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(stored.variables!), variables);
    const form = await app.anonymous.raw('POST', triggerUrl(world.id, 'master'), {
      body: `token=${token}&variables[TRIGGER_KEY]=from%20a%20form`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(form.status, 201, form.text);
    assert.deepEqual(form.body.variables, { TRIGGER_KEY: 'from a form' });
  });
});
