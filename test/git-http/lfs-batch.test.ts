import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { startApp, type TestApp } from '../support/app';
import { grantProjectRole } from '../support/roles';
import { seedPipeline } from '../support/ci';
import { eventually } from '../support/eventually';
import { basicAuth, lfsObject, sha256, storedObjectPath } from '../support/git-lfs';

let app: TestApp;
before(async () => {
  app = await startApp({ EXTERNAL_URL: 'http://127.0.0.1:0' });
});
after(() => app.close());

const LFS_TYPE = 'application/vnd.git-lfs+json';

interface Person {
  username: string;
  token: string;
  id: number;
  auth: string;
}

async function person(): Promise<Person> {
  const { user, token } = await app.createUser();
  return { username: user.username, token, id: user.id, auth: basicAuth(user.username, token) };
}

async function project(visibility = 0) {
  const owner = await person();
  const created = await app
    .as(owner.token)
    .post('/projects', { name: `lfs${crypto.randomBytes(3).toString('hex')}`, visibility_level: visibility });
  assert.equal(created.status, 201);
  return { owner, id: created.body.id as number, path: created.body.path_with_namespace as string };
}

async function member(projectId: number, level: number): Promise<Person> {
  const who = await person();
  await grantProjectRole(app, projectId, who.id, level);
  return who;
}

async function call(method: string, url: string, init: { auth?: string; body?: string | Buffer; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.auth) headers.authorization = init.auth;
  const response = await fetch(url.startsWith('http') ? url : `${app.url}${url}`, {
    method,
    headers,
    body: init.body as BodyInit | undefined,
  });
  const buffer = Buffer.from(await response.arrayBuffer());
  let body: any;
  try {
    body = JSON.parse(buffer.toString('utf8'));
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, bytes: buffer };
}

function batch(projectPath: string, operation: string, objects: unknown[], auth?: string) {
  return call('POST', `/${projectPath}.git/info/lfs/objects/batch`, {
    auth,
    body: JSON.stringify({ operation, objects }),
    headers: { 'content-type': `${LFS_TYPE}; charset=utf-8`, accept: LFS_TYPE },
  });
}

function upload(projectPath: string, content: Buffer, auth?: string, { oid = sha256(content), size = content.length } = {}) {
  return call('PUT', `/${projectPath}.git/gitlab-lfs/objects/${oid}/${size}`, {
    auth,
    body: content,
    headers: { 'content-type': 'application/octet-stream' },
  });
}

const tempFiles = () => {
  const dir = path.join(app.dataDir, 'files', '.tmp');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};

/** Runs `work` with a setting changed, as if Forge had been started with it. */
async function withConfig<K extends 'lfsEnabled' | 'maxLfsObjectSizeMb'>(
  key: K,
  value: TestApp['ctx']['config'][K],
  work: () => Promise<void>,
) {
  const config = app.ctx.config;
  const saved = config[key];
  config[key] = value;
  try {
    await work();
  } finally {
    config[key] = saved;
  }
}

