import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createPeople, createProjectWorld, type People, type ProjectWorld, type Role } from '../../support/project-world';
import { assertRouteAccess, assertAccess, expectedStatus } from '../../support/access-matrix';
import { seedCommit } from '../../support/repo';
import { buildRow, pipelineRow, seedPipeline, type SeedBuild } from '../../support/ci';
import type { ApiClient } from '../../support/client';
import { createTag } from '../../../src/git/write';
import { repoPathOf } from '../../../src/services/repository/repositories';

type World = ProjectWorld<Role>;

let app: TestApp;
let people: People<Role>;
let world: World;
let developer: ApiClient;
let reporter: ApiClient;

before(async () => {
  app = await startApp();
  people = await createPeople(app);
  world = await createProjectWorld(app, {
    people,
    name: 'pipelines',
    visibility: 0,
    commits: [{ files: { 'README.md': '# pipelines\n' } }],
  });
  developer = world.developer.client;
  reporter = world.reporter.client;
});
after(() => app.close());

async function pipelineWith(
  builds: SeedBuild[],
  options: { project?: ProjectWorld<any>; ref?: string; status?: string; sha?: string } = {},
) {
  const project = options.project ?? world;
  return seedPipeline(app, project.id, {
    sha: options.sha ?? project.shas[0],
    ref: options.ref,
    status: options.status ?? 'pending',
    user_id: project.owner.user.id,
    builds,
  });
}

const path = (pipelineId: number | string, suffix = '', project: { id: number } = world) =>
  `/projects/${project.id}/pipelines/${pipelineId}${suffix}`;

function assertPipelineAccess(
  call: (client: ApiClient) => Promise<{ status: number; body?: unknown }>,
  minimum: 'reporter' | 'developer',
  success: number,
): Promise<void> {
  return assertRouteAccess(
    { private: world },
    (client) => call(client),
    (visibility, caller) => expectedStatus(visibility, caller, { minimum, success }),
  );
}

const PIPELINE_KEYS = [
  'id',
  'status',
  'ref',
  'sha',
  'before_sha',
  'tag',
  'yaml_errors',
  'user',
  'created_at',
  'updated_at',
  'started_at',
  'finished_at',
  'committed_at',
  'duration',
];

