import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createPeople, createProjectWorld, type People, type ProjectWorld, type Role } from '../../support/project-world';
import { assertRouteAccess, assertAccess, expectedStatus, REFUSALS } from '../../support/access-matrix';
import { seedPipeline } from '../../support/ci';
import type { ApiClient } from '../../support/client';

let app: TestApp;
let people: People<Role>;
/** A private project with a member of each role. */
let world: ProjectWorld<Role>;
let master: ApiClient;

before(async () => {
  app = await startApp();
  people = await createPeople(app);
  world = await createProjectWorld(app, { people, name: 'environments', visibility: 0, commits: [{ files: { 'README.md': '# env\n' } }] });
  master = world.master.client;
});
after(() => app.close());

const base = (project: { id: number } = world) => `/projects/${project.id}/environments`;
let counter = 0;
const uniqueName = (prefix = 'env') => `${prefix}-${++counter}`;

async function createEnvironment(fields: Record<string, unknown> = {}, project: { id: number } = world) {
  const response = await app.root.post(base(project), { name: uniqueName(), ...fields });
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return response.body;
}

const environmentRow = (id: number) => app.ctx.db.selectFrom('environments').selectAll().where('id', '=', id).executeTakeFirst();

/** The 401/404/403 table of a route on the private world, and GitLab's body for each refusal. */
function assertEnvironmentAccess(
  call: (client: ApiClient) => Promise<{ status: number; body?: unknown }>,
  minimum: 'reporter' | 'developer' | 'master',
  success = 200,
): Promise<void> {
  return assertRouteAccess(
    { private: world },
    (client) => call(client),
    (visibility, caller) => expectedStatus(visibility, caller, { minimum, success }),
  );
}

const notFound = { message: '404 Not found' };
const FORMAT = "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.' and spaces";

describe('GET /projects/:id/environments', () => {
  let listed: ProjectWorld<'reporter'>;
  let ids: number[];
  before(async () => {
    listed = await createProjectWorld(app, { name: 'listed-environments', visibility: 0, roles: ['reporter'] });
    ids = [];
    for (const name of ['production', 'staging', 'review/app']) ids.push((await createEnvironment({ name }, listed)).id);
  });

  test("lists the project's environments oldest first, paginated, each with its project", async () => {
    const response = await listed.reporter.client.get(base(listed));
    assert.equal(response.status, 200);
    assert.deepEqual(
      response.body.map((environment: any) => environment.id),
      ids,
    );
    assert.deepEqual(
      response.body.map((environment: any) => environment.name),
      ['production', 'staging', 'review/app'],
    );
    assert.equal(response.headers.get('x-total'), '3');
    assert.deepEqual(Object.keys(response.body[0]), ['id', 'name', 'external_url', 'project']);
    assert.equal(response.body[0].project.id, listed.id);
    assert.equal(response.body[0].project.path_with_namespace, listed.path);
    const page = await listed.reporter.client.get(base(listed), { per_page: 2, page: 2 });
    assert.deepEqual(
      page.body.map((environment: any) => environment.id),
      [ids[2]],
    );
    assert.equal(page.headers.get('x-total-pages'), '2');
  });

  test('needs read_environment: reporters and up; guests 403, outsiders 404, anonymous 401', async () => {
    await assertEnvironmentAccess((client) => client.get(base()), 'reporter');
  });

  test('on a public project too, non-members may not read environments (8.12 gave the public no environment ability): 403', async () => {
    const open = await createProjectWorld(app, { people, name: 'public-environments', visibility: 20 });
    await assertAccess(
      open.clients,
      (client) => client.get(base(open)),
      (caller) => expectedStatus('public', caller, { minimum: 'reporter' }),
    );
  });

  test('with builds disabled, nobody reads environments, not even the owner or an admin: 403', async () => {
    const off = await createProjectWorld(app, { people, name: 'no-builds-environments', visibility: 0, roles: ['reporter'] });
    await app.ctx.db.updateTable('projects').set({ builds_enabled: 0 }).where('id', '=', off.id).execute();
    for (const client of [off.reporter.client, off.owner.client, app.root]) {
      const response = await client.get(base(off));
      assert.deepEqual([response.status, response.body], [403, REFUSALS[403]]);
    }
  });
});

