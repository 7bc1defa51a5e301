import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createRootProject } from '../../support/repo';
import { RUNNER_USER_AGENT } from '../../support/runner-client';
import { buildRow, projectRunnersToken, registeredRunner, seedPipeline } from '../../support/ci-world';

let app: TestApp;
let projects = 0;

before(async () => {
  app = await startApp();
});
after(async () => {
  await app.close();
});

/** A build running on a runner, with `BUILD TRACE` (11 bytes) stored as its trace. */
async function runningWithTrace(trace = 'BUILD TRACE') {
  const p = await createRootProject(app, `traces${++projects}`);
  await seedPipeline(app, p.id, { sha: p.head, builds: [{}] });
  const runner = await registeredRunner(app, { projectId: p.id });
  const got: any = await runner.requestBuild();
  const build = got.build;
  if (trace) assert.equal((await runner.appendTrace(build, trace)).status, 202);
  return { p, runner, build };
}

function patch(buildId: number, body: string | Buffer, headers: Record<string, string>) {
  return fetch(`${app.url}/ci/api/v1/builds/${buildId}/trace.txt`, {
    method: 'PATCH',
    headers: { 'user-agent': RUNNER_USER_AGENT, ...headers },
    body: body as BodyInit,
  });
}

async function storedTrace(buildId: number): Promise<string> {
  const row = await buildRow(app, buildId);
  const key = `builds/${row.project_id}/${row.id}/trace.log`;
  const stream = await app.ctx.files.read(key);
  if (!stream) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString();
}

