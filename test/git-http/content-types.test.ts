import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';

let app: TestApp;
let repoUrl: string;
let authorization: string;
before(async () => {
  app = await startApp();
  const { user, token } = await app.createUser();
  const created = await app.as(token).post('/projects', { name: 'media', visibility_level: 20 });
  assert.equal(created.status, 201);
  repoUrl = `${app.url}/${created.body.path_with_namespace}.git`;
  authorization = `Basic ${Buffer.from(`${user.username}:${token}`).toString('base64')}`;
});
after(() => app.close());

/** A POST to a git service that must be answered at once: a hang fails the test in 5 s rather than the suite's time-out. */
function post(service: string, contentType: string, body: string) {
  return fetch(`${repoUrl}/${service}`, {
    method: 'POST',
    headers: { 'content-type': contentType, authorization },
    body,
    signal: AbortSignal.timeout(5000),
  });
}

const wrongBodies: Array<[string, string, string]> = [
  ['JSON', 'application/json', '{"a":1}'],
  ['an urlencoded form', 'application/x-www-form-urlencoded', 'a=1&b=2'],
  ['a multipart form', 'multipart/form-data; boundary=xyz', '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--xyz--\r\n'],
  ['a malformed multipart form', 'multipart/form-data; boundary=xyz', '--xyz\r\nnot a part at all'],
  ['a multipart form without boundary', 'multipart/form-data', 'anything'],
  ['plain text', 'text/plain', '0000'],
];

for (const service of ['git-receive-pack', 'git-upload-pack']) {
  describe(`POST /:namespace/:project.git/${service} with a body that is not git's`, () => {
    for (const [name, contentType, body] of wrongBodies) {
      test(`${name} is answered at once with 415 Unsupported Media Type`, async () => {
        const response = await post(service, contentType, body);
        assert.equal(response.status, 415);
        assert.equal(await response.text(), 'Unsupported Media Type\n');
      });
    }
  });
}
