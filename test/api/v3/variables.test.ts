import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import type { ApiClient } from '../../support/client';
import { createProjectWorld } from '../../support/project-world';

let app: TestApp;
let owner: ApiClient;
let master: ApiClient;
let masterToken: string;
let outsider: ApiClient;
let lesser: Array<{ role: string; client: ApiClient }>;
let projectId: number;
let projectPath: string;

before(async () => {
  app = await startApp();
  const world = await createProjectWorld(app, { name: 'vars' });
  owner = world.owner.client;
  projectId = world.id;
  projectPath = world.path;
  master = world.master.client;
  masterToken = world.master.token;
  lesser = (['developer', 'reporter', 'guest'] as const).map((role) => ({ role, client: world[role].client }));
  outsider = world.stranger.client;
});
after(() => app.close());

const base = () => `/projects/${projectId}/variables`;
let counter = 0;
const uniqueKey = () => `KEY_${++counter}`;

async function createVariable(key = uniqueKey(), value = 'value') {
  const response = await master.post(base(), { key, value });
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return response.body as { key: string; value: string };
}

const unauthorized = { message: '401 Unauthorized' };
const forbidden = { message: '403 Forbidden' };
const projectNotFound = { message: '404 Project Not Found' };
const variableNotFound = { message: '404 Variable Not Found' };

/** Every route answers the same to callers who may not manage the project's variables. */
function accessRules(call: (client: ApiClient, key: string) => Promise<{ status: number; body: any }>) {
  test('an anonymous caller gets 401', async () => {
    const variable = await createVariable();
    const response = await call(app.anonymous, variable.key);
    assert.equal(response.status, 401);
    assert.deepEqual(response.body, unauthorized);
  });

  test('a user who cannot see the project gets 404 Project Not Found', async () => {
    const variable = await createVariable();
    const response = await call(outsider, variable.key);
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, projectNotFound);
  });

  test('developers, reporters and guests get 403 Forbidden', async () => {
    const variable = await createVariable();
    for (const { role, client } of lesser) {
      const response = await call(client, variable.key);
      assert.equal(response.status, 403, role);
      assert.deepEqual(response.body, forbidden, role);
    }
    assert.equal((await master.get(`${base()}/${variable.key}`)).body.value, variable.value);
  });
}

describe('GET /projects/:id/variables', () => {
  accessRules((client) => client.get(base()));

  test('a master gets the array of build variables, key and value, oldest first', async () => {
    const { body: project } = await owner.post('/projects', { name: 'listed vars' });
    await owner.post(`/projects/${project.id}/variables`, { key: 'FIRST', value: 'one' });
    await owner.post(`/projects/${project.id}/variables`, { key: 'SECOND', value: 'two' });
    const response = await owner.get(`/projects/${project.id}/variables`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, [
      { key: 'FIRST', value: 'one' },
      { key: 'SECOND', value: 'two' },
    ]);
  });

  test('the list is paginated', async () => {
    const { body: project } = await owner.post('/projects', { name: 'paged vars' });
    for (const key of ['A', 'B', 'C']) await owner.post(`/projects/${project.id}/variables`, { key, value: key });
    const response = await owner.get(`/projects/${project.id}/variables`, { page: 2, per_page: 2 });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, [{ key: 'C', value: 'C' }]);
    assert.equal(response.headers.get('x-total'), '3');
    assert.equal(response.headers.get('x-total-pages'), '2');
    assert.equal(response.headers.get('x-page'), '2');
    assert.equal(response.headers.get('x-prev-page'), '1');
    assert.equal(response.headers.get('x-next-page'), '');
  });

  test('the project may be named by its path, and the token sent as a PRIVATE_TOKEN header', async () => {
    const variable = await createVariable();
    const response = await app.anonymous.get(
      `/projects/${encodeURIComponent(projectPath)}/variables`,
      { per_page: 100 },
      { PRIVATE_TOKEN: masterToken },
    );
    assert.equal(response.status, 200);
    assert.ok(response.body.some((item: any) => item.key === variable.key));
  });

  test('the owner and an administrator may manage variables too', async () => {
    assert.equal((await owner.get(base())).status, 200);
    assert.equal((await app.root.get(base())).status, 200);
  });

  test('an unknown project is 404 Project Not Found', async () => {
    const response = await master.get('/projects/999999/variables');
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, projectNotFound);
  });

  test('with builds disabled the variables are out of reach: 403, even for the owner', async () => {
    const project = await owner.post('/projects', { name: 'no builds', builds_enabled: false });
    assert.equal(project.status, 201);
    const response = await owner.get(`/projects/${project.body.id}/variables`);
    assert.deepEqual([response.status, response.body], [403, { message: '403 Forbidden' }]);
  });

  test('on a public project, a signed-in non-member gets 403', async () => {
    const { body: project } = await owner.post('/projects', { name: 'public vars', visibility_level: 20 });
    const response = await outsider.get(`/projects/${project.id}/variables`);
    assert.equal(response.status, 403);
    assert.deepEqual(response.body, forbidden);
  });
});

