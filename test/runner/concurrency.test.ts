import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { registrationToken } from '../support/ci-world';
import { RunnerProcess, pushCi } from '../support/runner-process';

/* Two runner processes running two builds each at once share six builds: each build runs once. */

const JOBS = ['one', 'two', 'three', 'four', 'five', 'six'];
const CI_YAML = JOBS.map((name) => `${name}:\n  script:\n    - echo "ran $CI_BUILD_NAME in $CI_PROJECT_DIR"\n    - sleep 0.3\n`).join('');

let app: TestApp;
const runners: RunnerProcess[] = [];

before(async () => {
  app = await startApp();
});
after(async () => {
  await Promise.all(runners.map((runner) => runner.close()));
  await app.close();
});

test('two runners with --concurrency 2 run six builds, each exactly once', async () => {
  const token = await registrationToken(app);
  runners.push(
    RunnerProcess.start(app, { registrationToken: token, concurrency: 2 }),
    RunnerProcess.start(app, { registrationToken: token, concurrency: 2 }),
  );
  const created = await app.root.post('/projects', { name: 'concurrency' });
  await pushCi(app, created.body, 'master', CI_YAML);
  const pipeline = await eventually(
    async () => {
      const list = await app.root.get(`/projects/${created.body.id}/pipelines`);
      return ['success', 'failed'].includes(list.body[0]?.status) && list.body[0];
    },
    { message: 'the pipeline finishing' },
  ).catch(async (error: Error) => {
    // Where it stopped: the pipelines, the builds and what each runner said.
    const pipelines = (await app.root.get(`/projects/${created.body.id}/pipelines`)).body;
    const builds = (await app.root.get(`/projects/${created.body.id}/builds`)).body;
    const states = Array.isArray(builds) ? builds.map((build: any) => `${build.name}: ${build.status}`).join(', ') : JSON.stringify(builds);
    const logs = runners.map((runner, i) => `runner ${i}:\n${runner.output.slice(-3_000)}`).join('\n');
    throw new Error(`${error.message}\npipelines: ${JSON.stringify(pipelines)}\nbuilds: ${states}\n${logs}`);
  });
  assert.equal(pipeline.status, 'success');

  const builds = (await app.root.get(`/projects/${created.body.id}/builds`)).body;
  assert.deepEqual(builds.map((build: any) => build.name).sort(), [...JOBS].sort());
  for (const build of builds) {
    assert.equal(build.status, 'success', build.name);
    const trace = (await app.root.get(`/projects/${created.body.id}/builds/${build.id}/trace`)).text;
    assert.equal(trace.match(/^Running with forge runner /gm)?.length, 1, trace);
    assert.equal(trace.match(new RegExp(`^ran ${build.name} in `, 'gm'))?.length, 1, trace);
    // Each of a runner's slots has its working copy: <builds dir>/<runner token's first 8>/<slot>/<namespace>/<project>.
    assert.match(trace, /^ran \w+ in \/.+\/builds\/[0-9a-f]{8}\/[01]\/root\/concurrency$/m);
  }
  // Each build started once, in one runner's log.
  const started = runners.flatMap((runner) => [...runner.output.matchAll(/build (\d+) started/g)].map((match) => Number(match[1])));
  assert.deepEqual(
    started.sort((a, b) => a - b),
    builds.map((build: any) => build.id).sort((a: number, b: number) => a - b),
  );
});
