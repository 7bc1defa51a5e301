// A running job's CI_JOB_TOKEN where GitLab accepts it: the `JOB-TOKEN` header (or `job_token`)
// on the artifacts downloads, and HTTP clones as `gitlab-ci-token`, both acting as the job's user
// (its own project, and what that user may read), and refused once the job finished.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createProjectWorld, type ProjectWorld } from '../../support/project-world';
import { registeredRunner } from '../../support/ci-world';
import { runNextBuild } from '../../support/ci-run';
import { storedZip, unzipEntries } from '../../support/zip';
import { cloneUrl, git, tempDir, workTree } from '../../support/git';
import type { RunnerClient } from '../../support/runner-client';

const CI_YML = 'compile:\n  script: make\n  artifacts:\n    paths: [out/]\n';

let app: TestApp;
/** The job's project: its owner starts the pipelines, so the jobs run for them. */
let own: ProjectWorld<never>;
/** Another user's private project with artifacts; the job's user becomes a reporter of it halfway. */
let other: ProjectWorld<never>;
let runner: RunnerClient;
let ownJobId: number;
let otherJobId: number;
/** The job that stays running, and its token: the one under test. */
let running: Awaited<ReturnType<RunnerClient['requestBuild']>> & { outcome: 'build' };
let token: string;

/** An artifacts download as raw bytes, with the given headers and no other credentials. */
async function download(path: string, headers: Record<string, string> = {}): Promise<{ status: number; files?: Record<string, string> }> {
  const response = await fetch(`${app.url}/api/v4${path}`, { headers });
  const bytes = Buffer.from(await response.arrayBuffer());
  return response.status === 200 ? { status: 200, files: await unzipEntries(bytes) } : { status: response.status };
}

/** Runs a pipeline of `world` to its end with artifacts holding `marker`; answers the job's id. */
async function finishedJobWithArtifacts(world: ProjectWorld<never>, marker: string): Promise<number> {
  assert.equal((await world.owner.client.v4().post(`/projects/${world.id}/pipeline`, { ref: 'master' })).status, 201);
  return runNextBuild(runner, { state: 'success', artifacts: await storedZip({ 'out/marker': marker }) });
}

const clone = async (url: string) => git(['clone', '-q', url, `${tempDir()}/c`]);

before(async () => {
  app = await startApp();
  const commits = [{ files: { '.gitlab-ci.yml': CI_YML } }];
  own = await createProjectWorld(app, { roles: [], name: 'own', commits });
  other = await createProjectWorld(app, { roles: [], name: 'other', commits });
  runner = await registeredRunner(app);
  ownJobId = await finishedJobWithArtifacts(own, 'own');
  otherJobId = await finishedJobWithArtifacts(other, 'other');
  // A job that stays running: its token is the one under test.
  assert.equal((await own.owner.client.v4().post(`/projects/${own.id}/pipeline`, { ref: 'master' })).status, 201);
  const request = await runner.requestBuild();
  assert.equal(request.outcome, 'build');
  if (request.outcome !== 'build') throw new Error('no build');
  running = request;
  assert.equal((await runner.updateState(request.build, 'running')).status, 200);
  token = request.build.token;
});
after(() => app.close());

describe('JOB-TOKEN on the artifacts downloads', () => {
  test("reads a job's artifacts of its own project by job id, with the header or the job_token parameter", async () => {
    assert.deepEqual(await download(`/projects/${own.id}/jobs/${ownJobId}/artifacts`, { 'JOB-TOKEN': token }), {
      status: 200,
      files: { 'out/marker': 'own' },
    });
    const byParam = await download(`/projects/${own.id}/jobs/${ownJobId}/artifacts?job_token=${token}`);
    assert.equal(byParam.status, 200);
  });

  test('reads the latest artifacts of a ref by job name', async () => {
    const answer = await download(`/projects/${own.id}/jobs/artifacts/master/download?job=compile`, { 'JOB-TOKEN': token });
    assert.deepEqual(answer, { status: 200, files: { 'out/marker': 'own' } });
  });

  test("another user's private project is 404 until the job's user may read it", async () => {
    const path = `/projects/${other.id}/jobs/${otherJobId}/artifacts`;
    assert.equal((await download(path, { 'JOB-TOKEN': token })).status, 404);
    const added = await other.owner.client.v4().post(`/projects/${other.id}/members`, { user_id: own.owner.user.id, access_level: 20 });
    assert.equal(added.status, 201);
    assert.deepEqual(await download(path, { 'JOB-TOKEN': token }), { status: 200, files: { 'out/marker': 'other' } });
  });

  test('an unknown token is 401; a route that takes no job token ignores it (401)', async () => {
    assert.equal((await download(`/projects/${own.id}/jobs/${ownJobId}/artifacts`, { 'JOB-TOKEN': 'not-a-job-token' })).status, 401);
    const jobs = await fetch(`${app.url}/api/v4/projects/${own.id}/jobs`, { headers: { 'JOB-TOKEN': token } });
    assert.equal(jobs.status, 401);
  });
});

describe('cloning over HTTP as gitlab-ci-token', () => {
  test("clones its own project and the projects its user may read, never another's; never pushes", async () => {
    const ownUrl = cloneUrl(app.url, own.path, 'gitlab-ci-token', token);
    const cloned = await clone(ownUrl);
    assert.equal(cloned.code, 0, cloned.stderr);
    const stranger = await createProjectWorld(app, { roles: [], name: 'stranger' });
    assert.notEqual((await clone(cloneUrl(app.url, stranger.path, 'gitlab-ci-token', token))).code, 0);
    // A reporter of `other` since the test above: the job's user may fetch from it.
    await other.owner.client.v4().post(`/projects/${other.id}/members`, { user_id: own.owner.user.id, access_level: 20 });
    const fromOther = await clone(cloneUrl(app.url, other.path, 'gitlab-ci-token', token));
    assert.equal(fromOther.code, 0, fromOther.stderr);
    const dir = await workTree('ci-branch');
    assert.notEqual((await git(['push', ownUrl, 'ci-branch'], dir)).code, 0);
  });
});

describe('once the job finished', () => {
  test('its token neither reads artifacts (401) nor clones', async () => {
    assert.equal((await runner.finish(running.build, 'success')).status, 200);
    assert.equal((await download(`/projects/${own.id}/jobs/${ownJobId}/artifacts`, { 'JOB-TOKEN': token })).status, 401);
    assert.notEqual((await clone(cloneUrl(app.url, own.path, 'gitlab-ci-token', token))).code, 0);
  });
});
