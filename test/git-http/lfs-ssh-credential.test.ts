import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { startApp, type TestApp } from '../support/app';
import { grantProjectRole } from '../support/roles';
import { cloneUrl, git, tempDir } from '../support/git';
import { basicAuth, lfsObject, sha256 } from '../support/git-lfs';
import { lfsAuthentication, LFS_TOKEN_SECONDS, type LfsActor, type LfsOperation } from '../../src/services/lfs/ssh-authenticate';
import { issueLfsToken } from '../../src/services/lfs/tokens';

let app: TestApp;
before(async () => {
  app = await startApp({ EXTERNAL_URL: 'http://127.0.0.1:0' });
});
after(() => app.close());

const LFS_TYPE = 'application/vnd.git-lfs+json';

async function project() {
  const { user, token } = await app.createUser();
  const created = await app.as(token).post('/projects', { name: `lfs${crypto.randomBytes(3).toString('hex')}`, visibility_level: 0 });
  assert.equal(created.status, 201);
  const record = (await app.services.projects.find(created.body.path_with_namespace))!;
  return {
    owner: { id: user.id as number, username: user.username as string, token },
    record,
    path: created.body.path_with_namespace as string,
  };
}

/** What `git-lfs-authenticate` over SSH would print, made by the service the SSH server calls. */
function credential(actor: LfsActor, projectRecord: Parameters<typeof lfsAuthentication>[2], operation: LfsOperation) {
  return lfsAuthentication(app.ctx, actor, projectRecord, operation);
}

async function batch(href: string, operation: string, objects: unknown[], authorization?: string) {
  const response = await fetch(`${href}/objects/batch`, {
    method: 'POST',
    headers: { 'content-type': LFS_TYPE, accept: LFS_TYPE, ...(authorization && { authorization }) },
    body: JSON.stringify({ operation, objects }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function put(href: string, content: Buffer, header: Record<string, string>) {
  return (await fetch(href, { method: 'PUT', headers: header, body: new Uint8Array(content) })).status;
}

describe('lfsAuthentication: the credential git-lfs-authenticate hands out over SSH', () => {
  test('answers the LFS endpoint of the project, a Basic header and its lifetime', async () => {
    const p = await project();
    const answer = credential({ userId: p.owner.id }, p.record, 'upload');
    assert.equal(answer.href, `${app.url}/${p.path}.git/info/lfs`);
    assert.match(answer.header.Authorization, /^Basic /);
    assert.equal(answer.expires_in, LFS_TOKEN_SECONDS);
  });

  test("a user's upload credential uploads and downloads through the batch API and the object routes", async () => {
    const p = await project();
    const { href, header } = credential({ userId: p.owner.id }, p.record, 'upload');
    const content = crypto.randomBytes(4000);
    const planned = await batch(href, 'upload', [lfsObject(content)], header.Authorization);
    assert.equal(planned.status, 200);
    const action = planned.body.objects[0].actions.upload;
    assert.equal(action.header.Authorization, header.Authorization);
    assert.equal(await put(action.href, content, action.header), 200);
    const fetched = await batch(href, 'download', [lfsObject(content)], header.Authorization);
    const download = await fetch(fetched.body.objects[0].actions.download.href, {
      headers: fetched.body.objects[0].actions.download.header,
    });
    assert.equal(download.status, 200);
    assert.equal(sha256(Buffer.from(await download.arrayBuffer())), sha256(content));
  });

  test('a download credential does not upload: 403', async () => {
    const p = await project();
    const { href, header } = credential({ userId: p.owner.id }, p.record, 'download');
    assert.equal((await batch(href, 'download', [lfsObject('a')], header.Authorization)).status, 200);
    assert.equal((await batch(href, 'upload', [lfsObject('a')], header.Authorization)).status, 403);
  });

  test('a credential for one project opens no other: 404', async () => {
    const p = await project();
    const other = await project();
    await grantProjectRole(app, other.record.id, p.owner.id, 40);
    const { header } = credential({ userId: p.owner.id }, p.record, 'upload');
    assert.equal((await batch(`${app.url}/${other.path}.git/info/lfs`, 'download', [lfsObject('a')], header.Authorization)).status, 404);
  });

  test("the user's access is checked again: once removed from the project, the credential opens nothing", async () => {
    const p = await project();
    const { user } = await app.createUser();
    await grantProjectRole(app, p.record.id, user.id, 30);
    const { href, header } = credential({ userId: user.id }, p.record, 'upload');
    assert.equal((await batch(href, 'upload', [lfsObject('a')], header.Authorization)).status, 200);
    assert.equal((await app.as(p.owner.token).delete(`/projects/${p.record.id}/members/${user.id}`)).status, 200);
    assert.equal((await batch(href, 'download', [lfsObject('a')], header.Authorization)).status, 404);
  });

  test("a blocked user's credential is refused: 401", async () => {
    const p = await project();
    const { href, header } = credential({ userId: p.owner.id }, p.record, 'download');
    assert.equal((await app.root.put(`/users/${p.owner.id}/block`)).status, 200);
    assert.equal((await batch(href, 'download', [lfsObject('a')], header.Authorization)).status, 401);
  });

  test('an expired or altered token is refused: 401', async () => {
    const p = await project();
    const expired = issueLfsToken(app.ctx.secrets, {
      actor: { userId: p.owner.id },
      projectId: p.record.id,
      operation: 'download',
      expiresAt: Math.floor(Date.now() / 1000) - 1,
    });
    const href = `${app.url}/${p.path}.git/info/lfs`;
    assert.equal((await batch(href, 'download', [], basicAuth('x', expired))).status, 401);
    const good = issueLfsToken(app.ctx.secrets, {
      actor: { userId: p.owner.id },
      projectId: p.record.id,
      operation: 'download',
      expiresAt: Math.floor(Date.now() / 1000) + 60,
    });
    const signature = good.slice('lfs1.'.length).split('.')[1];
    const forged = issueLfsToken(app.ctx.secrets, {
      actor: { userId: p.owner.id },
      projectId: p.record.id,
      operation: 'upload',
      expiresAt: Math.floor(Date.now() / 1000) + 60,
    });
    // The upload grant's payload under the download grant's signature.
    const altered = `lfs1.${forged.slice('lfs1.'.length).split('.')[0]}.${signature}`;
    assert.notEqual(altered, good);
    assert.equal((await batch(href, 'upload', [], basicAuth('x', altered))).status, 401);
    assert.equal((await batch(href, 'download', [], basicAuth('x', good))).status, 200);
  });

  test('the token is for LFS only: git over HTTP and the API do not take it', async () => {
    const p = await project();
    const { header } = credential({ userId: p.owner.id }, p.record, 'upload');
    const token = Buffer.from(header.Authorization.slice('Basic '.length), 'base64').toString('utf8').split(':').slice(1).join(':');
    const cloned = await git(['clone', '-q', cloneUrl(app.url, p.path, p.owner.username, token), `${tempDir()}/c`]);
    assert.notEqual(cloned.code, 0);
    assert.equal((await app.as(token).get('/user')).status, 401);
  });

  test("a deploy key's credential downloads only", async () => {
    const p = await project();
    const { href, header } = credential({ deployKeyId: 7 }, p.record, 'download');
    assert.equal((await batch(href, 'download', [lfsObject('a')], header.Authorization)).status, 200);
    assert.equal((await batch(href, 'upload', [lfsObject('a')], header.Authorization)).status, 403);
    assert.throws(
      () => credential({ deployKeyId: 7 }, p.record, 'upload'),
      (error: { status?: number }) => error.status === 403,
    );
  });
});
