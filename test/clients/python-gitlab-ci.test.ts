// python-gitlab 3.12 (Debian's python3-gitlab) against Forge's API v4 for CI: pipelines run by API
// and by trigger, jobs run to their end by a client of the runner API, their traces and artifacts,
// job actions, variables, environments, runners and errors, each through the client's own objects.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { createProjectWorld, type ProjectWorld } from '../support/project-world';
import { registeredRunner } from '../support/ci-world';
import { runNextBuild } from '../support/ci-run';
import { storedZip } from '../support/zip';
import { pythonGitlab, pythonGitlabMissing } from '../support/python-gitlab';
import type { RunnerClient } from '../support/runner-client';

const CI_YML = `
stages: [build, deploy]
compile:
  stage: build
  script: make
  artifacts:
    paths: [out/]
ship:
  stage: deploy
  script: ./ship
  when: manual
`;

let app: TestApp;
let world: ProjectWorld<'developer'>;
let runner: RunnerClient;

before(async () => {
  app = await startApp();
  world = await createProjectWorld(app, {
    roles: ['developer'],
    name: 'pyci',
    visibility: 0,
    commits: [{ files: { '.gitlab-ci.yml': CI_YML } }],
  });
  runner = await registeredRunner(app);
});
after(() => app.close());

/** A python-gitlab script as the project's owner, `p` being the project. */
const asOwner = (script: string) => pythonGitlab(app.url, world.owner.token, `p = gl.projects.get(${world.id})\n${script}`);

describe('python-gitlab: pipelines and jobs', { skip: pythonGitlabMissing }, () => {
  test('creates a pipeline, lists pipelines and its jobs; a runner runs the first job; trace and artifacts read back', async () => {
    const created = await asOwner(`
pipeline = p.pipelines.create({'ref': 'master'})
listed = p.pipelines.list(all=True)
jobs = pipeline.jobs.list()
print(json.dumps({'id': pipeline.id, 'ref': pipeline.ref, 'status': pipeline.status,
  'listed': [x.id for x in listed], 'jobs': sorted([[j.name, j.status] for j in jobs])}))
`);
    assert.equal(created.ref, 'master');
    assert.equal(created.status, 'pending');
    assert.deepEqual(created.listed, [created.id]);
    assert.deepEqual(created.jobs, [
      ['compile', 'pending'],
      ['ship', 'created'],
    ]);

    const artifacts = await storedZip({ 'out/app.bin': 'binary', 'out/README': 'read me' });
    const jobId = await runNextBuild(runner, { state: 'success', trace: 'compiling\ndone\n', artifacts });

    const read = await asOwner(`
job = p.jobs.get(${jobId})
trace = job.trace().decode()
art = job.artifacts()
print(json.dumps({'status': job.status, 'name': job.name, 'pipeline': job.pipeline['id'], 'trace': trace,
  'artifacts': list(art), 'file': job.artifacts_file}))
`);
    assert.equal(read.status, 'success');
    assert.equal(read.name, 'compile');
    assert.equal(read.pipeline, created.id);
    assert.equal(read.trace, 'compiling\ndone\n');
    assert.deepEqual(Buffer.from(read.artifacts), artifacts);
    assert.equal(read.file.size, artifacts.length);
  });

  test('plays a manual job, cancels it, retries it and erases a finished one', async () => {
    const jobs = await asOwner(`
print(json.dumps({j.name: [j.id, j.status] for j in p.jobs.list(all=True)}))
`);
    const [shipId, shipStatus] = jobs.ship;
    assert.equal(shipStatus, 'manual');
    const acted = await asOwner(`
job = p.jobs.get(${shipId})
job.play()
played = p.jobs.get(${shipId}).status
canceled = job.cancel()
retried = job.retry()
erased = p.jobs.get(${jobs.compile[0]})
erased.erase()
after = p.jobs.get(${jobs.compile[0]})
print(json.dumps({'played': played, 'canceled': canceled['status'], 'retried': [retried['id'], retried['status']],
  'erased': [after.artifacts_file, after.trace().decode()]}))
`);
    assert.equal(acted.played, 'pending');
    assert.equal(acted.canceled, 'canceled');
    assert.notEqual(acted.retried[0], shipId);
    assert.equal(acted.retried[1], 'pending');
    assert.deepEqual(acted.erased, [null, '']);
  });

  test('raises GitlabGetError for a job that does not exist, and GitlabCreateError for a ref without one', async () => {
    const errors = await asOwner(`
out = {}
try:
    p.jobs.get(999999)
except gitlab.exceptions.GitlabGetError as e:
    out['job'] = e.response_code
try:
    p.pipelines.create({'ref': 'nowhere'})
except gitlab.exceptions.GitlabCreateError as e:
    out['pipeline'] = [e.response_code, e.error_message]
print(json.dumps(out))
`);
    assert.equal(errors.job, 404);
    assert.equal(errors.pipeline[0], 400);
    assert.match(JSON.stringify(errors.pipeline[1]), /Reference not found/);
  });
});