describe('PATCH /ci/api/v1/builds/:id/trace.txt', () => {
  test('Content-Range 11-20 on an 11-byte trace: 202, the part is appended, headers Range and Build-Status', async () => {
    const { build } = await runningWithTrace();
    const response = await patch(build.id, ' appended', {
      'content-type': 'text/plain',
      'content-range': '11-20',
      'build-token': build.token,
    });
    assert.equal(response.status, 202);
    assert.equal(response.headers.get('range'), '0-20');
    assert.equal(response.headers.get('build-status'), 'running');
    assert.equal(await storedTrace(build.id), 'BUILD TRACE appended');
  });

  test('a part that does not start at the stored length (15-20, 8-20): 416 {"error":"416 Range Not Satisfiable"} with Range: 0-11, nothing written', async () => {
    const { build } = await runningWithTrace();
    for (const range of ['15-20', '8-20']) {
      const response = await patch(build.id, ' appended', {
        'content-type': 'text/plain',
        'content-range': range,
        'build-token': build.token,
      });
      assert.equal(response.status, 416, range);
      assert.equal(response.headers.get('range'), '0-11');
      assert.deepEqual(await response.json(), { error: '416 Range Not Satisfiable' });
    }
    assert.equal(await storedTrace(build.id), 'BUILD TRACE');
  });

  test('the runner resyncs after a 416 from the Range header', async () => {
    const { runner, build } = await runningWithTrace();
    // The runner believes it sent nothing yet: its next part starts at 0, the server has 11 bytes.
    build.sent = 0;
    const response = await runner.appendTrace(build, ' and more');
    assert.equal(response.status, 202);
    assert.equal(await storedTrace(build.id), 'BUILD TRACE and more');
  });

  test('two parts sent at once for the same offset: one is appended, the other answers 416', async () => {
    const { build } = await runningWithTrace();
    const headers = { 'content-type': 'text/plain', 'content-range': '11-14', 'build-token': build.token };
    const statuses = (await Promise.all([patch(build.id, 'abc', headers), patch(build.id, 'abc', headers)])).map((r) => r.status).sort();
    assert.deepEqual(statuses, [202, 416]);
    assert.equal(await storedTrace(build.id), 'BUILD TRACEabc');
  });

  test('no Content-Range: 400 {"error":"400 Missing header Content-Range"}', async () => {
    const { build } = await runningWithTrace();
    const response = await patch(build.id, 'x', { 'content-type': 'text/plain', 'build-token': build.token });
    assert.equal(response.status, 400);
    assert.deepEqual(await response.json(), { error: '400 Missing header Content-Range' });
  });

  test("an unknown build: 404; a wrong token: 403; the project's runners token and the token parameter are accepted", async () => {
    const { p, build } = await runningWithTrace();
    assert.equal((await patch(99999999, 'x', { 'content-range': '0-1', 'build-token': build.token })).status, 404);
    assert.equal((await patch(build.id, 'x', { 'content-range': '11-12', 'build-token': 'wrong' })).status, 403);
    assert.equal((await patch(build.id, 'x', { 'content-range': '11-12' })).status, 403);
    assert.equal(
      (
        await patch(build.id, 'x', {
          'content-type': 'text/plain',
          'content-range': '11-12',
          'build-token': await projectRunnersToken(app, p.id),
        })
      ).status,
      202,
    );
    const byParam = await fetch(`${app.url}/ci/api/v1/builds/${build.id}/trace.txt?token=${build.token}`, {
      method: 'PATCH',
      headers: { 'content-type': 'text/plain', 'content-range': '12-13' },
      body: 'y',
    });
    assert.equal(byParam.status, 202);
    assert.equal(await storedTrace(build.id), 'BUILD TRACExy');
  });

  test('an erased build: 403', async () => {
    const { build } = await runningWithTrace();
    await app.ctx.db.updateTable('ci_builds').set({ erased_at: new Date().toISOString() }).where('id', '=', build.id).execute();
    const response = await patch(build.id, 'x', { 'content-type': 'text/plain', 'content-range': '11-12', 'build-token': build.token });
    assert.equal(response.status, 403);
  });

  test('a canceled build still takes parts and answers Build-Status: canceled (the cancel channel)', async () => {
    const { runner, build } = await runningWithTrace();
    await app.ctx.db.updateTable('ci_builds').set({ status: 'canceled' }).where('id', '=', build.id).execute();
    const response = await runner.appendTrace(build, '\nmore');
    assert.equal(response.status, 202);
    assert.equal(response.headers.get('build-status'), 'canceled');
  });

  test('any body type is taken raw, and an empty part keeps the trace alive', async () => {
    const { build } = await runningWithTrace();
    assert.equal(
      (
        await patch(build.id, Buffer.from([0xff, 0x00, 0x41]), {
          'content-type': 'application/octet-stream',
          'content-range': '11-14',
          'build-token': build.token,
        })
      ).status,
      202,
    );
    assert.equal(
      (
        await patch(build.id, '{"not": "parsed"}', {
          'content-type': 'application/json',
          'content-range': '14-31',
          'build-token': build.token,
        })
      ).status,
      202,
    );
    const empty = await patch(build.id, '', { 'content-type': 'text/plain', 'content-range': '31-31', 'build-token': build.token });
    assert.equal(empty.status, 202);
    assert.equal(empty.headers.get('range'), '0-31');
  });

  test("the build token and the project's runners token are masked with x runs of the same length", async () => {
    const { p, runner, build } = await runningWithTrace('');
    const runnersToken = await projectRunnersToken(app, p.id);
    const text = `token ${build.token} and ${runnersToken}!\n`;
    assert.equal((await runner.appendTrace(build, text)).status, 202);
    const stored = await storedTrace(build.id);
    assert.equal(stored, `token ${'x'.repeat(build.token.length)} and ${'x'.repeat(runnersToken.length)}!\n`);
    assert.equal(Buffer.byteLength(stored), Buffer.byteLength(text));
    // The final PUT's full trace is masked too (and is longer, so it replaces the stored one).
    await runner.finish(build, 'success', `${text}end ${build.token}\n`);
    assert.equal(await storedTrace(build.id), `${stored}end ${'x'.repeat(build.token.length)}\n`);
  });

  test('a token split across two parts is masked when the trace is read', async () => {
    const { runner, build } = await runningWithTrace('');
    const half = Math.floor(build.token.length / 2);
    await runner.appendTrace(build, `a ${build.token.slice(0, half)}`);
    await runner.appendTrace(build, `${build.token.slice(half)} b`);
    assert.ok((await storedTrace(build.id)).includes(build.token));
    const read = await app.services.builds.traces.read(await buildRow(app, build.id));
    assert.equal(read!.toString(), `a ${'x'.repeat(build.token.length)} b`);
  });

  test('bad input never answers 500: odd ranges, ids, tokens', async () => {
    const { build } = await runningWithTrace();
    for (const range of ['', 'abc', '-5', '99999999999999999999-1', '11']) {
      const response = await patch(build.id, 'x', { 'content-type': 'text/plain', 'content-range': range, 'build-token': build.token });
      assert.ok([202, 416].includes(response.status), `${range}: ${response.status}`);
    }
    for (const id of ['-1', 'abc', '99999999999999999999', '0']) {
      const response = await fetch(`${app.url}/ci/api/v1/builds/${id}/trace.txt`, {
        method: 'PATCH',
        headers: { 'content-range': '0-1', 'build-token': build.token },
        body: 'x',
      });
      assert.equal(response.status, 404, id);
    }
  });
});
