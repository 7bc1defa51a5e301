import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import type { Person } from '../support/project-world';
import { seedCommit } from '../support/repo';
import { registeredRunner } from '../support/ci-world';
import { seedPipeline } from '../support/ci';
import { storedZip, unzipEntries } from '../support/zip';
import type { RunnerClient, RunningBuild } from '../support/runner-client';
import { WebClient } from '../support/web';
import { createWebWorld, type WebWorld } from '../support/web-world';

/**
 * The CI pages at GitLab 8.12's URLs: pipelines, a pipeline's builds by stage, a build's page with
 * its log (ANSI colours styled, everything else inert text, secrets masked as the API masks them),
 * the live part of the log, the artifacts, and cancel, retry and play as CSRF-protected forms, all
 * through the API's `read_build`/`update_build`: a private project's CI is a 404 to outsiders.
 */
let app: TestApp;
let owner: Person;
let project: any;
let base: string;
let runner: RunnerClient;
let pipelineId: number;
let compileId: number;
let running: RunningBuild;
let deployId: number;
let web: WebWorld<'developer' | 'reporter' | 'guest' | 'stranger'>['web'];

const CI_YML = [
  'stages: [build, test]',
  'compile:',
  '  stage: build',
  '  script: make',
  '  artifacts:',
  '    paths: [out/]',
  'rspec:',
  '  stage: test',
  '  script: rspec',
  'deploy:',
  '  stage: test',
  '  script: deploy',
  '  when: manual',
  '',
].join('\n');

const HOSTILE_TRACE = '\x1b[31mred alert\x1b[0m\n<script>window.__pwned = 1</script><img src=x onerror=alert(1)>\n"quoted" & done\n';

before(async () => {
  app = await startApp();
  ({ owner, project, base, web } = await createWebWorld(app, {
    roles: ['developer', 'reporter', 'guest', 'stranger'],
    name: 'ci-secrets',
    visibility: 0,
    commits: [{ files: { '.gitlab-ci.yml': CI_YML }, message: 'Add CI\n' }],
  }));
  runner = await registeredRunner(app);
  const pipeline = await owner.client.v4().post(`/projects/${project.id}/pipeline`, { ref: 'master' });
  assert.equal(pipeline.status, 201, JSON.stringify(pipeline.body));
  pipelineId = pipeline.body.id;
  // compile succeeds with a hostile trace and artifacts; rspec is then taken and left running.
  const first = await runner.requestBuild();
  assert.equal(first.outcome, 'build');
  if (first.outcome !== 'build') throw new Error('no build');
  compileId = first.build.id;
  assert.equal((await runner.updateState(first.build, 'running')).status, 200);
  assert.equal((await runner.appendTrace(first.build, `${HOSTILE_TRACE}token ${first.build.token}\n`)).status, 202);
  assert.equal((await runner.uploadArtifacts(first.build, await storedZip({ 'out/result.txt': 'built' }))).status, 201);
  assert.equal((await runner.finish(first.build, 'success')).status, 200);
  const second = await runner.requestBuild();
  assert.equal(second.outcome, 'build');
  if (second.outcome !== 'build') throw new Error('no build');
  running = second.build;
  assert.equal((await runner.updateState(running, 'running')).status, 200);
  const jobs = await owner.client.v4().get(`/projects/${project.id}/pipelines/${pipelineId}/jobs`);
  deployId = jobs.body.find((job: any) => job.name === 'deploy').id;
});
after(() => app?.close());

