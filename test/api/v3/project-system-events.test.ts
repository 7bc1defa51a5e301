import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { HookListener } from '../../support/hook-listener';

let app: TestApp;
let listener: HookListener;
before(async () => {
  app = await startApp();
  listener = await HookListener.start();
  assert.equal((await app.root.post('/hooks', { url: listener.url })).status, 201);
});
after(async () => {
  await app.close();
  await listener.close();
});

const hookFor = (event: string, match: (body: any) => boolean) =>
  listener.waitFor((hook) => hook.body?.event_name === event && match(hook.body));
const at = (body: any) => ({ ...body, created_at: 'T', updated_at: 'T' });

describe('system hooks for projects', () => {
  test("project_create with GitLab 8.12's fields, and user_add_to_team for the creator as Master", async () => {
    const { client, user } = await app.createUser();
    const project = (await client.post('/projects', { name: 'Announced', visibility_level: 10 })).body;
    const created = await hookFor('project_create', (body) => body.project_id === project.id);
    assert.equal(created.headers['x-gitlab-event'], 'System Hook');
    assert.deepEqual(at(created.body), {
      event_name: 'project_create',
      created_at: 'T',
      updated_at: 'T',
      name: 'Announced',
      path: 'announced',
      path_with_namespace: `${user.username}/announced`,
      project_id: project.id,
      owner_name: user.name,
      owner_email: user.email,
      project_visibility: 'internal',
    });
    const joined = await hookFor('user_add_to_team', (body) => body.project_id === project.id);
    assert.equal(joined.body.user_id, user.id);
    assert.equal(joined.body.access_level, 'Master');
  });

  test('project_rename when the path changes, with the old path', async () => {
    const { client, user } = await app.createUser();
    const project = (await client.post('/projects', { name: 'Before' })).body;
    await client.put(`/projects/${project.id}`, { path: 'after' });
    const renamed = await hookFor('project_rename', (body) => body.project_id === project.id);
    assert.equal(renamed.body.path_with_namespace, `${user.username}/after`);
    assert.equal(renamed.body.old_path_with_namespace, `${user.username}/before`);
  });

  test('project_destroy when a project is deleted', async () => {
    const { client } = await app.createUser();
    const project = (await client.post('/projects', { name: 'Short lived' })).body;
    await client.delete(`/projects/${project.id}`);
    const destroyed = await hookFor('project_destroy', (body) => body.project_id === project.id);
    assert.equal(destroyed.body.path, 'short-lived');
  });
});
