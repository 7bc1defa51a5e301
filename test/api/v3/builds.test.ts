import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createPeople, createProjectWorld, type People, type ProjectWorld, type Role } from '../../support/project-world';
import { assertRouteAccess, assertAccess, expectedStatus } from '../../support/access-matrix';
import { seedCommit } from '../../support/repo';
import { buildRow, pipelineRow, putArtifacts, putTrace, seedPipeline, seedRunner, type SeedBuild } from '../../support/ci';
import type { ApiClient } from '../../support/client';
import { artifactsKey, traceKey } from '../../../src/services/ci/builds/files';

type World = ProjectWorld<Role>;

let app: TestApp;
let people: People<Role>;
/** A private project with a member of each role: most rules are checked here. */
let world: World;
/** A private project whose builds are listed, untouched by the other tests. */
let listed: World;
let head: string;
let developer: ApiClient;
let reporter: ApiClient;
let _guest: ApiClient;

before(async () => {
  app = await startApp();
  people = await createPeople(app);
  world = await createProjectWorld(app, { people, name: 'builds', visibility: 0, commits: [{ files: { 'README.md': '# builds\n' } }] });
  listed = await createProjectWorld(app, { people, name: 'listed', visibility: 0, commits: [{ files: { 'README.md': '# listed\n' } }] });
  head = world.shas[0];
  developer = world.developer.client;
  reporter = world.reporter.client;
  _guest = world.guest.client;
});
after(() => app.close());

/** One pipeline on the world's head commit with the given builds; their ids in order. */
async function pipelineWith(
  builds: SeedBuild[],
  options: { project?: ProjectWorld<any>; ref?: string; status?: string; sha?: string } = {},
) {
  const project = options.project ?? world;
  return seedPipeline(app, project.id, {
    sha: options.sha ?? project.shas[0],
    ref: options.ref,
    status: options.status,
    user_id: project.owner.user.id,
    builds,
  });
}

const path = (buildId: number | string, suffix = '', project: { id: number } = world) =>
  `/projects/${project.id}/builds/${buildId}${suffix}`;