describe('POST /:namespace/:project.git/info/lfs/objects/batch', () => {
  test("upload: an action per object not stored yet, with the caller's Authorization and the object's href", async () => {
    const p = await project();
    const content = crypto.randomBytes(1000);
    const answer = await batch(p.path, 'upload', [lfsObject(content)], p.owner.auth);
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get('content-type') ?? '', /^application\/vnd\.git-lfs\+json/);
    const [object] = answer.body.objects;
    assert.equal(object.oid, sha256(content));
    assert.equal(object.size, 1000);
    assert.equal(object.actions.upload.href, `${app.url}/${p.path}.git/gitlab-lfs/objects/${sha256(content)}/1000`);
    assert.equal(object.actions.upload.header.Authorization, p.owner.auth);
  });

  test('upload: an object the project has already is answered without actions', async () => {
    const p = await project();
    const content = crypto.randomBytes(500);
    assert.equal((await upload(p.path, content, p.owner.auth)).status, 200);
    const answer = await batch(p.path, 'upload', [lfsObject(content)], p.owner.auth);
    assert.deepEqual(answer.body.objects, [{ oid: sha256(content), size: 500 }]);
  });

  test('upload: an object another project stored must still be sent (knowing an oid gives no content)', async () => {
    const content = crypto.randomBytes(700);
    const first = await project();
    assert.equal((await upload(first.path, content, first.owner.auth)).status, 200);
    const second = await project();
    const answer = await batch(second.path, 'upload', [lfsObject(content)], second.owner.auth);
    assert.ok(answer.body.objects[0].actions.upload);
    assert.equal((await batch(second.path, 'download', [lfsObject(content)], second.owner.auth)).body.objects[0].error.code, 404);
    assert.equal((await upload(second.path, content, second.owner.auth)).status, 200);
    assert.ok((await batch(second.path, 'download', [lfsObject(content)], second.owner.auth)).body.objects[0].actions.download);
  });

  test('download: a stored object has a download action; an unknown one a 404 error of its own', async () => {
    const p = await project();
    const content = crypto.randomBytes(2000);
    await upload(p.path, content, p.owner.auth);
    const unknown = lfsObject('nobody uploaded this');
    const answer = await batch(p.path, 'download', [lfsObject(content), unknown], p.owner.auth);
    assert.equal(answer.status, 200);
    const [found, missing] = answer.body.objects;
    assert.equal(found.actions.download.href, `${app.url}/${p.path}.git/gitlab-lfs/objects/${sha256(content)}`);
    assert.equal(found.actions.download.header.Authorization, p.owner.auth);
    assert.deepEqual(missing, {
      ...unknown,
      error: { code: 404, message: "Object does not exist on the server or you don't have permissions to access it" },
    });
  });

  test('an invalid oid or size is a 422 error of that object alone', async () => {
    const p = await project();
    const good = lfsObject('fine');
    const answer = await batch(p.path, 'upload', [{ oid: 'ABC', size: 3 }, { oid: sha256('x'), size: -1 }, good], p.owner.auth);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.objects[0].error.code, 422);
    assert.equal(answer.body.objects[1].error.code, 422);
    assert.ok(answer.body.objects[2].actions.upload);
  });

  test('a body without a known operation or a list of objects is refused with 422; bad JSON with 400', async () => {
    const p = await project();
    assert.equal((await batch(p.path, 'delete', [], p.owner.auth)).status, 422);
    const noObjects = await call('POST', `/${p.path}.git/info/lfs/objects/batch`, {
      auth: p.owner.auth,
      body: '{"operation":"upload"}',
      headers: { 'content-type': LFS_TYPE },
    });
    assert.equal(noObjects.status, 422);
    assert.match(noObjects.body.message, /objects/);
    const badJson = await call('POST', `/${p.path}.git/info/lfs/objects/batch`, {
      auth: p.owner.auth,
      body: '{',
      headers: { 'content-type': LFS_TYPE },
    });
    assert.equal(badJson.status, 400);
  });

  test('an object over the size limit is a 413 error in the answer', async () => {
    const p = await project();
    await withConfig('maxLfsObjectSizeMb', 1, async () => {
      const answer = await batch(p.path, 'upload', [{ oid: sha256('big'), size: 1024 * 1024 + 1 }], p.owner.auth);
      assert.equal(answer.body.objects[0].error.code, 413);
      assert.match(answer.body.objects[0].error.message, /1 MiB/);
    });
  });
});

