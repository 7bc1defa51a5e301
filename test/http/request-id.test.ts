import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { startApp, type TestApp } from '../support/app';
import { createProject } from '../support/create';
import { eventually } from '../support/eventually';
import { cloneUrl, git, workTree } from '../support/git';
import { createRootProject } from '../support/repo';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let app: TestApp;
/** Every line the server logged, parsed. */
const records: any[] = [];
before(async () => {
  const stream = new PassThrough();
  let rest = '';
  stream.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop()!;
    for (const line of lines) if (line) records.push(JSON.parse(line));
  });
  app = await startApp({}, stream);
});
after(() => app.close());

async function call(pathAndQuery: string, init: RequestInit = {}) {
  const response = await fetch(`${app.url}${pathAndQuery}`, init);
  await response.arrayBuffer();
  return { status: response.status, id: response.headers.get('x-request-id') };
}

const asRoot = (headers: Record<string, string> = {}) => ({ headers: { 'private-token': app.rootToken, ...headers } });

describe('X-Request-Id', () => {
  test('every answer carries one: 200, 401, 404 by a route, 404 of no route, 405', async () => {
    for (const [url, init, status] of [
      ['/api/v3/user', asRoot(), 200],
      ['/api/v3/user', {}, 401],
      ['/api/v3/projects/99999', asRoot(), 404],
      ['/no/such/page', {}, 404],
      ['/-/health', { method: 'DELETE' }, 405],
    ] as const) {
      const answer = await call(url, init);
      assert.equal(answer.status, status, `${init.headers ? 'root' : 'anonymous'} ${url}`);
      assert.match(answer.id ?? '', UUID, url);
    }
  });

  test('400s carry one: a validation failure, a malformed URL, a body that is not JSON', async () => {
    const project = await createProject(app.root, { name: 'request-ids' });
    const answers = [
      await call(`/api/v3/projects/${project.id}/issues`, {
        method: 'POST',
        ...asRoot({ 'content-type': 'application/json' }),
        body: '{}',
      }),
      await call('/api/v3/projects/%E0%A4%A', asRoot()),
      await call('/api/v3/projects', { method: 'POST', ...asRoot({ 'content-type': 'application/json' }), body: '{"name":' }),
    ];
    for (const answer of answers) {
      assert.equal(answer.status, 400);
      assert.match(answer.id ?? '', UUID);
    }
  });

  test("a 500 from a stream that failed before its first byte keeps it while the stream's headers go", async () => {
    const { id } = await createRootProject(app, 'broken-archive');
    const repo = app.services.repositories.path(id);
    const tree = (await git(['rev-parse', 'master^{tree}'], repo)).stdout.trim();
    fs.rmSync(path.join(repo, 'objects', tree.slice(0, 2), tree.slice(2)));
    const response = await fetch(`${app.url}/api/v3/projects/${id}/repository/archive`, asRoot({ 'x-request-id': 'broken-archive-1' }));
    assert.equal(response.status, 500);
    assert.equal(response.headers.get('content-disposition'), null);
    assert.equal(response.headers.get('x-request-id'), 'broken-archive-1');
    assert.deepEqual(await response.json(), { message: '500 Internal Server Error' });
  });

  test("a sane incoming id is kept and answered; one that is not is replaced by the server's own", async () => {
    const kept = await call('/api/v3/user', asRoot({ 'x-request-id': 'lb-7f3a:0042' }));
    assert.equal(kept.id, 'lb-7f3a:0042');
    for (const insane of ['has space', 'x'.repeat(129), 'quote"d', '']) {
      const replaced = await call('/api/v3/user', asRoot({ 'x-request-id': insane }));
      assert.match(replaced.id ?? '', UUID, JSON.stringify(insane));
    }
    const [a, b] = [await call('/api/v3/user', asRoot()), await call('/api/v3/user', asRoot())];
    assert.notEqual(a.id, b.id);
  });

  test("the request's one log line names its id, its route template, status, time and user", async () => {
    await call('/api/v3/projects/4242', asRoot({ 'x-request-id': 'log-line-check-1' }));
    const line = await eventually(() =>
      records.find((record) => record.reqId === 'log-line-check-1' && record.msg === 'request completed'),
    );
    assert.equal(line.route, '/api/v3/projects/:id');
    assert.equal(line.req.url, '/api/v3/projects/4242');
    assert.equal(line.res.statusCode, 404);
    assert.equal(typeof line.responseTime, 'number');
    assert.equal(line.userId, 1);
    assert.equal(records.filter((record) => record.reqId === 'log-line-check-1' && record.level === 30).length, 1);
  });
});

describe('the request id in background jobs', () => {
  test("a job a request enqueued logs the request's id when it runs", async () => {
    const project = await createProject(app.root, { name: 'removed-with-an-id' });
    const removed = await call(`/api/v3/projects/${project.id}`, { method: 'DELETE', ...asRoot({ 'x-request-id': 'remove-project-9' }) });
    assert.equal(removed.status, 200);
    const line = await eventually(() => records.find((record) => record.msg === 'job completed' && record.kind === 'repository.remove'), {
      message: 'the removal job logged',
    });
    assert.equal(line.reqId, 'remove-project-9');
  });

  test('a push over HTTP carries its id into the jobs it causes, and into the jobs those enqueue', async () => {
    const { user, token } = await app.createUser();
    const project = await createProject(app.as(token), { name: 'pushed-with-an-id' });
    const work = await workTree('master', { 'README.md': 'pushed\n' });
    const url = cloneUrl(app.url, project.path_with_namespace, user.username, token);
    const pushed = await git(['-c', 'http.extraHeader=X-Request-Id: push-abc-123', 'push', '-q', url, 'master'], work);
    assert.equal(pushed.code, 0, pushed.stderr);
    // push.process enqueues merge_requests.refresh from inside the job.
    for (const kind of ['push.process', 'merge_requests.refresh']) {
      const line = await eventually(() => records.find((record) => record.msg === 'job completed' && record.kind === kind), {
        message: `${kind} logged`,
      });
      assert.equal(line.reqId, 'push-abc-123', kind);
    }
  });

  test('a job enqueued outside any request, and the jobs it enqueues, carry no request id, whichever request woke the worker', async () => {
    const pushed = await createRootProject(app, 'pushed-outside-requests');
    const doomed = await createProject(app.root, { name: 'wakes-the-worker' });
    // A push's job as git over SSH enqueues it (no request), due before anything the request below
    // enqueues: the worker that request wakes takes it first. It enqueues merge_requests.refresh.
    const time = new Date(Date.now() - 60_000).toISOString();
    const payload = { projectId: pushed.id, userId: 1, updates: [{ ref: 'refs/heads/master', oldId: '0'.repeat(40), newId: pushed.head }] };
    await app.ctx.db
      .insertInto('jobs')
      .values({ kind: 'push.process', payload: JSON.stringify(payload), run_at: time, attempts: 0, max_attempts: 3, created_at: time })
      .execute();
    await call(`/api/v3/projects/${doomed.id}`, { method: 'DELETE', ...asRoot({ 'x-request-id': 'wakes-worker-3' }) });
    await eventually(() =>
      records.find((record) => record.msg === 'job completed' && record.kind === 'repository.remove' && record.reqId === 'wakes-worker-3'),
    );
    const ofPush = (kind: string) =>
      eventually(() => records.find((record) => record.msg === 'job completed' && record.kind === kind && record.reqId !== 'push-abc-123'));
    assert.equal((await ofPush('push.process')).reqId, undefined);
    assert.equal((await ofPush('merge_requests.refresh')).reqId, undefined);
  });
});
