import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import type { ApiClient } from '../../support/client';

const DEFAULTS = {
  default_projects_limit: 10,
  signup_enabled: true,
  signin_enabled: true,
  gravatar_enabled: true,
  sign_in_text: null,
  after_sign_up_text: null,
  home_page_url: null,
  default_branch_protection: 2,
  restricted_visibility_levels: [],
  max_attachment_size: 10,
  session_expire_delay: 10080,
  default_project_visibility: 0,
  default_snippet_visibility: 0,
  default_group_visibility: 0,
  domain_whitelist: [],
  domain_blacklist_enabled: false,
  domain_blacklist: [],
  user_oauth_applications: true,
  after_sign_out_path: null,
  container_registry_token_expire_delay: 5,
  repository_storage: 'default',
};
const KEYS = [...Object.keys(DEFAULTS), 'id', 'created_at', 'updated_at', 'runners_registration_token'].sort();

let app: TestApp;
let user: ApiClient;
before(async () => {
  app = await startApp();
  user = (await app.createUser()).client;
});
after(() => app.close());

/** Each test starts from a fresh install: no settings row at all. */
beforeEach(async () => {
  await app.ctx.db.deleteFrom('application_settings').execute();
});

const settings = () => app.root.get('/application/settings');

function withoutStamps(body: Record<string, unknown>) {
  const { id: _id, created_at: _created, updated_at: _updated, runners_registration_token: _token, ...rest } = body;
  return rest;
}

async function assertRefused(changes: Record<string, unknown>, body: unknown) {
  const before = await settings();
  const response = await app.root.put('/application/settings', changes);
  assert.equal(response.status, 400, JSON.stringify(changes));
  assert.deepEqual(response.body, body);
  assert.deepEqual((await settings()).body, before.body, 'nothing changes');
}

describe('GET /application/settings', () => {
  test('a guest receives 401 Unauthorized (GitLab 8.12 crashed with a 500)', async () => {
    const response = await app.anonymous.get('/application/settings');
    assert.equal(response.status, 401);
    assert.deepEqual(response.body, { message: '401 Unauthorized' });
  });

  test('a normal user receives 403 Forbidden', async () => {
    const response = await user.get('/application/settings');
    assert.equal(response.status, 403);
    assert.deepEqual(response.body, { message: '403 Forbidden' });
  });

  test('a fresh install answers the ApplicationSetting shape with GitLab defaults', async () => {
    const response = await settings();
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body).sort(), KEYS);
    assert.deepEqual(withoutStamps(response.body), DEFAULTS);
    assert.equal(typeof response.body.id, 'number');
    assert.match(response.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(response.body.updated_at, response.body.created_at);
  });

  test('the runners registration token is generated on first read and kept', async () => {
    const first = await settings();
    assert.match(first.body.runners_registration_token, /^[A-Za-z0-9_-]{20}$/);
    const second = await settings();
    assert.equal(second.body.runners_registration_token, first.body.runners_registration_token);
    assert.equal(second.body.id, first.body.id);
    assert.equal(second.body.created_at, first.body.created_at);
  });

  test('concurrent first reads create one row and agree on one token', async () => {
    const responses = await Promise.all(Array.from({ length: 6 }, () => settings()));
    const tokens = new Set(responses.map((response) => response.body.runners_registration_token));
    assert.equal(tokens.size, 1);
    const rows = await app.ctx.db.selectFrom('application_settings').selectAll().execute();
    assert.equal(rows.length, 1);
  });

  test('a stored row without a token, or missing settings, reads the defaults and gets a token once', async () => {
    const time = new Date().toISOString();
    await app.ctx.db
      .insertInto('application_settings')
      .values({ data: JSON.stringify({ default_projects_limit: 7 }), created_at: time, updated_at: time })
      .execute();
    const first = await settings();
    assert.deepEqual(withoutStamps(first.body), { ...DEFAULTS, default_projects_limit: 7 });
    assert.match(first.body.runners_registration_token, /^[A-Za-z0-9_-]{20}$/);
    assert.equal((await settings()).body.runners_registration_token, first.body.runners_registration_token);
  });

  test('the token is not stored in the clear', async () => {
    const { body } = await settings();
    const row = await app.ctx.db.selectFrom('application_settings').select('data').executeTakeFirstOrThrow();
    assert.ok(!row.data.includes(body.runners_registration_token));
  });

  test('services read the same settings through SettingsService.get()', async () => {
    await app.root.put('/application/settings', { signup_enabled: false, restricted_visibility_levels: [20] });
    const { shared_runners_enabled: shared, ...read } = await app.services.settings.get();
    const { body } = await settings();
    assert.deepEqual(read, body);
    assert.equal(shared, true);
    assert.equal(read.signup_enabled, false);
    assert.deepEqual(read.restricted_visibility_levels, [20]);
  });
});