describe('PUT /:namespace/:project.git/gitlab-lfs/objects/:oid/:size', () => {
  test('stores the content under its SHA-256; GET gives the same bytes back', async () => {
    const p = await project();
    const content = crypto.randomBytes(300_000);
    assert.equal((await upload(p.path, content, p.owner.auth)).status, 200);
    assert.deepEqual(fs.readFileSync(storedObjectPath(app.dataDir, sha256(content))), content);
    const got = await call('GET', `/${p.path}.git/gitlab-lfs/objects/${sha256(content)}`, { auth: p.owner.auth });
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('content-length'), String(content.length));
    assert.deepEqual(got.bytes, content);
  });

  test('content whose SHA-256 is not its id: 422 with a clear message, nothing stored, no temporary file left', async () => {
    const p = await project();
    const content = crypto.randomBytes(5000);
    const claimed = sha256('something else entirely');
    const answer = await upload(p.path, content, p.owner.auth, { oid: claimed });
    assert.equal(answer.status, 422);
    assert.match(answer.body.message, /SHA-256/);
    assert.equal(fs.existsSync(storedObjectPath(app.dataDir, claimed)), false);
    assert.deepEqual(tempFiles(), []);
    assert.equal((await batch(p.path, 'download', [{ oid: claimed, size: 5000 }], p.owner.auth)).body.objects[0].error.code, 404);
    const rows = await app.ctx.db.selectFrom('lfs_objects').select('id').where('oid', '=', claimed).execute();
    assert.equal(rows.length, 0);
  });

  test('content of another size than announced: 422, nothing stored', async () => {
    const p = await project();
    const content = crypto.randomBytes(4000);
    const answer = await upload(p.path, content, p.owner.auth, { size: 5000 });
    assert.equal(answer.status, 422);
    assert.match(answer.body.message, /5000 bytes/);
    assert.equal(fs.existsSync(storedObjectPath(app.dataDir, sha256(content))), false);
    assert.deepEqual(tempFiles(), []);
  });

  test('content longer than announced, sent without a length: 422, nothing stored', async () => {
    const p = await project();
    const content = crypto.randomBytes(64 * 1024);
    const chunked = new ReadableStream({
      start(controller) {
        controller.enqueue(content);
        controller.close();
      },
    });
    const response = await fetch(`${app.url}/${p.path}.git/gitlab-lfs/objects/${sha256(content)}/1000`, {
      method: 'PUT',
      headers: { authorization: p.owner.auth, 'content-type': 'application/octet-stream' },
      body: chunked,
      duplex: 'half',
    } as RequestInit);
    assert.equal(response.status, 422);
    assert.match(((await response.json()) as { message: string }).message, /larger than the 1000 bytes announced/);
    assert.equal(fs.existsSync(storedObjectPath(app.dataDir, sha256(content))), false);
    assert.deepEqual(tempFiles(), []);
  });

  test('a client that leaves mid-upload leaves nothing stored and no temporary file', async () => {
    const p = await project();
    const content = crypto.randomBytes(1024 * 1024);
    const request = http.request(`${app.url}/${p.path}.git/gitlab-lfs/objects/${sha256(content)}/${content.length}`, {
      method: 'PUT',
      headers: { authorization: p.owner.auth, 'content-type': 'application/octet-stream', 'content-length': String(content.length) },
    });
    request.on('error', () => {});
    request.write(content.subarray(0, 100_000));
    // Once the server has begun to write the upload, the client goes.
    await eventually(() => tempFiles().length > 0, { message: 'the upload reaching a temporary file' });
    request.destroy();
    await eventually(() => tempFiles().length === 0, { message: 'the temporary file being removed' });
    assert.equal(fs.existsSync(storedObjectPath(app.dataDir, sha256(content))), false);
    assert.equal((await batch(p.path, 'download', [lfsObject(content)], p.owner.auth)).body.objects[0].error.code, 404);
  });

  test('an object over the size limit: 413, nothing stored', async () => {
    const p = await project();
    const content = crypto.randomBytes(1024 * 1024 + 10);
    await withConfig('maxLfsObjectSizeMb', 1, async () => {
      const answer = await upload(p.path, content, p.owner.auth);
      assert.equal(answer.status, 413);
      assert.match(answer.body.message, /limit of 1 MiB/);
    });
    assert.equal(fs.existsSync(storedObjectPath(app.dataDir, sha256(content))), false);
    assert.deepEqual(tempFiles(), []);
  });

  test('an invalid oid or size in the path: 422', async () => {
    const p = await project();
    assert.equal((await upload(p.path, Buffer.from('x'), p.owner.auth, { oid: 'nothex' })).status, 422);
    assert.equal((await upload(p.path, Buffer.from('x'), p.owner.auth, { size: 'one' as unknown as number })).status, 422);
  });

  test('GET of an object the project does not link: 404', async () => {
    const p = await project();
    const other = await project();
    const content = crypto.randomBytes(100);
    await upload(other.path, content, other.owner.auth);
    assert.equal((await call('GET', `/${p.path}.git/gitlab-lfs/objects/${sha256(content)}`, { auth: p.owner.auth })).status, 404);
  });
});

