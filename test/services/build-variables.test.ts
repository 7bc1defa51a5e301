import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildVariables, type VariableSources } from '../../src/services/ci/builds/variables';

const sources: VariableSources = {
  build: { id: 7, name: 'rspec', stage: 'test', ref: 'Feature/Login_Page', when: 'manual', yaml_variables: '[]' },
  token: 'build-token',
  pipeline: { id: 3, sha: 'a'.repeat(40), before_sha: null, tag: true },
  project: { id: 1, path: 'app', namespacePath: 'team', webUrl: 'http://forge/team/app' },
  runner: undefined,
  user: undefined,
  secrets: [],
  trigger: { X: 'y' },
};

const keys = (list: Array<{ key: string }>) => list.map((item) => item.key);

describe('build variables', () => {
  test("8.12's names only, unless GitLab 9's are asked for", () => {
    assert.ok(!keys(buildVariables(sources)).some((key) => key.startsWith('CI_JOB_') || key.startsWith('CI_COMMIT_')));
  });

  test("GitLab 9's CI_JOB_* and CI_COMMIT_* beside CI_BUILD_*, the token kept private", () => {
    const variables = buildVariables({ ...sources, jobNames: true });
    const value = (key: string) => variables.find((item) => item.key === key);
    assert.equal(value('CI_BUILD_ID')?.value, '7');
    assert.deepEqual(value('CI_JOB_ID'), { key: 'CI_JOB_ID', value: '7', public: true });
    assert.deepEqual(value('CI_JOB_TOKEN'), { key: 'CI_JOB_TOKEN', value: 'build-token', public: false });
    assert.equal(value('CI_JOB_NAME')?.value, 'rspec');
    assert.equal(value('CI_JOB_STAGE')?.value, 'test');
    assert.equal(value('CI_COMMIT_SHA')?.value, 'a'.repeat(40));
    assert.equal(value('CI_COMMIT_BEFORE_SHA')?.value, '0'.repeat(40));
    assert.equal(value('CI_COMMIT_REF_NAME')?.value, 'Feature/Login_Page');
    assert.equal(value('CI_COMMIT_REF_SLUG')?.value, 'feature-login-page');
    assert.equal(value('CI_COMMIT_TAG')?.value, 'Feature/Login_Page');
    assert.equal(value('CI_PIPELINE_TRIGGERED')?.value, 'true');
    assert.equal(value('CI_JOB_MANUAL')?.value, 'true');
  });
});
