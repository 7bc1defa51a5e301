import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { projectRunnersToken } from '../../support/ci-world';
import { RunnerV4Client } from '../../support/runner-v4-client';
import { buildRow } from '../../support/ci-world';
import { projectRunner, pushedProject } from './world';
import { dropStuckBuilds } from '../../../src/services/ci/builds/stuck-builds';

const TIMEOUTS = `
short:
  script: make short
  timeout: 30m
long:
  script: make long
  timeout: 2h
`;

let app: TestApp;

before(async () => {
  app = await startApp({ RUNNER_POLL_TIMEOUT_MS: '300' });
});
after(async () => {
  await app.close();
});

describe('timeout', () => {
  test("the job's timeout replaces the project's, bounded by the runner's maximum_timeout; a job over it fails with job_execution_timeout", async () => {
    const project = await pushedProject(app, 'timeouts');
    const unbounded = await projectRunner(app, project.id);
    const bounded = new RunnerV4Client(app.url);
    assert.equal((await bounded.register(await projectRunnersToken(app, project.id), { maximumTimeout: 600 })).status, 201);
    await project.push({ '.gitlab-ci.yml': TIMEOUTS });

    const short = await unbounded.requestJob();
    if (short.outcome !== 'job') return assert.fail('no job');
    assert.equal(short.job.payload.job_info.name, 'short');
    assert.equal(short.job.payload.runner_info.timeout, 1800);
    assert.equal(short.job.payload.steps[0].timeout, 1800);

    const long = await bounded.requestJob();
    if (long.outcome !== 'job') return assert.fail('no job');
    assert.equal(long.job.payload.job_info.name, 'long');
    assert.equal(long.job.payload.runner_info.timeout, 600);
    await bounded.appendTrace(long.job, 'ERROR: Job failed: execution took longer than 10m0s seconds\n');
    assert.equal((await bounded.finish(long.job, 'failed', { failureReason: 'job_execution_timeout' })).status, 200);
    const row = await buildRow(app, long.job.id);
    assert.equal(row.status, 'failed');
    assert.equal(row.failure_reason, 'job_execution_timeout');
  });
});

describe('a job its runner never reports', () => {
  const minute = 60_000;

  test('is failed by the server past its timeout with job_execution_timeout; the runner cap counts', async () => {
    const project = await pushedProject(app, 'server-timeouts');
    const unbounded = await projectRunner(app, project.id);
    const bounded = new RunnerV4Client(app.url);
    assert.equal((await bounded.register(await projectRunnersToken(app, project.id), { maximumTimeout: 600 })).status, 201);
    await project.push({ '.gitlab-ci.yml': TIMEOUTS });
    const short = await unbounded.requestJob();
    const long = await bounded.requestJob();
    if (short.outcome !== 'job' || long.outcome !== 'job') return assert.fail('no job');

    // 20 minutes in: long (capped at 10 minutes) is past it and the grace; short (30 minutes) is not.
    await dropStuckBuilds(app.ctx, Date.now() + 20 * minute);
    const longRow = await buildRow(app, long.job.id);
    assert.equal(longRow.status, 'failed');
    assert.equal(longRow.failure_reason, 'job_execution_timeout');
    assert.equal((await buildRow(app, short.job.id)).status, 'running');
    // The runner's late report is refused: the job is over.
    assert.notEqual((await bounded.finish(long.job, 'success')).status, 200);

    await dropStuckBuilds(app.ctx, Date.now() + 36 * minute);
    const shortRow = await buildRow(app, short.job.id);
    assert.equal(shortRow.status, 'failed');
    assert.equal(shortRow.failure_reason, 'job_execution_timeout');
  });
});
