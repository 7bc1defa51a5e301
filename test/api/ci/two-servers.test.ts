import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { startPeerServer, type PeerServer } from '../../support/peer-server';
import { createRootProject } from '../../support/repo';
import { registeredRunner, runnerRow, seedPipeline } from '../../support/ci-world';
import { RunnerClient } from '../../support/runner-client';

/*
 * Two Forge servers on one database, ten runners each asking both at once: the claim is the
 * database's conditional update, so no build may go out twice, whichever server a runner asks.
 */

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

let app: TestApp;
let peer: PeerServer;

async function handOutEverything(seeded: number[]) {
  const runners: Array<{ id: number; viaApp: RunnerClient; viaPeer: RunnerClient }> = [];
  for (let i = 0; i < 10; i++) {
    const viaApp = await registeredRunner(app, { description: `runner ${i}` });
    runners.push({ id: (await runnerRow(app, viaApp.token!))!.id, viaApp, viaPeer: new RunnerClient(peer.url, viaApp.token) });
  }
  const handedOut: Array<{ build: number; runner: number }> = [];
  // Rounds of twenty polls at once (each runner on both servers) until a round finds nothing.
  for (let round = 0; round < 30; round++) {
    const answers = await Promise.all(
      runners.flatMap((runner) =>
        [runner.viaApp, runner.viaPeer].map(async (client) => ({ runner: runner.id, answer: await client.requestBuild() })),
      ),
    );
    assert.deepEqual(
      answers.filter(({ answer }) => answer.outcome === 'failed' || answer.outcome === 'forbidden'),
      [],
    );
    const got = answers.flatMap(({ runner, answer }) => (answer.outcome === 'build' ? [{ build: answer.build.id as number, runner }] : []));
    if (got.length === 0) break;
    handedOut.push(...got);
  }
  assert.deepEqual(
    handedOut.map((h) => h.build).sort((x, y) => x - y),
    [...seeded].sort((x, y) => x - y),
  );
  for (const { build, runner } of handedOut) {
    const row = await app.ctx.db.selectFrom('ci_builds').select(['status', 'runner_id']).where('id', '=', build).executeTakeFirstOrThrow();
    assert.deepEqual(row, { status: 'running', runner_id: runner });
  }
}

async function seedBuilds(count: number): Promise<number[]> {
  const projects = await Promise.all([1, 2, 3].map((n) => createRootProject(app, `two-servers-${n}`)));
  const seeded: number[] = [];
  for (const [index, project] of projects.entries()) {
    const { builds } = await seedPipeline(app, project.id, {
      sha: project.head,
      builds: Array.from({ length: count / projects.length }, (_, i) => ({ name: `job${index}-${i}` })),
    });
    seeded.push(...builds.map((build) => build.id));
  }
  return seeded;
}

describe('two servers on one database', () => {
  before(async () => {
    app = await startApp();
    peer = await startPeerServer(app);
  });
  after(async () => {
    await peer?.close();
    await app?.close();
  });

  test('PostgreSQL: 10 runners polling both servers at once for 30 pending builds, every build is handed out exactly once', {
    skip: !onPostgres && 'PostgreSQL only (TEST_DATABASE_URL): the deployment that runs several servers',
  }, async () => {
    await handOutEverything(await seedBuilds(30));
  });

  // Two servers in one process over one SQLite file (WAL, two connections). better-sqlite3 runs each
  // statement synchronously, so here one server's claim transaction never pauses half-way for the
  // other's; servers in separate processes would wait for each other's writes through `busy_timeout`.
  test('SQLite: the same over one database file, each build handed out exactly once', {
    skip: onPostgres && 'the SQLite variant; this run is on PostgreSQL',
  }, async () => {
    await handOutEverything(await seedBuilds(30));
  });
});
