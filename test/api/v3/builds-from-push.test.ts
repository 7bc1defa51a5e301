import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startApp, type TestApp } from '../../support/app';
import { createProjectWorld, type ProjectWorld } from '../../support/project-world';
import { cloneUrl, git, workTree } from '../../support/git';
import { eventually } from '../../support/eventually';
import { buildRow } from '../../support/ci';
import { inTransaction } from '../../../src/db/transaction';
import { transitionBuild } from '../../../src/services/ci/builds/transitions';
import type { StatusEvent } from '../../../src/services/ci/pipelines/status';

/*
 * One pipeline from a real push of a `.gitlab-ci.yml`, walked through the consumer API: its builds
 * listed, the first stage finished (as a runner would, through the build transitions), a build
 * canceled and retried, the pipeline canceled, a manual build played.
 */

const CI_YML = `
stages: [build, test, deploy]
compile:
  stage: build
  script: make
unit:
  stage: test
  script: make test
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
let world: ProjectWorld<'developer' | 'reporter'>;
let head: string;
let pipelineId: number;
let work: string;

/** Builds of the pipeline by name: the latest of each. */
async function byName(): Promise<Record<string, any>> {
  const response = await world.reporter.client.get(`/projects/${world.id}/builds`, { per_page: 100 });
  assert.equal(response.status, 200);
  const latest: Record<string, any> = {};
  for (const build of [...response.body].reverse()) latest[build.name] = build;
  return latest;
}

/** What a runner's calls do to a build: the same transitions, in one transaction each. */
async function runnerMoves(buildId: number, ...events: StatusEvent[]) {
  for (const event of events) {
    const build = await buildRow(app, buildId);
    const moved = await inTransaction(app.ctx.db, (trx) => transitionBuild(app.ctx, trx, build, event));
    assert.ok(moved, `${event} applies to build ${buildId} (${build.status})`);
  }
}

before(async () => {
  app = await startApp();
  world = await createProjectWorld(app, { name: 'pushed', visibility: 0, roles: ['developer', 'reporter'] });
  work = await workTree('master', { 'README.md': '# pushed\n', '.gitlab-ci.yml': CI_YML });
  // The owner pushes: the first branch pushed becomes the protected default branch.
  const url = cloneUrl(app.url, world.path, world.owner.user.username, world.owner.token);
  const pushed = await git(['push', '-q', url, 'master'], work);
  assert.equal(pushed.code, 0, pushed.stderr);
  head = (await git(['rev-parse', 'HEAD'], work)).stdout.trim();
  pipelineId = await eventually(async () => (await world.reporter.client.get(`/projects/${world.id}/pipelines`)).body[0]?.id, {
    message: 'the pipeline of the push',
  });
});
after(async () => {
  await app.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('a pipeline pushed with .gitlab-ci.yml, through the builds and pipelines API', () => {
  test('the push makes one pending pipeline of the pusher for the pushed commit', async () => {
    const response = await world.reporter.client.get(`/projects/${world.id}/pipelines/${pipelineId}`);
    assert.equal(response.status, 200);
    assert.equal(response.body.sha, head);
    assert.equal(response.body.ref, 'master');
    assert.equal(response.body.status, 'pending');
    assert.equal(response.body.user.id, world.owner.user.id);
  });

  test('its builds are listed newest first, the first stage pending, each showing the pushed commit', async () => {
    const response = await world.reporter.client.get(`/projects/${world.id}/builds`);
    const builds = response.body;
    assert.deepEqual(
      builds.map((b: any) => b.id),
      [...builds.map((b: any) => b.id)].sort((a: number, b: number) => b - a),
    );
    assert.deepEqual(Object.fromEntries(builds.map((b: any) => [b.name, b.status])), {
      compile: 'pending',
      unit: 'created',
      lint: 'created',
      ship: 'created',
    });
    assert.ok(builds.every((b: any) => b.commit.id === head && b.ref === 'master'));
    assert.equal(builds[0].commit.id, head);
    const ofCommit = await world.reporter.client.get(`/projects/${world.id}/repository/commits/${head}/builds`);
    assert.deepEqual(
      ofCommit.body.map((b: any) => b.id),
      builds.map((b: any) => b.id),
    );
  });

  test('when the first stage succeeds the next one is pending', async () => {
    await runnerMoves((await byName()).compile.id, 'run', 'success');
    const builds = await byName();
    assert.deepEqual(
      [builds.compile.status, builds.unit.status, builds.lint.status, builds.ship.status],
      ['success', 'pending', 'pending', 'created'],
    );
    assert.equal((await world.reporter.client.get(`/projects/${world.id}/pipelines/${pipelineId}`)).body.status, 'running');
  });

  test('canceling one build leaves the others; canceling the pipeline cancels the rest and skips later stages', async () => {
    const unit = (await byName()).unit;
    assert.equal((await world.developer.client.post(`/projects/${world.id}/builds/${unit.id}/cancel`)).body.status, 'canceled');
    assert.equal((await byName()).lint.status, 'pending');
    const canceled = await world.developer.client.post(`/projects/${world.id}/pipelines/${pipelineId}/cancel`);
    assert.deepEqual([canceled.status, canceled.body.status], [200, 'canceled']);
    const builds = await byName();
    assert.deepEqual([builds.unit.status, builds.lint.status, builds.ship.status], ['canceled', 'canceled', 'skipped']);
  });

  test('retrying a canceled build queues a copy and reopens the later stages; its success reaches the manual build', async () => {
    const unit = (await byName()).unit;
    const retried = await world.developer.client.post(`/projects/${world.id}/builds/${unit.id}/retry`);
    assert.deepEqual([retried.status, retried.body.status, retried.body.name], [201, 'pending', 'unit']);
    let builds = await byName();
    assert.equal(builds.unit.id, retried.body.id);
    assert.equal(builds.ship.status, 'created');
    assert.equal((await world.reporter.client.get(`/projects/${world.id}/pipelines/${pipelineId}`)).body.status, 'running');

    // The canceled lint is allowed to fail: the stage counts as a success once unit succeeds.
    await runnerMoves(retried.body.id, 'run', 'success');
    builds = await byName();
    assert.equal(builds.ship.status, 'skipped', 'a manual build waits, skipped, to be played');
    assert.equal((await world.reporter.client.get(`/projects/${world.id}/pipelines/${pipelineId}`)).body.status, 'success');
  });

  test('playing the manual build queues it for the player; the pipeline runs again', async () => {
    const ship = (await byName()).ship;
    const played = await world.developer.client.post(`/projects/${world.id}/builds/${ship.id}/play`);
    assert.deepEqual(
      [played.status, played.body.id, played.body.status, played.body.user.id],
      [200, ship.id, 'started', world.developer.user.id],
    );
    assert.equal((await byName()).ship.status, 'pending');
    assert.equal((await world.reporter.client.get(`/projects/${world.id}/pipelines/${pipelineId}`)).body.status, 'running');
  });
});