describe('who may download and upload LFS objects', () => {
  test('anonymous on a private project: 401 with a Basic challenge', async () => {
    const p = await project(0);
    const answer = await batch(p.path, 'download', [lfsObject('a')]);
    assert.equal(answer.status, 401);
    assert.match(answer.headers.get('www-authenticate') ?? '', /^Basic /);
  });

  test('anonymous downloads from a public project, but must sign in to upload', async () => {
    const p = await project(20);
    const content = crypto.randomBytes(100);
    await upload(p.path, content, p.owner.auth);
    const answer = await batch(p.path, 'download', [lfsObject(content)]);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.objects[0].actions.download.header, undefined);
    assert.deepEqual((await call('GET', answer.body.objects[0].actions.download.href)).bytes, content);
    assert.equal((await batch(p.path, 'upload', [lfsObject('b')])).status, 401);
    assert.equal((await upload(p.path, Buffer.from('b'))).status, 401);
  });

  test('a stranger on a private project: 404, as for git', async () => {
    const p = await project(0);
    const stranger = await person();
    const answer = await batch(p.path, 'download', [lfsObject('a')], stranger.auth);
    assert.equal(answer.status, 404);
    assert.equal(answer.body.message, 'Not found.');
    assert.equal((await upload(p.path, Buffer.from('a'), stranger.auth)).status, 404);
  });

  test('wrong credentials: 401', async () => {
    const p = await project(20);
    assert.equal((await batch(p.path, 'download', [lfsObject('a')], basicAuth(p.owner.username, 'wrong'))).status, 401);
  });

  test("a reporter downloads but may not upload: 403 with GitLab's message, nothing stored", async () => {
    const p = await project(0);
    const reporter = await member(p.id, 20);
    assert.equal((await batch(p.path, 'download', [lfsObject('a')], reporter.auth)).status, 200);
    const refused = await batch(p.path, 'upload', [lfsObject('a')], reporter.auth);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.message, 'Access forbidden. Check your access level.');
    const content = crypto.randomBytes(100);
    assert.equal((await upload(p.path, content, reporter.auth)).status, 403);
    assert.equal(fs.existsSync(storedObjectPath(app.dataDir, sha256(content))), false);
  });

  test('a developer uploads', async () => {
    const p = await project(0);
    const developer = await member(p.id, 30);
    assert.equal((await upload(p.path, crypto.randomBytes(100), developer.auth)).status, 200);
  });

  test('a guest of a private project may not download: 403', async () => {
    const p = await project(0);
    const guest = await member(p.id, 10);
    assert.equal((await batch(p.path, 'download', [lfsObject('a')], guest.auth)).status, 403);
  });

  test("a running build downloads its own project's objects with gitlab-ci-token, uploads none, and sees no other project", async () => {
    const p = await project(0);
    const other = await project(0);
    const content = crypto.randomBytes(100);
    await upload(p.path, content, p.owner.auth);
    const token = crypto.randomBytes(10).toString('hex');
    await seedPipeline(app, p.id, { sha: '1'.repeat(40), status: 'running', builds: [{ name: 'fetch', status: 'running', token }] });
    const auth = basicAuth('gitlab-ci-token', token);
    const answer = await batch(p.path, 'download', [lfsObject(content)], auth);
    assert.equal(answer.status, 200);
    assert.deepEqual((await call('GET', answer.body.objects[0].actions.download.href, { auth })).bytes, content);
    assert.equal((await batch(p.path, 'upload', [lfsObject('x')], auth)).status, 403);
    assert.equal((await batch(other.path, 'download', [lfsObject('x')], auth)).status, 404);
  });

  test('an unknown project: 401 to anonymous, 404 to a signed-in user', async () => {
    const someone = await person();
    assert.equal((await batch('nobody/nothing', 'download', [])).status, 401);
    assert.equal((await batch('nobody/nothing', 'download', [], someone.auth)).status, 404);
  });
});

describe('lfs_enabled', () => {
  test('a project with lfs_enabled false: 403 to its members', async () => {
    const p = await project(0);
    const changed = await app.as(p.owner.token).put(`/projects/${p.id}`, { lfs_enabled: false });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.lfs_enabled, false);
    assert.equal((await batch(p.path, 'download', [lfsObject('a')], p.owner.auth)).status, 403);
    assert.equal((await upload(p.path, Buffer.from('a'), p.owner.auth)).status, 403);
  });

  test("LFS off on the instance (LFS_ENABLED=false): 501 with GitLab's message in the LFS media type", async () => {
    const p = await project(0);
    await withConfig('lfsEnabled', false, async () => {
      const answer = await batch(p.path, 'upload', [lfsObject('a')], p.owner.auth);
      assert.equal(answer.status, 501);
      assert.match(answer.headers.get('content-type') ?? '', /^application\/vnd\.git-lfs\+json/);
      assert.equal(answer.body.message, 'Git LFS is not enabled on this GitLab server, contact your admin.');
    });
  });
});