describe('GET /projects/:id/variables/:key', () => {
  accessRules((client, key) => client.get(`${base()}/${key}`));

  test('answers the variable', async () => {
    const variable = await createVariable(uniqueKey(), 'the value');
    const response = await master.get(`${base()}/${variable.key}`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { key: variable.key, value: 'the value' });
  });

  test('an unknown key is 404 Variable Not Found; keys are case-sensitive', async () => {
    const variable = await createVariable('CASE_MATTERS');
    for (const key of ['NO_SUCH_KEY', variable.key.toLowerCase()]) {
      const response = await master.get(`${base()}/${key}`);
      assert.equal(response.status, 404, key);
      assert.deepEqual(response.body, variableNotFound, key);
    }
  });

  test("another project's variable is not found", async () => {
    const { body: project } = await owner.post('/projects', { name: 'other vars' });
    await owner.post(`/projects/${project.id}/variables`, { key: 'ELSEWHERE', value: 'x' });
    const response = await master.get(`${base()}/ELSEWHERE`);
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, variableNotFound);
  });
});

describe('POST /projects/:id/variables', () => {
  accessRules((client, key) => client.post(base(), { key: `${key}_NEW`, value: 'v' }));

  test('rights are checked before parameters: no parameters still answers 401, 404 and 403', async () => {
    assert.equal((await app.anonymous.post(base())).status, 401);
    assert.deepEqual((await outsider.post(base())).body, projectNotFound);
    const developer = lesser[0].client;
    const response = await developer.post(base());
    assert.equal(response.status, 403);
    assert.deepEqual(response.body, forbidden);
  });

  test('creates a variable: 201 with the variable', async () => {
    const response = await master.post(base(), { key: 'TEST_VARIABLE_2', value: 'VALUE_2' });
    assert.equal(response.status, 201);
    assert.deepEqual(response.body, { key: 'TEST_VARIABLE_2', value: 'VALUE_2' });
    assert.deepEqual((await master.get(`${base()}/TEST_VARIABLE_2`)).body, { key: 'TEST_VARIABLE_2', value: 'VALUE_2' });
  });

  test('parameters may come as a form', async () => {
    const response = await master.form('POST', base(), { key: 'FROM_FORM', value: 'a=b&c' });
    assert.equal(response.status, 201);
    assert.deepEqual(response.body, { key: 'FROM_FORM', value: 'a=b&c' });
  });

  test('key and value are required: missing or blank answers 400 naming the first missing', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'key'],
      [{ value: 'v' }, 'key'],
      [{ key: '', value: 'v' }, 'key'],
      [{ key: 'NO_VALUE' }, 'value'],
      [{ key: 'BLANK_VALUE', value: '  ' }, 'value'],
    ];
    for (const [body, missing] of cases) {
      const response = await master.post(base(), body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.deepEqual(response.body, { message: `400 (Bad request) "${missing}" not given` }, JSON.stringify(body));
    }
    assert.equal((await master.get(`${base()}/NO_VALUE`)).status, 404);
  });

  test('a key is unique per project: a duplicate answers 400 "has already been taken"', async () => {
    const variable = await createVariable();
    const response = await master.post(base(), { key: variable.key, value: 'other' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: { key: ['has already been taken'] } });
    assert.equal((await master.get(`${base()}/${variable.key}`)).body.value, variable.value);
  });

  test('the same key may be used in another project', async () => {
    const variable = await createVariable();
    const { body: project } = await owner.post('/projects', { name: 'same key elsewhere' });
    const response = await owner.post(`/projects/${project.id}/variables`, { key: variable.key, value: 'elsewhere' });
    assert.equal(response.status, 201);
  });

  test("a key holds only letters, digits and '_'", async () => {
    for (const key of ['WITH-DASH', 'with space', 'dot.ted', 'ÜMLAUT', 'NEW\nLINE']) {
      const response = await master.post(base(), { key, value: 'v' });
      assert.equal(response.status, 400, key);
      assert.deepEqual(response.body, { message: { key: ["can contain only letters, digits and '_'."] } }, key);
    }
    assert.equal((await master.post(base(), { key: 'lower_UPPER_09', value: 'v' })).status, 201);
  });

  test('a key is at most 255 characters', async () => {
    assert.equal((await master.post(base(), { key: 'K'.repeat(255), value: 'v' })).status, 201);
    const response = await master.post(base(), { key: 'L'.repeat(256), value: 'v' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: { key: ['is too long (maximum is 255 characters)'] } });
  });

  test('every broken rule is named, in GitLab order: taken, too long, format', async () => {
    const long = `${'X'.repeat(255)}-`;
    const response = await master.post(base(), { key: long, value: 'v' });
    assert.deepEqual(response.body, {
      message: { key: ['is too long (maximum is 255 characters)', "can contain only letters, digits and '_'."] },
    });
  });

  test('the value is not stored in clear in the database', async () => {
    await master.post(base(), { key: 'SEALED', value: 'very secret value' });
    const row = await app.ctx.db
      .selectFrom('ci_variables')
      .select('value')
      .where('project_id', '=', projectId)
      .where('key', '=', 'SEALED')
      .executeTakeFirstOrThrow();
    assert.ok(!row.value.includes('very secret value'));
  });
});