describe('POST /projects/:id/environments', () => {
  test('creates an environment: 201 with the Environment entity', async () => {
    const response = await master.post(base(), { name: 'mepmep', external_url: 'https://mep.example.com' });
    assert.equal(response.status, 201);
    assert.deepEqual(Object.keys(response.body), ['id', 'name', 'external_url', 'project']);
    assert.equal(response.body.name, 'mepmep');
    assert.equal(response.body.external_url, 'https://mep.example.com');
    assert.equal(response.body.project.id, world.id);
    assert.equal('external' in response.body, false);
  });

  test('without external_url, or with a blank one, the environment has none: null', async () => {
    assert.equal((await master.post(base(), { name: uniqueName() })).body.external_url, null);
    assert.equal((await master.post(base(), { name: uniqueName(), external_url: '  ' })).body.external_url, null);
  });

  test('a name with a slash has the first segment as its type; other names none', async () => {
    const review = await master.post(base(), { name: `review/${uniqueName()}` });
    assert.equal((await environmentRow(review.body.id))?.environment_type, 'review');
    const plain = await master.post(base(), { name: uniqueName() });
    assert.equal((await environmentRow(plain.body.id))?.environment_type, null);
    const trailing = await master.post(base(), { name: `${uniqueName()}/` });
    assert.equal((await environmentRow(trailing.body.id))?.environment_type, null);
  });

  test('the form encoding works as the JSON one (node-gitlab)', async () => {
    const response = await master.form('POST', base(), { name: 'form-made', external_url: 'http://form.example.com' });
    assert.equal(response.status, 201);
    assert.equal(response.body.external_url, 'http://form.example.com');
  });

  test('a missing name answers Grape\'s 400 "name is missing"; a blank one is given, and the record\'s to refuse', async () => {
    const missing = await master.post(base(), { external_url: 'https://x.example.com' });
    assert.deepEqual([missing.status, missing.body], [400, { error: 'name is missing' }]);
    const empty = await master.post(base(), { name: '' });
    assert.deepEqual([empty.status, empty.body], [400, { message: { name: ["can't be blank", FORMAT] } }]);
    const spaces = await master.post(base(), { name: '  ' });
    assert.deepEqual([spaces.status, spaces.body], [400, { message: { name: ["can't be blank"] } }]);
  });

  test('a name already taken in the project answers 400 "has already been taken"; another project may use it', async () => {
    const existing = await createEnvironment();
    const response = await master.post(base(), { name: existing.name });
    assert.deepEqual([response.status, response.body], [400, { message: { name: ['has already been taken'] } }]);
    const other = await createProjectWorld(app, { people, name: 'other-environments', roles: [] });
    assert.equal((await other.owner.client.post(base(other), { name: existing.name })).status, 201);
  });

  test("a name outside the allowed characters, or a long one, answers 400 with 8.12's messages", async () => {
    const bad = await master.post(base(), { name: 'no*stars' });
    assert.deepEqual([bad.status, bad.body], [400, { message: { name: [FORMAT] } }]);
    const long = await master.post(base(), { name: 'a'.repeat(256) });
    assert.deepEqual([long.status, long.body], [400, { message: { name: ['is too long (maximum is 255 characters)'] } }]);
  });

  test('an external_url that is not http, https, ssh or git, or that another environment has, answers 400', async () => {
    const invalid = await master.post(base(), { name: uniqueName(), external_url: 'ftp://files.example.com' });
    assert.deepEqual([invalid.status, invalid.body], [400, { message: { external_url: ['must be a valid URL'] } }]);
    const existing = await createEnvironment({ external_url: `https://${uniqueName()}.example.com` });
    const taken = await master.post(base(), { name: uniqueName(), external_url: existing.external_url });
    assert.deepEqual([taken.status, taken.body], [400, { message: { external_url: ['has already been taken'] } }]);
    const both = await master.post(base(), { name: 'bad*name', external_url: 'nope' });
    assert.deepEqual([both.status, both.body], [400, { message: { name: [FORMAT], external_url: ['must be a valid URL'] } }]);
  });

  test('concurrent creations of one name: one 201, the others 400 "has already been taken", never 500', async () => {
    const name = uniqueName('race');
    const responses = await Promise.all(Array.from({ length: 8 }, () => master.post(base(), { name })));
    assert.deepEqual(responses.map((response) => response.status).sort(), [201, 400, 400, 400, 400, 400, 400, 400]);
    for (const response of responses.filter((r) => r.status === 400))
      assert.deepEqual(response.body, { message: { name: ['has already been taken'] } });
  });

  test('needs create_environment: developers and up', async () => {
    await assertEnvironmentAccess((client) => client.post(base(), { name: uniqueName() }), 'developer', 201);
  });
});

