import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { RunnerV4Client } from '../../support/runner-v4-client';
import { projectRunnersToken } from '../../support/ci-world';
import { pushedProject } from './world';
import { eventually } from '../../support/eventually';

let app: TestApp;

before(async () => {
  // A runner given nothing is answered after a second, not GitLab's 50.
  app = await startApp({ RUNNER_POLL_TIMEOUT_MS: '1000' });
});
after(async () => {
  await app.close();
});

const CI = 'build:\n  script: echo built\n';

// GitLab's `access_level: ref_protected`: such a runner (it may hold deploy secrets) takes only
// builds of protected refs; a build of any other branch waits for another runner.
test('a runner registered ref_protected takes builds of protected branches only', async () => {
  // The first push protects the default branch, as GitLab's default branch protection does: undo it.
  const project = await pushedProject(app, 'protected-runner', { 'notes.txt': 'first\n' });
  const unprotect = await app.root.v4().delete(`/projects/${project.id}/protected_branches/master`);
  assert.ok([204, 404].includes(unprotect.status), unprotect.text);
  const guarded = new RunnerV4Client(app.url);
  const registered = await guarded.register(await projectRunnersToken(app, project.id), { accessLevel: 'ref_protected' });
  assert.equal(registered.status, 201, registered.text);

  // master is not protected: the build is pending and the protected runner is not given it.
  await project.push({ '.gitlab-ci.yml': CI });
  const jobs = async () => (await app.root.v4().get(`/projects/${project.id}/jobs`)).body as Array<{ id: number; status: string }>;
  await eventually(async () => (await jobs()).length === 1, { message: 'the first build made' });
  assert.equal((await guarded.requestJob()).outcome, 'nothing');

  // Once master is protected, its builds are the runner's (judged when handed out, as the protection is now).
  assert.equal((await app.root.v4().post(`/projects/${project.id}/protected_branches`, { name: 'master' })).status, 201);
  const pipeline = await app.root.v4().post(`/projects/${project.id}/pipeline?ref=master`);
  assert.equal(pipeline.status, 201, pipeline.text);
  const answer = await guarded.requestJob();
  assert.equal(answer.outcome, 'job');
  if (answer.outcome !== 'job') return;
  assert.equal(
    (answer.job.payload.variables as Array<{ key: string; value: string }>).find((variable) => variable.key === 'CI_COMMIT_REF_PROTECTED')
      ?.value,
    'true',
  );

  // An ordinary runner of the project takes the other one.
  const ordinary = new RunnerV4Client(app.url);
  assert.equal((await ordinary.register(await projectRunnersToken(app, project.id))).status, 201);
  const other = await ordinary.requestJob();
  assert.equal(other.outcome, 'job');
  if (other.outcome !== 'job') return;
  const all = (await jobs()).map((job) => job.id).sort((a, b) => a - b);
  assert.deepEqual(
    [answer.job.id, other.job.id].sort((a, b) => a - b),
    all,
  );
});
