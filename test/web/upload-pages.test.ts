import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { seedCommit } from '../support/repo';
import { WebClient } from '../support/web';

/** The web editor's upload: the file keeps the name it was sent with, unless the name field says otherwise. */
let app: TestApp;
let owner: Awaited<ReturnType<TestApp['createUser']>>;
let project: any;
let path: string;
let web: WebClient;

before(async () => {
  app = await startApp();
  owner = await app.createUser();
  project = (await owner.client.post('/projects', { name: 'uploads', visibility_level: 0 })).body;
  path = new URL(project.web_url).pathname;
  await seedCommit(app, project.id, { files: { 'README.md': 'hello\n', 'docs/guide.md': 'guide\n' } });
  web = new WebClient(app.url);
  assert.equal((await web.signIn(owner.user.username, owner.password)).status, 303);
});
after(() => app?.close());

/** Posts the upload form of `folder` as a browser does: multipart, the file part named `filename`. */
async function upload(folder: string, bytes: Buffer, filename: string, fileName = '') {
  const form = await web.get(`${path}/new/master${folder ? `/${folder}` : ''}`);
  assert.equal(form.status, 200);
  assert.doesNotMatch(form.text, /id="upload-file-name" [^>]*required/);
  const body = new FormData();
  body.set('authenticity_token', WebClient.csrfToken(form.text));
  body.set('file', new Blob([new Uint8Array(bytes)]), filename);
  body.set('file_name', fileName);
  body.set('upload_commit_message', `Upload ${filename}`);
  body.set('upload_target_branch', 'master');
  const cookie = [...web.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const action = `${path}/create/master${folder ? `/${folder}` : ''}`;
  return fetch(`${app.url}${action}`, { method: 'POST', body, headers: { cookie }, redirect: 'manual' });
}

const fileAt = async (file: string) => {
  const found = await owner.client.v4().get(`/projects/${project.id}/repository/files/${encodeURIComponent(file)}?ref=master`);
  return found.status === 200 ? Buffer.from(found.body.content, 'base64') : undefined;
};

describe('POST /:namespace/:project/create/:ref (upload)', () => {
  test("the file is named by the part's own file name when the name field is blank", async () => {
    const uploaded = await upload('docs', Buffer.from([0, 1, 2, 255]), 'diagram.bin');
    assert.equal(uploaded.status, 303);
    assert.deepEqual([...((await fileAt('docs/diagram.bin')) ?? [])], [0, 1, 2, 255]);
  });

  test('a file name typed in the field wins over the part’s', async () => {
    const uploaded = await upload('', Buffer.from('typed\n'), 'original.txt', 'renamed.txt');
    assert.equal(uploaded.status, 303);
    assert.equal((await fileAt('renamed.txt'))?.toString(), 'typed\n');
    assert.equal(await fileAt('original.txt'), undefined);
  });

  test('a path sent as the file name keeps only its last segment', async () => {
    const uploaded = await upload('', Buffer.from('windows\n'), 'C:\\Users\\me\\notes.txt');
    assert.equal(uploaded.status, 303);
    assert.equal((await fileAt('notes.txt'))?.toString(), 'windows\n');
  });

  test('a part without a file name and a blank field is refused beside the field', async () => {
    const refused = await upload('', Buffer.from('x'), '');
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /id="field-file_name-error">File name can(&#39;|&#x27;|')t be blank</);
  });
});