describe('GET /:namespace/:project/pipelines', () => {
  test('lists the pipelines with their status, ref, commit and a link to each', async () => {
    const page = await web.reporter.get(`${base}/pipelines`);
    assert.equal(page.status, 200);
    assert.match(page.text, new RegExp(`href="${base}/pipelines/${pipelineId}">#${pipelineId}</a>`));
    assert.match(page.text, /<td>master<\/td>/);
    assert.match(page.text, /class="ci-status ci-running">running</);
    assert.match(page.text, /<h1>Pipelines<\/h1>/);
  });

  test('is paged: twenty a page, with a link to the next', async () => {
    const other = await owner.client.post('/projects', { name: 'many-pipelines', visibility_level: 20 });
    const sha = await seedCommit(app, other.body.id, { files: { 'a.txt': 'a' } });
    for (let index = 0; index < 21; index++) await seedPipeline(app, other.body.id, { sha, status: 'success' });
    const path = `${new URL(other.body.web_url).pathname}/pipelines`;
    const first = await web.anonymous.get(path);
    assert.equal(first.status, 200);
    assert.equal([...first.text.matchAll(/<tr>\n<td><span class="ci-status/g)].length, 20);
    assert.match(first.text, new RegExp(`rel="next" href="${path}\\?page=2"`));
    const second = await web.anonymous.get(`${path}?page=2`);
    assert.equal([...second.text.matchAll(/<tr>\n<td><span class="ci-status/g)].length, 1);
  });
});

describe('GET /:namespace/:project/pipelines/:id', () => {
  test("shows the pipeline's builds grouped by stage, in the stages' order, each with its status", async () => {
    const page = await web.reporter.get(`${base}/pipelines/${pipelineId}`);
    assert.equal(page.status, 200);
    const build = page.text.indexOf('<h2 id="stage-0">build</h2>');
    const testStage = page.text.indexOf('<h2 id="stage-1">test</h2>');
    assert.ok(build > 0 && testStage > build, 'stages in order');
    assert.ok(page.text.indexOf('>compile</a>') > build && page.text.indexOf('>compile</a>') < testStage);
    assert.ok(page.text.indexOf('>rspec</a>') > testStage);
    assert.match(page.text, /ci-success">success<\/span> <a href="[^"]+\/builds\/\d+">compile</);
    assert.match(page.text, /ci-running">running<\/span> <a href="[^"]+">rspec</);
  });

  test('offers cancel to developers and no buttons to reporters', async () => {
    assert.match((await web.developer.get(`${base}/pipelines/${pipelineId}`)).text, /<button type="submit">Cancel running<\/button>/);
    assert.doesNotMatch((await web.reporter.get(`${base}/pipelines/${pipelineId}`)).text, /<button type="submit">(Cancel|Retry)/);
  });

  test('an unknown pipeline is a 404', async () => {
    assert.equal((await web.developer.get(`${base}/pipelines/999999`)).status, 404);
    assert.equal((await web.developer.get(`${base}/pipelines/abc`)).status, 404);
  });
});

describe("a private project's CI pages", () => {
  const paths = () => [
    `${base}/pipelines`,
    `${base}/pipelines/${pipelineId}`,
    `${base}/builds/${compileId}`,
    `${base}/builds/${compileId}/trace.json`,
    `${base}/builds/${compileId}/raw`,
    `${base}/builds/${compileId}/artifacts/download`,
  ];

  test('are the same 404 as a missing project to anonymous visitors, non-members and guests', async () => {
    const missing = await web.stranger.get('/nobody/nothing/pipelines');
    assert.equal(missing.status, 404);
    for (const who of ['anonymous', 'stranger', 'guest'] as const) {
      for (const path of paths()) {
        const page = await web[who].get(path);
        assert.equal(page.status, 404, `${who} ${path}`);
        assert.doesNotMatch(page.text, /compile|rspec|red alert/, `${who} ${path}`);
      }
    }
  });

  test('open to reporters', async () => {
    for (const path of paths()) assert.equal((await web.reporter.get(path)).status, 200, path);
  });
});

describe('GET /:namespace/:project/builds/:id', () => {
  test('shows the log with ANSI colours as styled text and a hostile trace as inert text', async () => {
    const page = await web.reporter.get(`${base}/builds/${compileId}`);
    assert.equal(page.status, 200);
    const log = /<pre id="build-trace"[^>]*>([\s\S]*?)<\/pre>/.exec(page.text)?.[1] ?? '';
    assert.match(log, /<span style="color:#A00">red alert<\/span>/);
    assert.match(log, /&lt;script&gt;window.__pwned = 1&lt;\/script&gt;&lt;img src=x onerror=alert\(1\)&gt;/);
    assert.match(log, /&quot;quoted&quot; &amp; done/);
    assert.doesNotMatch(page.text, /<script>window|<img src=x|\x1b/);
  });

  test("masks the build's token in the log, as the API's trace does", async () => {
    const page = await web.reporter.get(`${base}/builds/${running.id}`);
    assert.equal(page.status, 200);
    const compile = await web.reporter.get(`${base}/builds/${compileId}`);
    assert.match(compile.text, /token x{10,}/);
    const apiTrace = await owner.client.get(`/projects/${project.id}/builds/${compileId}/trace`);
    assert.ok(apiTrace.text.includes('token x'));
    assert.doesNotMatch(compile.text, /token [0-9a-f]{10,}/i);
  });

  test('links the artifacts, which download as the archive the runner uploaded', async () => {
    const page = await web.reporter.get(`${base}/builds/${compileId}`);
    assert.match(page.text, new RegExp(`href="${base}/builds/${compileId}/artifacts/download">Download artifacts`));
    const response = await fetch(`${app.url}${base}/builds/${compileId}/artifacts/download`, {
      headers: { cookie: [...web.reporter.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-disposition') ?? '', /^attachment/);
    assert.deepEqual(await unzipEntries(Buffer.from(await response.arrayBuffer())), { 'out/result.txt': 'built' });
  });

  test('a running build has the live-log script and a Cancel button for developers only', async () => {
    const forDeveloper = await web.developer.get(`${base}/builds/${running.id}`);
    assert.match(forDeveloper.text, /<script src="\/assets\/build-log\.js\?v=[0-9a-f]+" defer><\/script>/);
    assert.match(forDeveloper.text, /data-complete="false"/);
    assert.match(forDeveloper.text, /<button type="submit">Cancel<\/button>/);
    assert.match(forDeveloper.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    const forReporter = await web.reporter.get(`${base}/builds/${running.id}`);
    assert.doesNotMatch(forReporter.text, /<button type="submit">(Cancel|Retry|Play)/);
    const script = await fetch(`${app.url}/assets/build-log.js`);
    assert.equal(script.status, 200);
    assert.match(script.headers.get('content-type') ?? '', /javascript/);
  });

  test('a finished build offers Retry and a manual one Play to developers', async () => {
    assert.match((await web.developer.get(`${base}/builds/${compileId}`)).text, /<button type="submit">Retry<\/button>/);
    assert.match((await web.developer.get(`${base}/builds/${deployId}`)).text, /<button type="submit" class="primary">Play<\/button>/);
  });
});

describe('GET /:namespace/:project/builds/:id/trace.json', () => {
  test('answers the part of the log after the offset, whole lines while the build runs', async () => {
    assert.equal((await runner.appendTrace(running, 'first line\nsecond ')).status, 202);
    const start = JSON.parse((await web.reporter.get(`${base}/builds/${running.id}/trace.json?offset=0`)).text);
    assert.equal(start.status, 'running');
    assert.equal(start.complete, false);
    assert.equal(start.html, 'first line\n');
    assert.equal(start.offset, Buffer.byteLength('first line\n'));
    assert.equal((await runner.appendTrace(running, 'half <b>\n')).status, 202);
    const next = JSON.parse((await web.reporter.get(`${base}/builds/${running.id}/trace.json?offset=${start.offset}`)).text);
    assert.equal(next.append, true);
    assert.equal(next.html, 'second half &lt;b&gt;\n');
  });

  test('an offset past the end starts the log over', async () => {
    const part = JSON.parse((await web.reporter.get(`${base}/builds/${running.id}/trace.json?offset=999999`)).text);
    assert.equal(part.append, false);
    assert.match(part.html, /^first line\n/);
  });
});

describe('cancel, retry and play', () => {
  test('a POST without the CSRF token is refused and changes nothing', async () => {
    const refused = await web.developer.post(`${base}/builds/${running.id}/cancel`, {});
    assert.equal(refused.status, 403);
    const job = await owner.client.get(`/projects/${project.id}/builds/${running.id}`);
    assert.equal(job.body.status, 'running');
  });

  test('a reporter may not cancel: 404, as for a page that does not exist', async () => {
    const page = await web.reporter.get(`${base}/builds/${running.id}`);
    const refused = await web.reporter.post(`${base}/builds/${running.id}/cancel`, { authenticity_token: WebClient.csrfToken(page.text) });
    assert.equal(refused.status, 404);
    assert.equal((await owner.client.get(`/projects/${project.id}/builds/${running.id}`)).body.status, 'running');
  });

  test('a developer plays a manual build', async () => {
    const page = await web.developer.get(`${base}/builds/${deployId}`);
    const done = await web.developer.post(`${base}/builds/${deployId}/play`, { authenticity_token: WebClient.csrfToken(page.text) });
    assert.equal(done.status, 303);
    assert.equal((await owner.client.get(`/projects/${project.id}/builds/${deployId}`)).body.status, 'pending');
  });

  test('a developer cancels a running build and is sent back to it', async () => {
    const page = await web.developer.get(`${base}/builds/${running.id}`);
    const done = await web.developer.post(`${base}/builds/${running.id}/cancel`, { authenticity_token: WebClient.csrfToken(page.text) });
    assert.equal(done.status, 303);
    assert.equal(done.headers.get('location'), `${base}/builds/${running.id}`);
    assert.equal((await owner.client.get(`/projects/${project.id}/builds/${running.id}`)).body.status, 'canceled');
  });

  test('a developer retries a finished build: a new build, whose page opens', async () => {
    const page = await web.developer.get(`${base}/builds/${compileId}`);
    const done = await web.developer.post(`${base}/builds/${compileId}/retry`, { authenticity_token: WebClient.csrfToken(page.text) });
    assert.equal(done.status, 303);
    const location = done.headers.get('location') ?? '';
    const newId = Number(/\/builds\/(\d+)$/.exec(location)?.[1]);
    assert.ok(newId > compileId);
    assert.match((await web.developer.get(location)).text, /Build #\d+: compile/);
  });
});

describe('later job addresses', () => {
  test("the API v4's job web_url, /-/jobs/:id, and /jobs/:id lead to the build's page", async () => {
    const job = await owner.client.v4().get(`/projects/${project.id}/jobs/${compileId}`);
    const webPath = new URL(job.body.web_url).pathname;
    for (const path of [webPath, `${base}/jobs/${compileId}`]) {
      const response = await web.reporter.get(path);
      assert.equal(response.status, 301, path);
      assert.equal(response.headers.get('location'), `${base}/builds/${compileId}`);
    }
    const pipeline = await owner.client.v4().get(`/projects/${project.id}/pipelines/${pipelineId}`);
    assert.equal((await web.reporter.get(new URL(pipeline.body.web_url).pathname)).status, 200);
  });
});