/** The 401/404/403 table of a build route on the private world, and GitLab's body for each refusal. */
function assertBuildAccess(
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

describe('GET /projects/:id/builds', () => {
  let ids: number[];
  before(async () => {
    const runner = await seedRunner(app, { description: 'shared one', is_shared: true });
    const first = await pipelineWith(
      [
        { name: 'build', status: 'success', stage: 'build', user_id: listed.developer.user.id, runner_id: runner },
        { name: 'test', status: 'pending', stage_idx: 1 },
      ],
      { project: listed },
    );
    const second = await pipelineWith(
      [
        { name: 'rspec', status: 'running', runner_id: runner },
        { name: 'external', status: 'success', type: 'GenericCommitStatus' },
      ],
      { project: listed },
    );
    ids = [...first.builds, second.builds[0]];
  });
  const list = (query?: Record<string, unknown>, client = listed.reporter.client) => client.get(`/projects/${listed.id}/builds`, query);

  test('lists the builds of the project, newest first, paginated (external statuses are not builds)', async () => {
    const response = await list();
    assert.equal(response.status, 200);
    assert.deepEqual(
      response.body.map((build: any) => build.id),
      [...ids].reverse(),
    );
    assert.equal(response.headers.get('x-total'), '3');
    const page = await list({ per_page: 2, page: 2 });
    assert.deepEqual(
      page.body.map((build: any) => build.id),
      [ids[0]],
    );
    assert.equal(page.headers.get('x-total-pages'), '2');
  });

  test("a build shows GitLab 8.12's Build entity: its commit, the full User and the runner", async () => {
    const response = await list();
    const build = response.body.find((item: any) => item.id === ids[0]);
    assert.deepEqual(Object.keys(build), BUILD_KEYS);
    assert.equal(build.name, 'build');
    assert.equal(build.stage, 'build');
    assert.equal(build.status, 'success');
    assert.equal(build.ref, 'master');
    assert.equal(build.tag, false);
    assert.equal(build.coverage, null);
    assert.equal(build.artifacts_file, null);
    assert.equal(build.commit.id, listed.shas[0]);
    assert.equal(build.commit.short_id, listed.shas[0].slice(0, 8));
    assert.deepEqual(Object.keys(build.commit), ['id', 'short_id', 'title', 'author_name', 'author_email', 'created_at', 'message']);
    assert.equal(build.user.id, listed.developer.user.id);
    for (const key of ['created_at', 'is_admin', 'bio', 'skype', 'linkedin', 'twitter', 'website_url', 'web_url', 'avatar_url'])
      assert.ok(key in build.user, key);
    assert.deepEqual(build.runner, {
      id: build.runner.id,
      description: 'shared one',
      active: true,
      is_shared: true,
      name: 'gitlab-ci-multi-runner',
    });
    const pending = response.body.find((item: any) => item.id === ids[1]);
    assert.equal(pending.user, null);
    assert.equal(pending.runner, null);
    assert.equal(pending.started_at, null);
  });

  test("scope narrows the list to one status or several (scope[]= and Rails' scope[0]=)", async () => {
    assert.deepEqual(
      (await list({ scope: 'pending' })).body.map((b: any) => b.id),
      [ids[1]],
    );
    assert.deepEqual(
      (await list({ scope: ['pending', 'running'] })).body.map((b: any) => b.id),
      [ids[2], ids[1]],
    );
    const indexed = await listed.reporter.client.get(`/projects/${listed.id}/builds?scope[0]=pending&scope[1]=success`);
    assert.equal(indexed.status, 200);
    assert.deepEqual(
      indexed.body.map((b: any) => b.id),
      [ids[1], ids[0]],
    );
    assert.deepEqual((await list({ scope: 'canceled' })).body, []);
  });

  test('a scope with an unknown status answers 400 "Scope contains invalid value(s)"', async () => {
    for (const query of ['scope=unknown', 'scope[]=pending&scope[]=unknown_status', 'scope[1]=unknown_status']) {
      const response = await listed.reporter.client.get(`/projects/${listed.id}/builds?${query}`);
      assert.equal(response.status, 400, query);
      assert.deepEqual(response.body, { message: 'Scope contains invalid value(s)' });
    }
  });

  test('artifacts_file shows the file name and size while unexpired artifacts exist', async () => {
    const { builds } = await pipelineWith([
      { name: 'a', status: 'success' },
      { name: 'b', status: 'success' },
    ]);
    const content = await putArtifacts(app, world.id, builds[0], {
      fileName: 'out.zip',
      expireAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    await putArtifacts(app, world.id, builds[1], { expireAt: new Date(Date.now() - 1000).toISOString() });
    const response = await reporter.get(`/projects/${world.id}/builds`, { per_page: 100 });
    const byId = new Map(response.body.map((build: any) => [build.id, build]));
    assert.deepEqual((byId.get(builds[0]) as any).artifacts_file, { filename: 'out.zip', size: content.length });
    assert.equal((byId.get(builds[1]) as any).artifacts_file, null);
  });

  test('needs read_build: reporters and up of a private project; guests 403, outsiders 404, anonymous 401', async () => {
    await assertBuildAccess((client) => client.get(`/projects/${world.id}/builds`), 'reporter', 200);
  });

  test('a public project with public builds shows them to anyone signed in; without, non-members get 403', async () => {
    const open = await createProjectWorld(app, { people, name: 'public-builds', visibility: 20, roles: ['reporter', 'guest', 'stranger'] });
    const call = (client: ApiClient) => client.get(`/projects/${open.id}/builds`);
    await assertAccess(open.clients, call, (caller) => expectedStatus('public', caller));
    await app.ctx.db.updateTable('projects').set({ public_builds: 0 }).where('id', '=', open.id).execute();
    await assertAccess(open.clients, call, (caller) => expectedStatus('public', caller, { minimum: 'reporter' }));
  });

  test('with builds disabled, nobody reads builds, not even the owner: 403', async () => {
    const off = await createProjectWorld(app, { people, name: 'no-builds', visibility: 0, roles: ['reporter'] });
    await app.ctx.db.updateTable('projects').set({ builds_enabled: 0 }).where('id', '=', off.id).execute();
    assert.equal((await off.reporter.client.get(`/projects/${off.id}/builds`)).status, 403);
    assert.equal((await off.owner.client.get(`/projects/${off.id}/builds`)).status, 403);
  });
});

describe('GET /projects/:id/repository/commits/:sha/builds', () => {
  test('lists the builds of every pipeline of the commit, newest first; not those of another project', async () => {
    const sha = await seedCommit(app, world.id, { branch: 'two-pipelines', startRef: head, files: { 'two.txt': '2\n' } });
    const first = await pipelineWith([{ name: 'rspec', status: 'success' }], { sha, ref: 'two-pipelines' });
    const second = await pipelineWith([{ name: 'spinach', status: 'failed' }], { sha, ref: 'two-pipelines' });
    await seedPipeline(app, listed.id, { sha, builds: [{ name: 'elsewhere', status: 'success' }] });
    const response = await reporter.get(`/projects/${world.id}/repository/commits/${sha}/builds`);
    assert.equal(response.status, 200);
    assert.deepEqual(
      response.body.map((build: any) => build.id),
      [second.builds[0], first.builds[0]],
    );
    assert.equal(response.body[0].commit.id, sha);
    assert.equal(response.headers.get('x-total'), '2');
    const scoped = await reporter.get(`/projects/${world.id}/repository/commits/two-pipelines/builds`, { scope: 'failed' });
    assert.deepEqual(
      scoped.body.map((build: any) => build.id),
      [second.builds[0]],
    );
  });

  test('a commit without pipelines has no builds: []', async () => {
    const sha = await seedCommit(app, world.id, { branch: 'lonely', startRef: head, files: { 'lonely.txt': 'x\n' } });
    const response = await reporter.get(`/projects/${world.id}/repository/commits/${sha}/builds`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, []);
  });

  test('an unknown commit answers 404 Not Found', async () => {
    const response = await reporter.get(`/projects/${world.id}/repository/commits/1a271fd1/builds`);
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 Not Found' });
  });

  test('an invalid scope answers 400', async () => {
    const response = await reporter.get(`/projects/${world.id}/repository/commits/${head}/builds`, { scope: 'nope' });
    assert.deepEqual([response.status, response.body], [400, { message: 'Scope contains invalid value(s)' }]);
  });

  test('needs read_build; anonymous callers get 401 with only a message', async () => {
    await assertBuildAccess((client) => client.get(`/projects/${world.id}/repository/commits/${head}/builds`), 'reporter', 200);
  });
});

describe('GET /projects/:id/builds/:build_id', () => {
  test('shows the build', async () => {
    const { builds } = await pipelineWith([{ name: 'test', status: 'pending' }]);
    const response = await reporter.get(path(builds[0]));
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body), BUILD_KEYS);
    assert.equal(response.body.id, builds[0]);
    assert.equal(response.body.name, 'test');
    assert.equal(response.body.commit.id, head);
  });

  test('an unknown build, an external status or a build of another project answers 404 Not Found', async () => {
    const { builds } = await pipelineWith([{ name: 'ext', status: 'success', type: 'GenericCommitStatus' }]);
    const other = await pipelineWith([{ name: 'theirs', status: 'success' }], { project: listed });
    for (const id of ['999999', 'abc', String(builds[0]), String(other.builds[0]), '99999999999999']) {
      const response = await reporter.get(path(id));
      assert.deepEqual([response.status, response.body], [404, { message: '404 Not Found' }], id);
    }
  });

  test('needs read_build', async () => {
    const { builds } = await pipelineWith([{ name: 'test', status: 'pending' }]);
    await assertBuildAccess((client) => client.get(path(builds[0])), 'reporter', 200);
  });
});

describe('GET /projects/:id/builds/:build_id/artifacts', () => {
  test('serves the artifacts file as a download', async () => {
    const { builds } = await pipelineWith([{ name: 'test', status: 'success' }]);
    const content = await putArtifacts(app, world.id, builds[0], { content: Buffer.from([0, 1, 2, 255, 254]) });
    const response = await fetch(`${app.url}/api/v3${path(builds[0], '/artifacts')}`, {
      headers: { 'private-token': world.reporter.token },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/octet-stream');
    assert.equal(response.headers.get('content-disposition'), 'attachment; filename=ci_build_artifacts.zip');
    assert.equal(response.headers.get('content-transfer-encoding'), 'binary');
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), content);
  });

  test('a build without artifacts, or with expired ones, answers 404', async () => {
    const { builds } = await pipelineWith([
      { name: 'none', status: 'success' },
      { name: 'expired', status: 'success' },
    ]);
    await putArtifacts(app, world.id, builds[1], { expireAt: new Date(Date.now() - 1000).toISOString() });
    for (const id of builds) assert.equal((await reporter.get(path(id, '/artifacts'))).status, 404);
    assert.equal((await reporter.get(path(999999, '/artifacts'))).status, 404);
  });

  test('needs read_build', async () => {
    const { builds } = await pipelineWith([{ name: 'test', status: 'success' }]);
    await putArtifacts(app, world.id, builds[0]);
    await assertBuildAccess((client) => client.get(path(builds[0], '/artifacts')), 'reporter', 200);
  });
});

describe('GET /projects/:id/builds/artifacts/:ref_name/download?job=name', () => {
  let project: ProjectWorld<'reporter' | 'guest'>;
  before(async () => {
    project = await createProjectWorld(app, {
      people,
      name: 'by-ref',
      visibility: 0,
      roles: ['reporter', 'guest'],
      commits: [{ files: { 'a.txt': 'a\n' } }],
    });
    const old = await pipelineWith([{ name: 'rspec', status: 'success' }], { project, status: 'success' });
    await putArtifacts(app, project.id, old.builds[0], { content: Buffer.from('old') });
    const latest = await pipelineWith(
      [
        { name: 'rspec', status: 'success' },
        { name: 'bare', status: 'success' },
      ],
      { project, status: 'success' },
    );
    await putArtifacts(app, project.id, latest.builds[0], { content: Buffer.from('latest') });
    // A newer pipeline that failed is not the latest successful one.
    const failed = await pipelineWith([{ name: 'rspec', status: 'failed' }], { project, status: 'failed' });
    await putArtifacts(app, project.id, failed.builds[0], { content: Buffer.from('failed') });
    const slashed = await pipelineWith([{ name: 'rspec', status: 'success' }], { project, status: 'success', ref: 'improve/awesome' });
    await putArtifacts(app, project.id, slashed.builds[0], { content: Buffer.from('slashed') });
  });
  const download = (ref: string, job?: string, client = project.reporter.client) =>
    client.get(`/projects/${project.id}/builds/artifacts/${ref}/download`, job === undefined ? undefined : { job });

  test('serves the artifacts of the job in the latest successful pipeline for the ref', async () => {
    const response = await download('master', 'rspec');
    assert.equal(response.status, 200);
    assert.equal(response.text, 'latest');
    assert.equal(response.headers.get('content-disposition'), 'attachment; filename=ci_build_artifacts.zip');
    assert.equal(response.headers.get('content-transfer-encoding'), 'binary');
    assert.equal(response.headers.get('content-type'), 'application/octet-stream');
  });

  test('the ref may hold a slash', async () => {
    const response = await download('improve/awesome', 'rspec');
    assert.equal(response.status, 200);
    assert.equal(response.text, 'slashed');
    const encoded = await download('improve%2Fawesome', 'rspec');
    assert.deepEqual([encoded.status, encoded.text], [200, 'slashed']);
  });

  test('an unknown ref, an unknown or missing job, or a job without artifacts answers 404', async () => {
    for (const [ref, job] of [
      ['TAIL', 'rspec'],
      ['master', 'unknown'],
      ['master', undefined],
      ['master', 'bare'],
    ] as const) {
      const response = await download(ref, job);
      assert.deepEqual([response.status, response.body], [404, { message: '404 Not found' }], `${ref} ${job}`);
    }
  });

  test('guests get 403, anonymous callers 401', async () => {
    assert.equal((await download('master', 'rspec', project.guest.client)).status, 403);
    assert.equal((await download('master', 'rspec', app.anonymous)).status, 401);
  });
});

describe('GET /projects/:id/builds/:build_id/trace', () => {
  test('serves the trace as plain text, while the build runs and after', async () => {
    const { builds } = await pipelineWith([{ name: 'running', status: 'running' }]);
    await putTrace(app, world.id, builds[0], 'BUILD TRACE\n');
    const response = await reporter.get(path(builds[0], '/trace'));
    assert.equal(response.status, 200);
    assert.equal(response.text, 'BUILD TRACE\n');
    assert.match(response.headers.get('content-type')!, /^text\/plain/);
    assert.equal(response.headers.get('content-disposition'), `infile; filename="${builds[0]}.log"`);
    await app.ctx.files.append(traceKey({ project_id: world.id, id: builds[0] }), 'more\n');
    assert.equal((await reporter.get(path(builds[0], '/trace'))).text, 'BUILD TRACE\nmore\n');
  });

  test('a build that never ran or was canceled before it printed answers 200 with an empty body, as 8.12 did', async () => {
    const { builds } = await pipelineWith([
      { name: 'created', status: 'created' },
      { name: 'pending', status: 'pending' },
      { name: 'skipped', status: 'skipped' },
      { name: 'canceled', status: 'canceled' },
    ]);
    const pending = builds[1]!;
    assert.equal((await developer.post(path(pending, '/cancel'))).status, 201);
    for (const id of builds) {
      const response = await reporter.get(path(id, '/trace'));
      assert.deepEqual([response.status, response.text], [200, ''], `build ${id}`);
      assert.match(response.headers.get('content-type')!, /^text\/plain/);
      assert.equal(response.headers.get('content-disposition'), `infile; filename="${id}.log"`);
    }
  });

  test('a build canceled while running keeps the output it had sent', async () => {
    const { builds } = await pipelineWith([{ name: 'running', status: 'running' }]);
    await putTrace(app, world.id, builds[0], 'half of the output\n');
    assert.equal((await developer.post(path(builds[0], '/cancel'))).status, 201);
    assert.equal((await buildRow(app, builds[0])).status, 'canceled');
    const response = await reporter.get(path(builds[0], '/trace'));
    assert.deepEqual([response.status, response.text], [200, 'half of the output\n']);
  });

  test('an unknown build is still 404', async () => {
    assert.deepEqual(await reporter.get(path(2147483000, '/trace')).then((r) => [r.status, r.body]), [404, { message: '404 Not Found' }]);
  });

  test('needs read_build', async () => {
    const { builds } = await pipelineWith([{ name: 'done', status: 'success' }]);
    await putTrace(app, world.id, builds[0], 'x');
    await assertBuildAccess((client) => client.get(path(builds[0], '/trace')), 'reporter', 200);
  });
});

describe('POST /projects/:id/builds/:build_id/cancel', () => {
  test('a pending build is canceled (201), and its pipeline follows', async () => {
    const pipeline = await pipelineWith([
      { name: 'test', status: 'pending' },
      { name: 'deploy', status: 'created', stage: 'deploy', stage_idx: 1 },
    ]);
    const response = await developer.post(path(pipeline.builds[0], '/cancel'));
    assert.equal(response.status, 201);
    assert.equal(response.body.id, pipeline.builds[0]);
    assert.equal(response.body.status, 'canceled');
    assert.ok(response.body.finished_at);
    assert.equal((await buildRow(app, pipeline.builds[1])).status, 'skipped');
    assert.equal((await pipelineRow(app, pipeline.id)).status, 'canceled');
  });

  test('created and running builds are canceled too', async () => {
    const { builds } = await pipelineWith([
      { name: 'a', status: 'created' },
      { name: 'b', status: 'running' },
    ]);
    for (const id of builds) assert.equal((await developer.post(path(id, '/cancel'))).body.status, 'canceled');
  });

  test('a finished build stays as it was and is shown (201), as in 8.12', async () => {
    const { builds } = await pipelineWith([{ name: 'test', status: 'success' }]);
    const before = await buildRow(app, builds[0]);
    const response = await developer.post(path(builds[0], '/cancel'));
    assert.equal(response.status, 201);
    assert.equal(response.body.status, 'success');
    assert.equal((await buildRow(app, builds[0])).updated_at, before.updated_at);
  });

  test('an unknown build answers 404', async () => {
    assert.equal((await developer.post(path(999999, '/cancel'))).status, 404);
  });

  test('needs update_build: developers and up; reporters and guests 403, outsiders 404, anonymous 401', async () => {
    const { builds } = await pipelineWith([{ name: 'test', status: 'success' }]);
    await assertBuildAccess((client) => client.post(path(builds[0], '/cancel')), 'developer', 201);
  });
});

describe('POST /projects/:id/builds/:build_id/retry', () => {
  test('a canceled build is retried as a new pending build of the caller; the original stays canceled', async () => {
    const pipeline = await pipelineWith([{ name: 'test', status: 'canceled' }], { status: 'canceled' });
    const response = await developer.post(path(pipeline.builds[0], '/retry'));
    assert.equal(response.status, 201);
    assert.notEqual(response.body.id, pipeline.builds[0]);
    assert.equal(response.body.status, 'pending');
    assert.equal(response.body.name, 'test');
    assert.equal(response.body.finished_at, null);
    assert.equal(response.body.user.id, world.developer.user.id);
    const retried = await buildRow(app, response.body.id);
    assert.equal(retried.pipeline_id, pipeline.id);
    assert.equal(retried.commands, 'ls -a');
    assert.ok(retried.token_digest && retried.token_sealed, 'a new token');
    assert.equal((await buildRow(app, pipeline.builds[0])).status, 'canceled');
    // The spec: a pipeline retried is pending again (8.12 reopened it as running).
    assert.equal((await pipelineRow(app, pipeline.id)).status, 'pending');
  });

  test('skipped builds of later stages go back to created; earlier ones do not', async () => {
    const pipeline = await pipelineWith(
      [
        { name: 'lint', status: 'skipped', stage_idx: 0, when: 'on_failure' },
        { name: 'test', status: 'failed', stage_idx: 1 },
        { name: 'deploy', status: 'skipped', stage_idx: 2 },
        { name: 'production', status: 'skipped', stage_idx: 2, when: 'manual' },
      ],
      { status: 'failed' },
    );
    const response = await developer.post(path(pipeline.builds[1], '/retry'));
    assert.equal(response.status, 201);
    const statuses = await Promise.all(pipeline.builds.map(async (id) => (await buildRow(app, id)).status));
    assert.deepEqual(statuses, ['skipped', 'failed', 'created', 'created']);
  });

  test('a build that has not finished, or has no commands, answers 403 Build is not retryable', async () => {
    const { builds } = await pipelineWith([
      { name: 'running', status: 'running' },
      { name: 'empty', status: 'failed', commands: '' },
    ]);
    for (const id of builds) {
      const response = await developer.post(path(id, '/retry'));
      assert.deepEqual([response.status, response.body], [403, { message: '403 Forbidden - Build is not retryable' }]);
    }
  });

  test('needs update_build', async () => {
    const { builds } = await pipelineWith([{ name: 'test', status: 'failed' }]);
    await assertBuildAccess((client) => client.post(path(builds[0], '/retry')), 'developer', 201);
  });
});

describe('POST /projects/:id/builds/:build_id/erase', () => {
  test('a finished build loses its trace and artifacts and records who erased it (201, download_url)', async () => {
    const { builds } = await pipelineWith([{ name: 'test', status: 'success' }]);
    await putTrace(app, world.id, builds[0], 'secret output');
    await putArtifacts(app, world.id, builds[0], { expireAt: new Date(Date.now() + 3_600_000).toISOString() });
    const response = await developer.post(path(builds[0], '/erase'));
    assert.equal(response.status, 201);
    assert.equal(response.body.status, 'success');
    assert.equal(response.body.download_url, null);
    assert.ok(!('artifacts_file' in response.body));
    const row = await buildRow(app, builds[0]);
    assert.ok(row.erased_at);
    assert.equal(row.erased_by_id, world.developer.user.id);
    assert.deepEqual([row.artifacts_file, row.artifacts_size, row.artifacts_expire_at], [null, null, null]);
    const key = { project_id: world.id, id: builds[0] };
    assert.equal(await app.ctx.files.stat(traceKey(key)), undefined);
    assert.equal(await app.ctx.files.stat(artifactsKey(key)), undefined);
    // 8.12 read an erased build's trace as nothing: 200 with an empty body.
    assert.deepEqual(await reporter.get(path(builds[0], '/trace')).then((r) => [r.status, r.text]), [200, '']);
    assert.equal((await reporter.get(path(builds[0], '/artifacts'))).status, 404);
  });

  test('a build with only a trace is erasable once finished', async () => {
    const { builds } = await pipelineWith([{ name: 'test', status: 'failed' }]);
    await putTrace(app, world.id, builds[0], 'x');
    assert.equal((await developer.post(path(builds[0], '/erase'))).status, 201);
  });

  test('an unfinished build, or one with neither trace nor artifacts, answers 403 Build is not erasable!', async () => {
    const { builds } = await pipelineWith([
      { name: 'pending', status: 'pending' },
      { name: 'bare', status: 'success' },
    ]);
    await putTrace(app, world.id, builds[0], 'BUILD TRACE');
    for (const id of builds) {
      const response = await developer.post(path(id, '/erase'));
      assert.deepEqual([response.status, response.body], [403, { message: '403 Forbidden - Build is not erasable!' }]);
    }
    assert.equal((await reporter.get(path(builds[0], '/trace'))).text, 'BUILD TRACE');
  });

  test('needs update_build', async () => {
    // A build for each caller: an erased build is not erasable again.
    await assertBuildAccess(
      async (client) => {
        const { builds } = await pipelineWith([{ name: 'test', status: 'success' }]);
        await putTrace(app, world.id, builds[0], 'x');
        return client.post(path(builds[0], '/erase'));
      },
      'developer',
      201,
    );
  });
});

describe('POST /projects/:id/builds/:build_id/artifacts/keep', () => {
  test('expiring artifacts are kept: artifacts_expire_at becomes null (200, download_url)', async () => {
    const { builds } = await pipelineWith([{ name: 'test', status: 'success' }]);
    await putArtifacts(app, world.id, builds[0], { expireAt: new Date(Date.now() + 3_600_000).toISOString() });
    const response = await developer.post(path(builds[0], '/artifacts/keep'));
    assert.equal(response.status, 200);
    assert.equal(response.body.id, builds[0]);
    assert.equal(response.body.download_url, null);
    assert.equal((await buildRow(app, builds[0])).artifacts_expire_at, null);
    assert.equal((await reporter.get(path(builds[0], '/artifacts'))).status, 200);
  });

  test('a build without artifacts (or with expired ones) answers 404', async () => {
    const { builds } = await pipelineWith([
      { name: 'none', status: 'success' },
      { name: 'expired', status: 'success' },
    ]);
    await putArtifacts(app, world.id, builds[1], { expireAt: new Date(Date.now() - 1000).toISOString() });
    for (const id of builds)
      assert.deepEqual(await developer.post(path(id, '/artifacts/keep')).then((r) => [r.status, r.body]), [
        404,
        { message: '404 Not Found' },
      ]);
  });

  test('needs update_build', async () => {
    const { builds } = await pipelineWith([{ name: 'test', status: 'success' }]);
    await putArtifacts(app, world.id, builds[0]);
    await assertBuildAccess((client) => client.post(path(builds[0], '/artifacts/keep')), 'developer', 200);
  });
});

describe('POST /projects/:id/builds/:build_id/play', () => {
  test('a manual build is queued with the caller as its user; the answer shows it started (200)', async () => {
    const pipeline = await pipelineWith(
      [
        { name: 'test', status: 'success', stage_idx: 0 },
        { name: 'production', status: 'skipped', stage_idx: 1, when: 'manual' },
      ],
      { status: 'success' },
    );
    const response = await developer.post(path(pipeline.builds[1], '/play'));
    assert.equal(response.status, 200);
    assert.equal(response.body.id, pipeline.builds[1]);
    assert.equal(response.body.status, 'started');
    assert.equal(response.body.finished_at, null);
    assert.equal(response.body.user.id, world.developer.user.id);
    const row = await buildRow(app, pipeline.builds[1]);
    assert.equal(row.status, 'pending');
    assert.equal(row.user_id, world.developer.user.id);
    assert.equal((await pipelineRow(app, pipeline.id)).status, 'running');
  });

  test('a build that is not a skipped manual one answers 400 Unplayable Build', async () => {
    const { builds } = await pipelineWith([
      { name: 'auto', status: 'skipped' },
      { name: 'played', status: 'pending', when: 'manual' },
      { name: 'empty', status: 'skipped', when: 'manual', commands: '' },
    ]);
    for (const id of builds) {
      const response = await developer.post(path(id, '/play'));
      assert.deepEqual([response.status, response.body], [400, { message: '400 (Bad request) "Unplayable Build" not given' }]);
    }
  });

  test('needs read_build, as in 8.12: reporters may play', async () => {
    const { builds } = await pipelineWith([{ name: 'manual', status: 'skipped', when: 'manual' }]);
    // The first allowed caller plays it; later ones find it played (400), which still proves they got through.
    const statuses: number[] = [];
    await assertAccess(
      world.clients,
      async (client) => {
        const response = await client.post(path(builds[0], '/play'));
        statuses.push(response.status);
        return { status: response.status === 400 ? 200 : response.status };
      },
      (caller) => expectedStatus('private', caller, { minimum: 'reporter' }),
    );
    assert.ok(statuses.includes(200));
  });
});