describe('GET /projects/:id/pipelines', () => {
  let listed: ProjectWorld<'developer' | 'reporter'>;
  let ids: Record<'master' | 'feature' | 'gone' | 'tag' | 'old', number>;
  before(async () => {
    listed = await createProjectWorld(app, {
      people,
      name: 'listed',
      visibility: 0,
      roles: ['developer', 'reporter'],
      commits: [{ files: { 'a.txt': 'a\n' } }],
    });
    const sha = listed.shas[0];
    await seedCommit(app, listed.id, { branch: 'feature', startRef: sha, files: { 'b.txt': 'b\n' } });
    await createTag(app.ctx.git, repoPathOf(app.ctx, listed.id), 'v1.0', sha);
    const seed = (ref: string, status: string, tag = false) =>
      seedPipeline(app, listed.id, { sha, ref, status, tag, user_id: listed.developer.user.id }).then((p) => p.id);
    ids = {
      old: await seed('master', 'success'),
      master: await seed('master', 'running'),
      feature: await seed('feature', 'pending'),
      gone: await seed('deleted-branch', 'failed'),
      tag: await seed('v1.0', 'success', true),
    };
  });
  const list = (query?: Record<string, unknown>) => listed.reporter.client.get(`/projects/${listed.id}/pipelines`, query);

  test('lists the pipelines of the project by id, newest first, paginated', async () => {
    const response = await list();
    assert.equal(response.status, 200);
    assert.deepEqual(
      response.body.map((p: any) => p.id),
      [ids.tag, ids.gone, ids.feature, ids.master, ids.old],
    );
    assert.equal(response.headers.get('x-total'), '5');
    const page = await list({ per_page: 2, page: 3 });
    assert.deepEqual(
      page.body.map((p: any) => p.id),
      [ids.old],
    );
    assert.equal(page.headers.get('x-total-pages'), '3');
  });

  test("a pipeline shows GitLab 8.12's Pipeline entity, with its user as a user summary", async () => {
    const pipeline = (await list()).body.find((p: any) => p.id === ids.master);
    assert.deepEqual(Object.keys(pipeline), PIPELINE_KEYS);
    assert.match(pipeline.sha, /^[0-9a-f]{40}$/);
    assert.equal(pipeline.ref, 'master');
    assert.equal(pipeline.status, 'running');
    assert.equal(pipeline.tag, false);
    assert.equal(pipeline.yaml_errors, null);
    assert.equal(pipeline.duration, null);
    assert.deepEqual(Object.keys(pipeline.user), ['name', 'username', 'id', 'state', 'avatar_url', 'web_url']);
    assert.equal(pipeline.user.id, listed.developer.user.id);
  });

  test('scope=running lists running and pending pipelines', async () => {
    assert.deepEqual(
      (await list({ scope: 'running' })).body.map((p: any) => p.id),
      [ids.feature, ids.master],
    );
  });

  test("scope=pending and scope=finished (8.13's) narrow by status", async () => {
    assert.deepEqual(
      (await list({ scope: 'pending' })).body.map((p: any) => p.id),
      [ids.feature],
    );
    assert.deepEqual(
      (await list({ scope: 'finished' })).body.map((p: any) => p.id),
      [ids.tag, ids.gone, ids.old],
    );
  });

  test('scope=branches lists the latest pipeline of each existing branch; scope=tags of each tag', async () => {
    const branches = await list({ scope: 'branches' });
    assert.deepEqual(
      branches.body.map((p: any) => p.id),
      [ids.feature, ids.master],
    );
    assert.equal(branches.headers.get('x-total'), '2');
    assert.deepEqual(
      (await list({ scope: 'tags' })).body.map((p: any) => p.id),
      [ids.tag],
    );
  });

  test('another scope answers 400 scope does not have a valid value', async () => {
    const response = await list({ scope: 'unknown' });
    assert.deepEqual([response.status, response.body], [400, { error: 'scope does not have a valid value' }]);
  });

  test('needs read_pipeline: reporters and up of a private project; guests 403, outsiders 404, anonymous 401', async () => {
    await assertPipelineAccess((client) => client.get(`/projects/${world.id}/pipelines`), 'reporter', 200);
  });

  test('readers of a public project see its pipelines, even without public builds', async () => {
    const open = await createProjectWorld(app, { people, name: 'public-pipelines', visibility: 20, roles: ['guest', 'stranger'] });
    await app.ctx.db.updateTable('projects').set({ public_builds: 0 }).where('id', '=', open.id).execute();
    await assertAccess(
      open.clients,
      (client) => client.get(`/projects/${open.id}/pipelines`),
      (caller) => expectedStatus('public', caller),
    );
  });
});

describe('GET /projects/:id/pipelines/:pipeline_id', () => {
  test('shows the pipeline', async () => {
    const pipeline = await pipelineWith([]);
    const response = await reporter.get(path(pipeline.id));
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body), PIPELINE_KEYS);
    assert.equal(response.body.id, pipeline.id);
    assert.equal(response.body.sha, world.shas[0]);
  });

  test('an unknown pipeline, or one of another project, answers 404 Not found', async () => {
    const other = await createProjectWorld(app, { people, name: 'other', roles: [], commits: [{ files: { 'o.txt': 'o\n' } }] });
    const theirs = await seedPipeline(app, other.id, { sha: other.shas[0] });
    for (const id of [999999, theirs.id]) {
      const response = await reporter.get(path(id));
      assert.deepEqual([response.status, response.body], [404, { message: '404 Not found' }]);
    }
    assert.equal((await reporter.get(path('abc'))).status, 404);
  });

  test('needs read_pipeline', async () => {
    const pipeline = await pipelineWith([]);
    await assertPipelineAccess((client) => client.get(path(pipeline.id)), 'reporter', 200);
  });
});