describe('PUT /projects/:id/variables/:key', () => {
  accessRules((client, key) => client.put(`${base()}/${key}`, { value: 'changed' }));

  test('rights are checked before parameters: no value still answers 403 to a developer', async () => {
    const variable = await createVariable();
    const response = await lesser[0].client.put(`${base()}/${variable.key}`);
    assert.equal(response.status, 403);
    assert.deepEqual(response.body, forbidden);
  });

  test('updates the value: 200 with the updated variable', async () => {
    const variable = await createVariable(uniqueKey(), 'VALUE_1');
    const response = await master.put(`${base()}/${variable.key}`, { value: 'VALUE_1_UP' });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { key: variable.key, value: 'VALUE_1_UP' });
    assert.deepEqual((await master.get(`${base()}/${variable.key}`)).body, { key: variable.key, value: 'VALUE_1_UP' });
  });

  test('the key cannot be changed: a key parameter is ignored', async () => {
    const variable = await createVariable();
    const response = await master.put(`${base()}/${variable.key}`, { key: 'RENAMED', value: 'new' });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { key: variable.key, value: 'new' });
    assert.equal((await master.get(`${base()}/RENAMED`)).status, 404);
  });

  test('an unknown key is 404 Variable Not Found', async () => {
    const response = await master.put(`${base()}/NO_SUCH_KEY`, { value: 'v' });
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, variableNotFound);
  });

  test('value is required', async () => {
    const variable = await createVariable();
    for (const body of [{}, { value: '' }]) {
      const response = await master.put(`${base()}/${variable.key}`, body);
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, { message: '400 (Bad request) "value" not given' });
    }
    assert.equal((await master.get(`${base()}/${variable.key}`)).body.value, variable.value);
  });
});

describe('DELETE /projects/:id/variables/:key', () => {
  accessRules((client, key) => client.delete(`${base()}/${key}`));

  test('removes the variable: 200 with the removed variable', async () => {
    const variable = await createVariable(uniqueKey(), 'going');
    const before = Number((await master.get(base())).headers.get('x-total'));
    const response = await master.delete(`${base()}/${variable.key}`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { key: variable.key, value: 'going' });
    assert.equal(Number((await master.get(base())).headers.get('x-total')), before - 1);
    assert.deepEqual((await master.get(`${base()}/${variable.key}`)).body, variableNotFound);
  });

  test('an unknown key is 404 Variable Not Found', async () => {
    const response = await master.delete(`${base()}/NO_SUCH_KEY`);
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, variableNotFound);
  });

  test('a deleted key may be created again', async () => {
    const variable = await createVariable();
    await master.delete(`${base()}/${variable.key}`);
    assert.equal((await master.post(base(), { key: variable.key, value: 'again' })).status, 201);
  });
});