describe('python-gitlab: triggers and variables', { skip: pythonGitlabMissing }, () => {
  test('creates a trigger with a description and runs a pipeline with it', async () => {
    const triggered = await asOwner(`
t = p.triggers.create({'description': 'nightly'})
pipeline = p.trigger_pipeline('master', t.token, variables={'NIGHTLY': 'yes'})
listed = [[x.id, x.description] for x in p.triggers.list()]
print(json.dumps({'trigger': t.id, 'owner': t.owner['username'], 'pipeline': [pipeline.id, pipeline.ref, pipeline.status], 'listed': listed}))
`);
    assert.equal(triggered.owner, world.owner.user.username);
    assert.deepEqual(triggered.pipeline.slice(1), ['master', 'pending']);
    assert.deepEqual(triggered.listed, [[triggered.trigger, 'nightly']]);
  });

  test('creates, reads, changes, lists and deletes variables', async () => {
    const result = await asOwner(`
v = p.variables.create({'key': 'DEPLOY_KEY', 'value': 'first'})
got = p.variables.get('DEPLOY_KEY')
got.value = 'second'
got.save()
changed = p.variables.get('DEPLOY_KEY').value
listed = [x.key for x in p.variables.list()]
got.delete()
try:
    p.variables.get('DEPLOY_KEY')
    gone = False
except gitlab.exceptions.GitlabGetError as e:
    gone = e.response_code
print(json.dumps({'created': v.value, 'changed': changed, 'listed': listed, 'gone': gone}))
`);
    assert.deepEqual(result, { created: 'first', changed: 'second', listed: ['DEPLOY_KEY'], gone: 404 });
  });
});

describe('python-gitlab: environments, runners and lint', { skip: pythonGitlabMissing }, () => {
  test('creates and stops an environment', async () => {
    const result = await asOwner(`
e = p.environments.create({'name': 'review/app', 'external_url': 'https://review.example.com'})
e.stop()
stopped = p.environments.get(e.id)
print(json.dumps({'name': e.name, 'slug': e.slug, 'state': stopped.state, 'all': [x.name for x in p.environments.list()]}))
`);
    assert.equal(result.name, 'review/app');
    assert.match(result.slug, /^review-app-[a-z0-9]{6}$/);
    assert.equal(result.state, 'stopped');
    assert.deepEqual(result.all, ['review/app']);
  });

  test("lists the caller's runners and, for an administrator, all of them", async () => {
    const specific = await registeredRunner(app, { projectId: world.id, description: 'pyci runner' });
    assert.ok(specific.token);
    const own = await pythonGitlab(app.url, world.owner.token, `print(json.dumps([r.description for r in gl.runners.list()]))`);
    assert.deepEqual(own, ['pyci runner']);
    const all = await pythonGitlab(app.url, app.rootToken, `print(json.dumps(len(gl.runners.all(all=True))))`);
    assert.equal(all, 2);
  });

  test('lints a .gitlab-ci.yml', async () => {
    const result = await pythonGitlab(
      app.url,
      world.owner.token,
      `print(json.dumps([gl.lint(${JSON.stringify(CI_YML)}), gl.lint('job: {}')]))`,
    );
    assert.equal(result[0][0], true);
    assert.equal(result[1][0], false);
    assert.equal(result[1][1].length, 1);
  });
});
