import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { pythonGitlab, pythonGitlabMissing } from '../../support/python-gitlab';

describe('API v4: the door itself', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp();
  });
  after(async () => app?.close());

  it('answers GET /version to a signed-in caller, as GitLab 11.11, with the content type python-gitlab decodes', async () => {
    const response = await app.root.v4().get('/version');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.deepEqual(response.body, { version: '11.11.0', revision: 'forge' });
    assert.equal((await app.anonymous.v4().get('/version')).status, 401);
  });

  it('python-gitlab reads the version', { skip: pythonGitlabMissing }, async () => {
    const version = await pythonGitlab(app.url, app.rootToken, 'print(json.dumps(gl.version()))');
    assert.deepEqual(version, ['11.11.0', 'forge']);
  });

  it('has an OpenAPI document of its own, and v3 keeps its own', async () => {
    const v4 = (await app.anonymous.get('/api/v4/openapi.json')).body;
    assert.match(v4.openapi, /^3\./);
    assert.ok(v4.paths['/api/v4/version'].get);
    assert.ok(!Object.keys(v4.paths).some((path) => path.startsWith('/api/v3/')));
    const v3 = (await app.anonymous.get('/api/v3/openapi.json')).body;
    assert.ok(v3.paths['/api/v3/user'].get);
    assert.ok(v3.paths['/ci/api/v1/builds/register'].post);
    assert.ok(!Object.keys(v3.paths).some((path) => path.startsWith('/api/v4/')));
  });
});
