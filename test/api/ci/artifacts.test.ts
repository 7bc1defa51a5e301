import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createRootProject } from '../../support/repo';
import { chunked, RUNNER_USER_AGENT } from '../../support/runner-client';
import { storedZip } from '../../support/zip';
import { buildRow, projectRunnersToken, registeredRunner, seedPipeline } from '../../support/ci-world';

let app: TestApp;
let projects = 0;

before(async () => {
  // 1 MiB: small enough to test the limit without big bodies.
  app = await startApp({ MAX_ARTIFACTS_SIZE_MB: '1' });
});
after(async () => {
  await app.close();
});

async function running() {
  const p = await createRootProject(app, `artifacts${++projects}`);
  const seeded = await seedPipeline(app, p.id, {
    sha: p.head,
    builds: [
      { name: 'compile', stage: 'build', stage_idx: 0 },
      { name: 'rspec', stage: 'test', stage_idx: 1, status: 'created' },
    ],
  });
  const runner = await registeredRunner(app, { projectId: p.id });
  const got: any = await runner.requestBuild();
  return { p, runner, build: got.build, seeded };
}

const zip = await storedZip({ 'out/app.bin': 'compiled\n', README: 'hi\n' });

describe('POST /ci/api/v1/builds/:id/artifacts', () => {
  test('a chunked multipart upload with a file part: 201 with the build payload, artifacts_file {filename, size}, no expiry', async () => {
    const { runner, build } = await running();
    const response = await runner.uploadArtifacts(build, zip);
    assert.equal(response.status, 201);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.deepEqual(response.body.artifacts_file, { filename: 'artifacts.zip', size: zip.length });
    assert.equal(response.body.artifacts_expire_at, null);
    assert.equal(response.body.id, build.id);
    const row = await buildRow(app, build.id);
    assert.equal(row.artifacts_file, 'artifacts.zip');
    assert.equal(row.artifacts_size, zip.length);
    assert.equal(row.artifacts_expire_at, null);
  });

  test('the archive keeps the name the runner sent (<artifacts:name>.zip); uploading twice replaces it', async () => {
    const { runner, build } = await running();
    assert.equal((await runner.uploadArtifacts(build, zip, { name: 'first' })).status, 201);
    const other = await storedZip({ 'b.txt': 'second\n' });
    const response = await runner.uploadArtifacts(build, other, { name: 'ci_build_artifacts' });
    assert.equal(response.status, 201);
    assert.deepEqual(response.body.artifacts_file, { filename: 'ci_build_artifacts.zip', size: other.length });
    const download = await runner.downloadArtifacts(build);
    assert.deepEqual(download.bytes, other);
  });

  test('expire_in=7 days sets artifacts_expire_at about now+7d; ChronicDuration forms parse; a later upload without it resets it to null', async () => {
    const { runner, build } = await running();
    const response = await runner.uploadArtifacts(build, zip, { expireIn: '7 days' });
    assert.equal(response.status, 201);
    const expected = Date.now() + 7 * 86400 * 1000;
    assert.ok(Math.abs(Date.parse(response.body.artifacts_expire_at) - expected) < 60_000);
    const cases: Array<[string, number]> = [
      ['7d', 7 * 86400],
      ['1 week', 7 * 86400],
      ['3 mins 4 sec', 184],
      ['2h20min', 8400],
      ['2 hrs 20 min', 8400],
      ['3 weeks and 2 days', 23 * 86400],
    ];
    for (const [text, seconds] of cases) {
      const again = await runner.uploadArtifacts(build, zip, { expireIn: text });
      assert.equal(again.status, 201, text);
      assert.ok(Math.abs(Date.parse(again.body.artifacts_expire_at) - (Date.now() + seconds * 1000)) < 60_000, text);
    }
    const reset = await runner.uploadArtifacts(build, zip);
    assert.equal(reset.body.artifacts_expire_at, null);
    assert.equal((await buildRow(app, build.id)).artifacts_expire_at, null);
  });

  test('an expire_in that does not parse: 400 (8.12 answered 500), nothing stored', async () => {
    const { runner, build } = await running();
    const response = await runner.uploadArtifacts(build, zip, { expireIn: 'soonish' });
    assert.equal(response.status, 400);
    assert.equal((await buildRow(app, build.id)).artifacts_file, null);
  });

  test("the project's runners token is accepted; a wrong token is 403; an unknown build 404", async () => {
    const { p, runner, build } = await running();
    assert.equal((await runner.uploadArtifacts(build, zip, { token: await projectRunnersToken(app, p.id) })).status, 201);
    assert.equal((await runner.uploadArtifacts(build, zip, { token: 'wrong' })).status, 403);
    assert.equal((await runner.uploadArtifacts({ ...build, id: 99999999 }, zip)).status, 404);
  });

  test('a build that is not running: 403 "Build is not running!"; an erased build: 403', async () => {
    const { runner, build } = await running();
    await app.ctx.db.updateTable('ci_builds').set({ erased_at: new Date().toISOString() }).where('id', '=', build.id).execute();
    const erased = await runner.uploadArtifacts(build, zip);
    assert.equal(erased.status, 403);
    assert.deepEqual(erased.body, { message: '403 Forbidden - Build has been erased!' });
    await app.ctx.db.updateTable('ci_builds').set({ status: 'success', erased_at: null }).where('id', '=', build.id).execute();
    const finished = await runner.uploadArtifacts(build, zip);
    assert.equal(finished.status, 403);
    assert.deepEqual(finished.body, { message: '403 Forbidden - Build is not running!' });
  });

  test('no file part: 400 "Missing artifacts file!" not given', async () => {
    const { runner, build } = await running();
    const boundary = 'b0undary';
    const body = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="metadata"\r\n\r\nx\r\n--${boundary}--\r\n`);
    const response = await runner.send('POST', `builds/${build.id}/artifacts`, {
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'build-token': build.token },
    });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: '400 (Bad request) "Missing artifacts file!" not given' });
    const notMultipart = await runner.send('POST', `builds/${build.id}/artifacts`, {
      body: 'x',
      headers: { 'content-type': 'text/plain', 'build-token': build.token },
    });
    assert.equal(notMultipart.status, 400);
  });

  test('an archive at the MAX_ARTIFACTS_SIZE_MB limit: 413, the partial file is gone and the earlier archive stays', async () => {
    const { runner, build } = await running();
    assert.equal((await runner.uploadArtifacts(build, zip)).status, 201);
    const big = Buffer.alloc(8 * 1024 * 1024, 7);
    const tooLarge = await runner.uploadArtifacts(build, big);
    assert.equal(tooLarge.status, 413);
    assert.deepEqual(tooLarge.body, { message: '413 Request Entity Too Large' });
    // The rest of the body was never read, so the connection cannot carry another request.
    assert.equal(tooLarge.headers.get('connection'), 'close');
    const row = await buildRow(app, build.id);
    assert.equal(row.artifacts_size, zip.length);
    assert.deepEqual((await runner.downloadArtifacts(build)).bytes, zip);
    const leftovers = (await app.ctx.files.list('')).filter((key) => key.includes('.tmp'));
    assert.deepEqual(leftovers, []);
    const justBelow = await runner.uploadArtifacts(build, Buffer.alloc(1024 * 1024 - 1));
    assert.equal(justBelow.status, 201);
  });

  test('a malformed multipart body: 400, never 500', async () => {
    const { runner, build } = await running();
    const response = await runner.send('POST', `builds/${build.id}/artifacts`, {
      body: chunked([Buffer.from('--x\r\nContent-Disposition: form-data; name="file"; filename="a.zip"\r\n\r\nabc')]),
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'build-token': build.token, 'user-agent': RUNNER_USER_AGENT },
    });
    assert.ok(response.status >= 400 && response.status < 500, String(response.status));
  });
});

describe('GET /ci/api/v1/builds/:id/artifacts', () => {
  test("with the build token (Go's default User-Agent) or the runners token: 200, the zip, octet-stream, attachment, binary", async () => {
    const { p, runner, build } = await running();
    await runner.uploadArtifacts(build, zip, { name: 'ci_build_artifacts' });
    const response = await runner.downloadArtifacts(build);
    assert.equal(response.status, 200);
    assert.deepEqual(response.bytes, zip);
    assert.equal(response.headers.get('content-type'), 'application/octet-stream');
    assert.equal(response.headers.get('content-disposition'), 'attachment; filename=ci_build_artifacts.zip');
    assert.equal(response.headers.get('content-transfer-encoding'), 'binary');
    const withRunnersToken = await runner.downloadArtifacts({ id: build.id, token: await projectRunnersToken(app, p.id) });
    assert.equal(withRunnersToken.status, 200);
  });

  test('a build without artifacts: 404; a wrong token: 403; an unknown build: 404', async () => {
    const { runner, build } = await running();
    assert.equal((await runner.downloadArtifacts(build)).status, 404);
    assert.equal((await runner.downloadArtifacts({ id: build.id, token: 'wrong' })).status, 403);
    assert.equal((await runner.downloadArtifacts({ id: 99999999, token: build.token })).status, 404);
  });

  test("the next stage gets artifacts_file in depends_on_builds and downloads with the dependency's own token", async () => {
    const { runner, build, seeded } = await running();
    await runner.uploadArtifacts(build, zip);
    assert.equal((await runner.finish(build, 'success', 'ok\n')).status, 200);
    const next: any = await runner.requestBuild();
    assert.equal(next.build.id, seeded.builds[1].id);
    const [dependency] = next.build.payload.depends_on_builds;
    assert.deepEqual(dependency.artifacts_file, { filename: 'artifacts.zip', size: zip.length });
    assert.equal(dependency.token, build.token);
    const download = await runner.downloadArtifacts(dependency);
    assert.equal(download.status, 200);
    assert.deepEqual(download.bytes, zip);
  });

  test('expired artifacts are not advertised in depends_on_builds (the file is still served until removed)', async () => {
    const { runner, build, seeded } = await running();
    await runner.uploadArtifacts(build, zip);
    await runner.finish(build, 'success', 'ok\n');
    await app.ctx.db
      .updateTable('ci_builds')
      .set({ artifacts_expire_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', build.id)
      .execute();
    const next: any = await runner.requestBuild();
    assert.equal(next.build.id, seeded.builds[1].id);
    assert.equal(next.build.payload.depends_on_builds[0].artifacts_file, undefined);
    assert.equal((await runner.downloadArtifacts(build)).status, 200);
  });
});

describe('DELETE /ci/api/v1/builds/:id/artifacts', () => {
  test('with the build token or the runners token: 200, the file is gone and artifacts_size is null', async () => {
    const { p, runner, build } = await running();
    await runner.uploadArtifacts(build, zip);
    const response = await runner.send('DELETE', `builds/${build.id}/artifacts`, { headers: { 'build-token': build.token } });
    assert.equal(response.status, 200);
    const row = await buildRow(app, build.id);
    assert.equal(row.artifacts_size, null);
    assert.equal(row.artifacts_file, null);
    assert.equal((await runner.downloadArtifacts(build)).status, 404);
    await runner.uploadArtifacts(build, zip);
    const byRunnersToken = await runner.send('DELETE', `builds/${build.id}/artifacts?token=${await projectRunnersToken(app, p.id)}`, {});
    assert.equal(byRunnersToken.status, 200);
    assert.equal((await runner.send('DELETE', `builds/${build.id}/artifacts`, { headers: { 'build-token': 'wrong' } })).status, 403);
  });
});