describe('PUT /application/settings', () => {
  test('a guest receives 401 Unauthorized and a normal user 403 Forbidden', async () => {
    const anonymous = await app.anonymous.put('/application/settings', { signup_enabled: false });
    assert.equal(anonymous.status, 401);
    assert.deepEqual(anonymous.body, { message: '401 Unauthorized' });
    const normal = await user.put('/application/settings', { signup_enabled: false });
    assert.equal(normal.status, 403);
    assert.deepEqual(normal.body, { message: '403 Forbidden' });
    assert.equal((await settings()).body.signup_enabled, true);
  });

  test('answers the updated settings, which are kept', async () => {
    const before = await settings();
    const response = await app.root.form('PUT', '/application/settings', {
      default_projects_limit: 3,
      signin_enabled: false,
      repository_storage: 'default',
    });
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body).sort(), KEYS);
    assert.equal(response.body.default_projects_limit, 3);
    assert.equal(response.body.signin_enabled, false);
    assert.equal(response.body.repository_storage, 'default');
    assert.equal(response.body.created_at, before.body.created_at);
    assert.ok(response.body.updated_at >= before.body.updated_at);
    assert.deepEqual((await settings()).body, response.body);
  });

  test('accepts every field of the shape', async () => {
    const changes = {
      default_projects_limit: 0,
      signup_enabled: false,
      signin_enabled: false,
      gravatar_enabled: false,
      sign_in_text: 'Welcome',
      after_sign_up_text: 'Thanks',
      home_page_url: 'https://example.com/home',
      default_branch_protection: 1,
      restricted_visibility_levels: [10, 20],
      max_attachment_size: 50,
      session_expire_delay: 0,
      default_project_visibility: 10,
      default_snippet_visibility: 20,
      default_group_visibility: 20,
      domain_whitelist: ['example.com', '*.example.org'],
      domain_blacklist_enabled: true,
      domain_blacklist: ['spam.example'],
      user_oauth_applications: false,
      after_sign_out_path: 'http://example.com/bye',
      container_registry_token_expire_delay: 1,
      repository_storage: 'default',
    };
    const response = await app.root.put('/application/settings', changes);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.deepEqual(withoutStamps(response.body), changes);
  });

  test('booleans follow to_boolean and arrays come as key[] form fields', async () => {
    const response = await app.root.form('PUT', '/application/settings', {
      signup_enabled: 'no',
      gravatar_enabled: 'off',
      restricted_visibility_levels: ['0', '20'],
      domain_whitelist: ['a.example', 'b.example'],
    });
    assert.equal(response.status, 200);
    assert.equal(response.body.signup_enabled, false);
    assert.equal(response.body.gravatar_enabled, false);
    assert.deepEqual(response.body.restricted_visibility_levels, [0, 20]);
    assert.deepEqual(response.body.domain_whitelist, ['a.example', 'b.example']);
    const single = await app.root.put('/application/settings?restricted_visibility_levels=10');
    assert.deepEqual(single.body.restricted_visibility_levels, [10]);
  });

  test('id, created_at and updated_at are not settable', async () => {
    const before = await settings();
    const response = await app.root.put('/application/settings', {
      id: 99,
      created_at: '2000-01-01T00:00:00Z',
      updated_at: '2000-01-01T00:00:00Z',
      signup_enabled: false,
    });
    assert.equal(response.status, 200);
    assert.equal(response.body.id, before.body.id);
    assert.equal(response.body.created_at, before.body.created_at);
    assert.notEqual(response.body.updated_at, '2000-01-01T00:00:00.000Z');
  });

  test('blank values leave a setting as it is; a blank text is cleared and a blank list emptied', async () => {
    await app.root.put('/application/settings', {
      default_projects_limit: 4,
      sign_in_text: 'Hello',
      restricted_visibility_levels: [20],
      domain_whitelist: ['x.example'],
    });
    const form = await app.root.form('PUT', '/application/settings', {
      default_projects_limit: '',
      signup_enabled: '',
      sign_in_text: '',
      restricted_visibility_levels: [''],
    });
    assert.equal(form.status, 200);
    assert.equal(form.body.default_projects_limit, 4);
    assert.equal(form.body.signup_enabled, true);
    assert.equal(form.body.sign_in_text, null);
    assert.deepEqual(form.body.restricted_visibility_levels, []);
    assert.deepEqual(form.body.domain_whitelist, ['x.example']);
    const json = await app.root.put('/application/settings', { domain_whitelist: [], signin_enabled: null });
    assert.deepEqual(json.body.domain_whitelist, []);
    assert.equal(json.body.signin_enabled, true);
  });

  test('shared_runners_enabled is accepted and read by services, though not shown, as in GitLab', async () => {
    assert.equal((await app.services.settings.get()).shared_runners_enabled, true);
    const response = await app.root.put('/application/settings', { shared_runners_enabled: 'false' });
    assert.equal(response.status, 200);
    assert.equal('shared_runners_enabled' in response.body, false);
    assert.equal((await app.services.settings.get()).shared_runners_enabled, false);
  });

  test('the runners registration token may be replaced', async () => {
    const response = await app.root.put('/application/settings', { runners_registration_token: 'chosen-registration-token' });
    assert.equal(response.status, 200);
    assert.equal(response.body.runners_registration_token, 'chosen-registration-token');
    assert.equal((await app.services.settings.get()).runners_registration_token, 'chosen-registration-token');
    const blank = await app.root.put('/application/settings', { runners_registration_token: '  ' });
    assert.equal(blank.body.runners_registration_token, 'chosen-registration-token');
  });

  test('a value of the wrong type answers 400 naming the field', async () => {
    for (const [field, value] of [
      ['default_projects_limit', 'abc'],
      ['default_projects_limit', 1.5],
      ['signup_enabled', 'maybe'],
      ['restricted_visibility_levels', ['public']],
      ['default_project_visibility', 'private'],
      ['domain_whitelist', { a: 1 }],
    ] as const) {
      await assertRefused({ [field]: value }, { message: `400 (Bad request) "${field}" is invalid` });
    }
  });

  test('visibility levels must be 0, 10 or 20', async () => {
    await assertRefused({ default_project_visibility: 1 }, { message: { default_project_visibility: ['is not included in the list'] } });
    await assertRefused({ default_snippet_visibility: 30 }, { message: { default_snippet_visibility: ['is not included in the list'] } });
    await assertRefused({ default_group_visibility: -10 }, { message: { default_group_visibility: ['is not included in the list'] } });
    await assertRefused(
      { restricted_visibility_levels: [20, 5, 2] },
      { message: { restricted_visibility_levels: ["'5' is not a valid visibility level", "'2' is not a valid visibility level"] } },
    );
  });

  test('default_branch_protection must be 0, 1 or 2', async () => {
    await assertRefused({ default_branch_protection: 3 }, { message: { default_branch_protection: ['is not included in the list'] } });
  });

  test('counts and durations must be non-negative, sizes and token lifetimes positive', async () => {
    await assertRefused({ default_projects_limit: -1 }, { message: { default_projects_limit: ['must be greater than or equal to 0'] } });
    await assertRefused({ session_expire_delay: -5 }, { message: { session_expire_delay: ['must be greater than or equal to 0'] } });
    await assertRefused({ max_attachment_size: 0 }, { message: { max_attachment_size: ['must be greater than 0'] } });
    await assertRefused(
      { container_registry_token_expire_delay: 0 },
      { message: { container_registry_token_expire_delay: ['must be greater than 0'] } },
    );
    await assertRefused(
      { default_projects_limit: 2147483648 },
      { message: { default_projects_limit: ['must be less than or equal to 2147483647'] } },
    );
  });

  test('home_page_url and after_sign_out_path must be http(s) URLs', async () => {
    await assertRefused({ home_page_url: 'not a url' }, { message: { home_page_url: ['must be a valid URL'] } });
    await assertRefused({ after_sign_out_path: 'ftp://example.com' }, { message: { after_sign_out_path: ['must be a valid URL'] } });
  });

  test('the domain blacklist cannot be empty while it is enabled', async () => {
    await assertRefused(
      { domain_blacklist_enabled: true },
      { message: { domain_blacklist: ['Domain blacklist cannot be empty if Blacklist is enabled.'] } },
    );
    await assertRefused(
      { domain_blacklist_enabled: true, domain_blacklist: [' '] },
      { message: { domain_blacklist: ['Domain blacklist cannot be empty if Blacklist is enabled.'] } },
    );
  });

  test('repository_storage must name a configured storage', async () => {
    await assertRefused({ repository_storage: 'custom' }, { message: { repository_storage: ['is not included in the list'] } });
  });

  test('every invalid field is reported at once and nothing is changed', async () => {
    await assertRefused(
      { default_projects_limit: -1, default_group_visibility: 7, home_page_url: 'nope', signup_enabled: false },
      {
        message: {
          default_projects_limit: ['must be greater than or equal to 0'],
          default_group_visibility: ['is not included in the list'],
          home_page_url: ['must be a valid URL'],
        },
      },
    );
  });

  test('new users get default_projects_limit as their projects limit', async () => {
    await app.root.put('/application/settings', { default_projects_limit: 7 });
    const { user: created } = await app.createUser();
    assert.equal(created.projects_limit, 7);
  });
});
