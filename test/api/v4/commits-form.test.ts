import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createProjectWorld } from '../../support/project-world';

let app: TestApp;
let world: Awaited<ReturnType<typeof makeWorld>>;

const makeWorld = () =>
  createProjectWorld(app, {
    roles: ['developer'],
    visibility: 0,
    commits: [{ files: { 'README.md': '# readme\n', 'old.txt': 'old\n' } }],
  });
const fileAt = (path: string) =>
  app.root.v4().get(`/projects/${world.id}/repository/files/${encodeURIComponent(path)}/raw`, { ref: 'master' });

before(async () => {
  app = await startApp();
  world = await makeWorld();
});
after(async () => app?.close());

describe('POST /projects/:id/repository/commits as a form', () => {
  test('form-encoded actions[][action]=… make one commit of every action, in order, whatever keys each action has', async () => {
    // As python-gitlab and `curl --data` send it: each action's keys in turn; the delete has no content.
    const body = new URLSearchParams([
      ['branch', 'master'],
      ['commit_message', 'from a form'],
      ['actions[][action]', 'create'],
      ['actions[][file_path]', 'new.txt'],
      ['actions[][content]', 'new content'],
      ['actions[][action]', 'delete'],
      ['actions[][file_path]', 'old.txt'],
      ['actions[][action]', 'update'],
      ['actions[][file_path]', 'README.md'],
      ['actions[][content]', '# changed\n'],
    ]);
    const response = await world.developer.client.v4().raw('POST', `/projects/${world.id}/repository/commits`, {
      body: body.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(response.status, 201, JSON.stringify(response.body));
    assert.equal(response.body.title, 'from a form');
    assert.equal((await fileAt('new.txt')).text, 'new content');
    assert.equal((await fileAt('old.txt')).status, 404);
    assert.equal((await fileAt('README.md')).text, '# changed\n');
  });

  test('a form with no action, or an action without its path, is a 400', async () => {
    const send = (pairs: string[][]) =>
      world.developer.client.v4().raw('POST', `/projects/${world.id}/repository/commits`, {
        body: new URLSearchParams(pairs).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    assert.equal(
      (
        await send([
          ['branch', 'master'],
          ['commit_message', 'none'],
        ])
      ).status,
      400,
    );
    assert.equal(
      (
        await send([
          ['branch', 'master'],
          ['commit_message', 'half'],
          ['actions[][action]', 'create'],
        ])
      ).status,
      400,
    );
  });
});
