import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';

/** `POST /api/v4/ci/lint` on needs, retry, timeout, interruptible and artifacts exclude/reports, with GitLab's messages. */

let app: TestApp;

before(async () => {
  app = await startApp();
});
after(async () => {
  await app.close();
});

async function lint(content: string): Promise<{ status: string; errors: string[] }> {
  const response = await app.root.post('/api/v4/ci/lint', { content });
  assert.equal(response.status, 200);
  return response.body;
}

const valid = async (content: string) => assert.deepEqual(await lint(content), { status: 'valid', errors: [] });
const invalid = async (content: string, message: string) => assert.deepEqual(await lint(content), { status: 'invalid', errors: [message] });

const BUILD = 'stages: [build, test]\nbuild:\n  stage: build\n  script: make\n';
const testJob = (more: string) => `${BUILD}rspec:\n  stage: test\n  script: rspec\n${more}`;

describe('needs', () => {
  test('names, hashes with artifacts and optional, and an empty list are valid', async () => {
    await valid(testJob('  needs: [build]\n'));
    await valid(testJob('  needs:\n    - job: build\n      artifacts: false\n      optional: true\n'));
    await valid(testJob('  needs: []\n'));
  });

  test('a need that names no job, or a job of the same or a later stage', async () => {
    await invalid(testJob('  needs: [nothing]\n'), 'rspec job: undefined need: nothing');
    await invalid(
      `${BUILD}lint:\n  stage: build\n  script: lint\n  needs: [build]\n`,
      'lint job: need build is not defined in prior stages',
    );
  });

  test('values of the wrong type', async () => {
    await invalid(testJob('  needs: build\n'), 'jobs:rspec:needs config can only be a hash or an array');
    await invalid(testJob('  needs: [1]\n'), 'jobs:rspec:needs:need has an unsupported type');
    await invalid(
      testJob('  needs:\n    - job: build\n      artifacts: yes please\n'),
      'jobs:rspec:needs:need artifacts should be a boolean value',
    );
    await invalid(testJob('  needs:\n    - job: build\n      when: always\n'), 'jobs:rspec:needs:need config contains unknown keys: when');
  });

  test('a dependency that is not needed', async () => {
    await invalid(
      `${BUILD}lint:\n  stage: build\n  script: lint\nrspec:\n  stage: test\n  script: rspec\n  needs: [build]\n  dependencies: [lint]\n`,
      'rspec job: dependency lint should be part of needs',
    );
  });
});

describe('retry', () => {
  test('a count up to 2, or max and when', async () => {
    await valid(testJob('  retry: 2\n'));
    await valid(testJob('  retry:\n    max: 1\n    when: [runner_system_failure, script_failure]\n'));
    await valid(testJob('  retry:\n    when: always\n'));
  });

  test("GitLab's messages for counts out of range, unknown keys and failures", async () => {
    await invalid(testJob('  retry: 3\n'), 'jobs:rspec:retry config must be less than or equal to 2');
    await invalid(testJob('  retry: -1\n'), 'jobs:rspec:retry config must be greater than or equal to 0');
    await invalid(testJob('  retry: twice\n'), 'jobs:rspec:retry has to be either an integer or a hash');
    await invalid(testJob('  retry:\n    max: 5\n'), 'jobs:rspec:retry max must be less than or equal to 2');
    await invalid(testJob('  retry:\n    times: 1\n'), 'jobs:rspec:retry config contains unknown keys: times');
    await invalid(testJob('  retry:\n    when: [moon_phase]\n'), 'jobs:rspec:retry when contains unknown values: moon_phase');
    await invalid(testJob('  retry:\n    when: moon_phase\n'), 'jobs:rspec:retry when is not included in the list');
  });
});

describe('timeout and interruptible', () => {
  test('a duration and a boolean are valid', async () => {
    await valid(testJob('  timeout: 1h 30m\n  interruptible: true\n'));
  });

  test('anything else', async () => {
    await invalid(testJob('  timeout: soon\n'), 'jobs:rspec timeout should be a duration');
    await invalid(testJob('  timeout: 2 months\n'), 'jobs:rspec timeout should not exceed the limit');
    await invalid(testJob('  interruptible: maybe\n'), 'jobs:rspec interruptible should be a boolean value');
  });
});

describe('artifacts: exclude and reports', () => {
  test('globs to exclude and a junit report (a string or a list) are valid', async () => {
    await valid(testJob('  artifacts:\n    paths: [out/]\n    exclude: [out/*.o]\n    reports:\n      junit: report.xml\n'));
    await valid(testJob('  artifacts:\n    reports:\n      junit: [a.xml, b.xml]\n'));
  });

  test('anything else', async () => {
    await invalid(testJob('  artifacts:\n    exclude: out/*.o\n'), 'jobs:rspec:artifacts exclude should be an array of strings');
    await invalid(testJob('  artifacts:\n    reports: junit.xml\n'), 'jobs:rspec:artifacts:reports config should be a hash');
    await invalid(
      testJob('  artifacts:\n    reports:\n      junit: 1\n'),
      'jobs:rspec:artifacts:reports junit should be an array of strings or a string',
    );
    await invalid(
      testJob('  artifacts:\n    reports:\n      wishes: a.txt\n'),
      'jobs:rspec:artifacts:reports config contains unknown keys: wishes',
    );
  });
});