describe('POST /projects/:id/pipelines/:pipeline_id/retry', () => {
  test('every latest failed build is retried by the caller (201); the pipeline runs again', async () => {
    const pipeline = await pipelineWith(
      [
        { name: 'rspec', status: 'failed', stage_idx: 0 },
        { name: 'spinach', status: 'success', stage_idx: 0 },
        { name: 'deploy', status: 'skipped', stage_idx: 1 },
      ],
      { status: 'failed' },
    );
    const response = await developer.post(path(pipeline.id, '/retry'));
    assert.equal(response.status, 201);
    assert.equal(response.body.id, pipeline.id);
    assert.equal(response.body.status, 'running');
    const builds = await app.ctx.db.selectFrom('ci_builds').selectAll().where('pipeline_id', '=', pipeline.id).orderBy('id').execute();
    assert.equal(builds.length, 4);
    const retried = builds[3];
    assert.deepEqual([retried.name, retried.status, retried.user_id], ['rspec', 'pending', world.developer.user.id]);
    assert.equal((await buildRow(app, pipeline.builds[0])).status, 'failed');
    assert.equal((await buildRow(app, pipeline.builds[2])).status, 'created');
  });

  test('a failed build that was retried already, or has no commands, is not retried again', async () => {
    const pipeline = await pipelineWith(
      [
        { name: 'rspec', status: 'failed' },
        { name: 'rspec', status: 'success' },
        { name: 'empty', status: 'failed', commands: '' },
      ],
      { status: 'failed' },
    );
    const response = await developer.post(path(pipeline.id, '/retry'));
    assert.equal(response.status, 201);
    const count = await app.ctx.db
      .selectFrom('ci_builds')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('pipeline_id', '=', pipeline.id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 3);
  });

  test('an unknown pipeline answers 404', async () => {
    assert.equal((await developer.post(path(999999, '/retry'))).status, 404);
  });

  test('needs update_pipeline: developers and up; reporters and guests 403, outsiders 404, anonymous 401', async () => {
    const pipeline = await pipelineWith([{ name: 'rspec', status: 'failed' }], { status: 'failed' });
    await assertPipelineAccess((client) => client.post(path(pipeline.id, '/retry')), 'developer', 201);
  });
});

describe('POST /projects/:id/pipelines/:pipeline_id/cancel', () => {
  test('pending and running builds are canceled (200); the pipeline is canceled', async () => {
    const pipeline = await pipelineWith(
      [
        { name: 'rspec', status: 'running', stage_idx: 0 },
        { name: 'spinach', status: 'pending', stage_idx: 0 },
        { name: 'deploy', status: 'created', stage_idx: 1 },
      ],
      { status: 'running' },
    );
    const response = await developer.post(path(pipeline.id, '/cancel'));
    assert.equal(response.status, 200);
    assert.equal(response.body.status, 'canceled');
    assert.ok(response.body.finished_at);
    const statuses = await Promise.all(pipeline.builds.map(async (id) => (await buildRow(app, id)).status));
    // The created build is not canceled: the pipeline's processing skips it.
    assert.deepEqual(statuses, ['canceled', 'canceled', 'skipped']);
  });

  test('a pipeline with nothing running is shown unchanged', async () => {
    const pipeline = await pipelineWith([{ name: 'rspec', status: 'success' }], { status: 'success' });
    const response = await developer.post(path(pipeline.id, '/cancel'));
    assert.deepEqual([response.status, response.body.status], [200, 'success']);
  });

  test('reporters get 403 and the pipeline stays pending', async () => {
    const pipeline = await pipelineWith([{ name: 'rspec', status: 'pending' }]);
    assert.deepEqual(await reporter.post(path(pipeline.id, '/cancel')).then((r) => [r.status, r.body]), [
      403,
      { message: '403 Forbidden' },
    ]);
    assert.equal((await pipelineRow(app, pipeline.id)).status, 'pending');
  });

  test('needs update_pipeline', async () => {
    const pipeline = await pipelineWith([{ name: 'rspec', status: 'running' }]);
    await assertPipelineAccess((client) => client.post(path(pipeline.id, '/cancel')), 'developer', 200);
  });
});
