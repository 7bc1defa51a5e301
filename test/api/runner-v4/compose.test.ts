import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { projectRunner, pushedProject } from './world';

const CONFIG = `
default:
  image: alpine:3
.base:
  variables: { FROM_BASE: "yes" }
  script: [echo base]
build:
  extends: .base
  parallel: 2
skipped:
  script: echo never
  rules:
    - if: $CI_COMMIT_BRANCH == "other"
tagged:
  script: echo on master
  rules:
    - if: $CI_COMMIT_BRANCH == "master" && $CI_PIPELINE_SOURCE == "push"
      variables: { RULED: "1" }
`;

let app: TestApp;
before(async () => {
  app = await startApp({ RUNNER_POLL_TIMEOUT_MS: '2000' });
});
after(async () => {
  await app.close();
});

const variable = (payload: any, key: string) => payload.variables.find((item: any) => item.key === key)?.value;

describe('extends, default, rules, parallel', () => {
  test('a pushed pipeline runs the jobs its rules let in, extended, with defaults, in parallel copies', async () => {
    const project = await pushedProject(app, 'compose-jobs');
    const runner = await projectRunner(app, project.id);
    await project.push({ '.gitlab-ci.yml': CONFIG });
    const seen: Record<string, any> = {};
    for (let i = 0; i < 3; i++) {
      const answer = await runner.requestJob();
      assert.equal(answer.outcome, 'job');
      if (answer.outcome !== 'job') return;
      seen[answer.job.payload.job_info.name] = answer.job.payload;
      await runner.finish(answer.job, 'success');
    }
    assert.deepEqual(Object.keys(seen).sort(), ['build 1/2', 'build 2/2', 'tagged']);
    assert.equal(seen['build 1/2'].image.name, 'alpine:3');
    assert.equal(variable(seen['build 2/2'], 'CI_NODE_INDEX'), '2');
    assert.equal(variable(seen['build 2/2'], 'CI_NODE_TOTAL'), '2');
    assert.equal(variable(seen['build 1/2'], 'FROM_BASE'), 'yes');
    assert.equal(variable(seen.tagged, 'RULED'), '1');
  });

  test("workflow:rules saying never make no pipeline through the API: 400 with GitLab's message", async () => {
    const project = await pushedProject(app, 'compose-workflow', {
      '.gitlab-ci.yml': 'workflow:\n  rules:\n    - if: $CI_PIPELINE_SOURCE == "push"\n    - when: never\nj:\n  script: x\n',
    });
    const created = await app.root.v4().post(`/projects/${project.id}/pipeline`, { ref: 'master' });
    assert.equal(created.status, 400, JSON.stringify(created.body));
    assert.deepEqual(created.body.message, { base: ['Pipeline filtered out by workflow rules.'] });
  });
});
