import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startApp, type TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { registrationToken } from '../support/ci-world';
import { RunnerProcess, pushCi } from '../support/runner-process';

/*
 * `cache:` through the real `forge runner` (its shell executor, as runner 1.x's): a pipeline's build
 * saves what `cache:paths` (and `untracked`) name under its key, after a successful script; a
 * later pipeline's build, in a fresh working copy, finds it there before its script runs.
 * `policy: pull` restores and never saves; `push` saves and never restores. The builds of one
 * test run one after the other (one runner, one slot).
 */

let app: TestApp;
let runner: RunnerProcess;
let project: { id: number; path_with_namespace: string };

before(async () => {
  app = await startApp();
  const created = await app.root.post('/projects', { name: 'runner-cache' });
  assert.equal(created.status, 201);
  project = created.body;
  runner = RunnerProcess.start(app, { registrationToken: await registrationToken(app) });
  await runner.waitForOutput(/waiting for builds/);
});
after(async () => {
  await runner.close();
  await app.close();
});

/** Pushes `yaml` to `branch` and waits for its one build to finish; the build and its trace. */
async function run(branch: string, yaml: string, files: Record<string, string> = {}): Promise<{ status: string; trace: string }> {
  await pushCi(app, project, branch, yaml, files);
  const build = await eventually(
    async () => {
      const list = await app.root.get(`/projects/${project.id}/builds`);
      const found = list.body.find((b: any) => b.ref === branch);
      return found && ['success', 'failed', 'canceled'].includes(found.status) && found;
    },
    { message: `the build of ${branch} finishing` },
  );
  const trace = await app.root.get(`/projects/${project.id}/builds/${build.id}/trace`);
  return { status: build.status, trace: trace.text };
}

const cacheArchive = (key: string) => {
  const { token } = JSON.parse(fs.readFileSync(runner.configFile, 'utf8'));
  return path.join(runner.dir, 'builds', token.slice(0, 8), 'cache', project.path_with_namespace, key, 'cache.zip');
};

describe('forge runner and cache:', () => {
  test("a later pipeline sees the files an earlier one cached under the same key (the key expanded with the build's variables)", async () => {
    const first = await run(
      'first',
      `
build:
  cache:
    key: "deps-$CI_PROJECT_ID"
    paths: [vendor/]
  script:
    - mkdir -p vendor && echo "cached by $CI_BUILD_REF_NAME" > vendor/lib.txt
`,
    );
    assert.equal(first.status, 'success', first.trace);
    assert.match(first.trace, new RegExp(`Checking cache for deps-${project.id}\\.\\.\\.\\n`));
    assert.match(first.trace, new RegExp(`Creating cache deps-${project.id}\\.\\.\\.\\nCreated cache\\n`));
    assert.ok(fs.existsSync(cacheArchive(`deps-${project.id}`)));

    const second = await run(
      'second',
      `
build:
  cache:
    key: "deps-$CI_PROJECT_ID"
    paths: [vendor/]
  script:
    - cat vendor/lib.txt
`,
    );
    assert.equal(second.status, 'success', second.trace);
    assert.match(second.trace, /Successfully extracted cache\n/);
    assert.match(second.trace, /\$ cat vendor\/lib\.txt\ncached by first\n/);
  });

  test('policy: pull restores the cache and does not save it; policy: push saves without restoring', async () => {
    await run(
      'seed',
      `
build:
  cache: { key: policies, paths: [state.txt] }
  script: echo seeded > state.txt
`,
    );
    const pull = await run(
      'pull',
      `
build:
  cache: { key: policies, paths: [state.txt], policy: pull }
  script:
    - cat state.txt
    - echo changed-by-pull > state.txt
`,
    );
    assert.equal(pull.status, 'success', pull.trace);
    assert.match(pull.trace, /\$ cat state\.txt\nseeded\n/);
    assert.match(pull.trace, /Not uploading cache policies due to policy\n/);
    assert.doesNotMatch(pull.trace, /Creating cache/);

    const push = await run(
      'push',
      `
build:
  cache: { key: policies, paths: [state.txt], policy: push }
  script:
    - test ! -e state.txt
    - echo pushed > state.txt
`,
    );
    assert.equal(push.status, 'success', push.trace);
    assert.match(push.trace, /Not downloading cache policies due to policy\n/);

    const after = await run(
      'after-push',
      `
build:
  cache: { key: policies, paths: [state.txt] }
  script: cat state.txt
`,
    );
    // What pull changed never reached the cache; what push saved did.
    assert.match(after.trace, /\$ cat state\.txt\npushed\n/);
  });

  test('untracked: true caches the files git does not track; the default key is <job name>/<ref>', async () => {
    const made = await run(
      'untracked',
      `
compile:
  cache: { untracked: true }
  script: echo built > output.bin
`,
      { '.gitignore': 'output.bin\n' },
    );
    assert.equal(made.status, 'success', made.trace);
    assert.match(made.trace, /Creating cache compile\/untracked\.\.\.\n/);
    assert.ok(fs.existsSync(cacheArchive('compile/untracked')));
  });

  test('a failed script saves no cache', async () => {
    const failed = await run(
      'failing',
      `
build:
  cache: { key: failing, paths: [x.txt] }
  script:
    - echo x > x.txt
    - "false"
`,
    );
    assert.equal(failed.status, 'failed');
    assert.doesNotMatch(failed.trace, /Creating cache/);
    assert.equal(fs.existsSync(cacheArchive('failing')), false);
  });

  test('image and services, which a shell executor cannot honour, are named in the trace', async () => {
    const ran = await run(
      'image',
      `
image: ruby:2.3
services: [postgres:9.5]
build:
  script: echo ok
`,
    );
    assert.equal(ran.status, 'success', ran.trace);
    assert.match(ran.trace, /WARNING: the shell executor ignores image ruby:2\.3 and services postgres:9\.5/);
  });
});