describe('PUT /projects/:id/environments/:environment_id', () => {
  test('changes the name and the URL', async () => {
    const environment = await createEnvironment({ external_url: `https://${uniqueName()}.example.com` });
    const name = uniqueName('renamed');
    const response = await master.put(`${base()}/${environment.id}`, { name, external_url: 'https://renamed.example.com' });
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body), ['id', 'name', 'external_url', 'project']);
    assert.deepEqual(
      [response.body.id, response.body.name, response.body.external_url],
      [environment.id, name, 'https://renamed.example.com'],
    );
  });

  test('only the fields given change: a new name keeps the URL; a new name gets its new type', async () => {
    const environment = await createEnvironment({ external_url: `https://${uniqueName()}.example.com` });
    const name = `review/${uniqueName()}`;
    const response = await master.put(`${base()}/${environment.id}`, { name });
    assert.deepEqual([response.status, response.body.name, response.body.external_url], [200, name, environment.external_url]);
    assert.equal((await environmentRow(environment.id))?.environment_type, 'review');
    const urlOnly = await master.put(`${base()}/${environment.id}`, { external_url: 'ssh://host.example.com' });
    assert.deepEqual([urlOnly.body.name, urlOnly.body.external_url], [name, 'ssh://host.example.com']);
  });

  test('a blank external_url clears it; a null one changes nothing', async () => {
    const environment = await createEnvironment({ external_url: `https://${uniqueName()}.example.com` });
    assert.equal((await master.put(`${base()}/${environment.id}`, { external_url: null })).body.external_url, environment.external_url);
    assert.equal((await master.put(`${base()}/${environment.id}`, { external_url: '' })).body.external_url, null);
  });

  test('a blank name is "can\'t be blank" (the record\'s check: the name is optional here)', async () => {
    const environment = await createEnvironment();
    const response = await master.put(`${base()}/${environment.id}`, { name: '' });
    assert.deepEqual([response.status, response.body], [400, { message: { name: ["can't be blank", FORMAT] } }]);
  });

  test('the same validations as creation: a name taken, a bad name, a bad URL answer 400 and change nothing', async () => {
    const first = await createEnvironment();
    const second = await createEnvironment();
    const taken = await master.put(`${base()}/${second.id}`, { name: first.name });
    assert.deepEqual([taken.status, taken.body], [400, { message: { name: ['has already been taken'] } }]);
    const bad = await master.put(`${base()}/${second.id}`, { name: 'bad*name', external_url: 'mailto:x@example.com' });
    assert.equal(bad.status, 400);
    assert.deepEqual(Object.keys(bad.body.message), ['name', 'external_url']);
    assert.equal((await environmentRow(second.id))?.name, second.name);
    // Its own name is not "taken".
    assert.equal((await master.put(`${base()}/${second.id}`, { name: second.name })).status, 200);
  });

  test('an unknown environment, or another project\'s, answers 404 "404 Not found"', async () => {
    const other = await createProjectWorld(app, { people, name: 'elsewhere-put', roles: [] });
    const foreign = await createEnvironment({}, other);
    for (const id of [999999, foreign.id]) {
      const response = await master.put(`${base()}/${id}`, { name: uniqueName() });
      assert.deepEqual([response.status, response.body], [404, notFound], String(id));
    }
    // A path that is not an id names no environment either.
    assert.equal((await master.put(`${base()}/abc`, { name: uniqueName() })).status, 404);
  });

  test('needs update_environment: masters and up', async () => {
    const environment = await createEnvironment();
    await assertEnvironmentAccess(
      (client) => client.put(`${base()}/${environment.id}`, { external_url: 'https://matrix.example.com' }),
      'master',
    );
  });
});

describe('DELETE /projects/:id/environments/:environment_id', () => {
  test('removes the environment and answers it; its deployments go with it', async () => {
    const environment = await createEnvironment({ external_url: 'https://gone.example.com' });
    const { builds } = await seedPipeline(app, world.id, { sha: world.shas[0], builds: [{ name: 'deploy', status: 'success' }] });
    const time = new Date().toISOString();
    await app.ctx.db
      .insertInto('deployments')
      .values({
        iid: 1000,
        project_id: world.id,
        environment_id: environment.id,
        ref: 'master',
        tag: 0,
        sha: world.shas[0],
        user_id: null,
        deployable_id: builds[0],
        created_at: time,
        updated_at: time,
      })
      .execute();
    const response = await master.delete(`${base()}/${environment.id}`);
    assert.equal(response.status, 200);
    assert.deepEqual(
      [response.body.id, response.body.name, response.body.external_url, response.body.project.id],
      [environment.id, environment.name, 'https://gone.example.com', world.id],
    );
    assert.equal(await environmentRow(environment.id), undefined);
    const left = await app.ctx.db.selectFrom('deployments').select('id').where('environment_id', '=', environment.id).execute();
    assert.deepEqual(left, []);
    const again = await master.delete(`${base()}/${environment.id}`);
    assert.deepEqual([again.status, again.body], [404, notFound]);
  });

  test('an unknown environment, or another project\'s, answers 404 "404 Not found"', async () => {
    const other = await createProjectWorld(app, { people, name: 'elsewhere-delete', roles: [] });
    const foreign = await createEnvironment({}, other);
    for (const id of [999999, foreign.id]) {
      const response = await master.delete(`${base()}/${id}`);
      assert.deepEqual([response.status, response.body], [404, notFound], String(id));
    }
    assert.ok(await environmentRow(foreign.id));
  });

  test('needs update_environment (8.12 asked it here too): masters and up', async () => {
    await assertEnvironmentAccess(async (client) => client.delete(`${base()}/${(await createEnvironment()).id}`), 'master');
  });
});
