import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { startApp } from '../support/app';
import { createRootProject } from '../support/repo';
import { registeredRunner, seedPipeline } from '../support/ci-world';

const INFO = 30;

test("a runner's polling (builds/register answered 204, trace PATCHes, running-state PUTs) is not logged at info; a build handed out and its final state are", async () => {
  const lines: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  const app = await startApp({}, stream);
  let buildId = 0;
  try {
    const runner = await registeredRunner(app);
    assert.equal((await runner.requestBuild()).outcome, 'nothing');
    assert.equal((await runner.requestBuild()).outcome, 'nothing');
    const project = await createRootProject(app, 'polling');
    await seedPipeline(app, project.id, { sha: project.head, builds: [{ name: 'rspec' }] });
    const handed = await runner.requestBuild();
    assert.equal(handed.outcome, 'build');
    if (handed.outcome !== 'build') return;
    buildId = handed.build.id;
    assert.equal((await runner.updateState(handed.build, 'running')).status, 200);
    assert.equal((await runner.appendTrace(handed.build, 'step 1\n')).status, 202);
    assert.equal((await runner.appendTrace(handed.build, 'step 2\n')).status, 202);
    assert.equal((await runner.updateState(handed.build, 'success')).status, 200);
  } finally {
    await app.close();
  }
  const atInfo = lines
    .map((line) => JSON.parse(line))
    .filter((record) => record.level === INFO && record.msg === 'request completed' && record.req.url.startsWith('/ci/api/v1/'))
    .map((record) => `${record.req.method} ${record.req.url.replace(/\?.*/, '')} ${record.res.statusCode}`);
  assert.deepEqual(atInfo, [
    'POST /ci/api/v1/runners/register 201',
    'POST /ci/api/v1/builds/register 201',
    `PUT /ci/api/v1/builds/${buildId} 200`,
  ]);
});
