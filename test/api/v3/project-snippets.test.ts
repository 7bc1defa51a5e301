import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createSnippet } from '../../support/create';
import { createPeople, createProjectWorld, type People, type ProjectWorld, type Role, type Caller } from '../../support/project-world';
import { assertAccess, expectedStatus, REFUSALS, VISIBILITY_LEVELS, type Visibility } from '../../support/access-matrix';
import type { ApiClient } from '../../support/client';

let app: TestApp;
let people: People<Role>;
/** A private project with a member of each role. */
let world: ProjectWorld<Role>;
let external: ApiClient;

before(async () => {
  app = await startApp();
  people = await createPeople(app);
  // One owner holds every project of this file.
  assert.equal((await app.root.put(`/users/${people.owner.user.id}`, { projects_limit: 100 })).status, 200);
  world = await createProjectWorld(app, { people, name: 'snippets', visibility: 0 });
  external = (await app.createUser({ external: true })).client;
});
after(() => app.close());

const base = (project: { id: number } = world) => `/projects/${project.id}/snippets`;
const LEVELS: Visibility[] = ['private', 'internal', 'public'];
const NOT_FOUND = { message: '404 Not found' };
const SNIPPET_NOT_FOUND = { message: '404 Snippet Not Found' };
const FILE_NAME_MESSAGE = "can contain only letters, digits, '_', '-', '@' and '.'. ";

let counter = 0;
const newSnippet = (client: ApiClient, fields: Record<string, unknown> = {}, project: { id: number } = world) =>
  createSnippet(client, project, { title: `snippet ${++counter}`, file_name: 'hello.rb', code: 'puts "hello"', ...fields });

async function setSettings(values: Record<string, unknown>) {
  const response = await app.root.put('/application/settings', values);
  assert.equal(response.status, 200, JSON.stringify(response.body));
}

const db = () => app.ctx.db;

describe('the visibility table: snippet × project × caller, by list, by id and raw', () => {
  const projects: Partial<Record<Visibility, ProjectWorld<Role>>> = {};
  const snippets: Partial<Record<Visibility, Partial<Record<Visibility, number>>>> = {};
  before(async () => {
    for (const projectLevel of LEVELS) {
      const project = await createProjectWorld(app, { people, name: `table-${projectLevel}`, visibility: VISIBILITY_LEVELS[projectLevel] });
      projects[projectLevel] = project;
      snippets[projectLevel] = {};
      for (const snippetLevel of LEVELS) {
        snippets[projectLevel]![snippetLevel] = (
          await newSnippet(project.owner.client, { visibility_level: VISIBILITY_LEVELS[snippetLevel] }, project)
        ).id;
      }
    }
  });

  /** What GitLab 8.12 showed: members and admins all, other signed-in users public and internal ones, external users public ones. */
  function sees(projectLevel: Visibility, snippetLevel: Visibility, caller: Caller | 'external'): number {
    if (caller === 'anonymous') return 401;
    if (caller === 'external') {
      if (projectLevel !== 'public') return 404;
      return snippetLevel === 'public' ? 200 : 404;
    }
    if (caller === 'non-member') {
      if (projectLevel === 'private') return 404;
      return snippetLevel === 'private' ? 404 : 200;
    }
    return 200;
  }

  const callersOf = (project: ProjectWorld<Role>): [Caller | 'external', ApiClient][] => [
    ...(Object.entries(project.clients) as [Caller, ApiClient][]),
    ['external', external],
  ];

  test('the list shows each caller the snippets they may see, newest first; a hidden project is 404, anonymous 401', async () => {
    for (const projectLevel of LEVELS) {
      const project = projects[projectLevel]!;
      for (const [caller, client] of callersOf(project)) {
        const response = await client.get(base(project));
        const visible = LEVELS.filter((level) => sees(projectLevel, level, caller) === 200)
          .map((level) => snippets[projectLevel]![level]!)
          .reverse();
        const label = `${projectLevel} project, ${caller}`;
        if (caller === 'anonymous') assert.deepEqual([response.status, response.body], [401, REFUSALS[401]], label);
        else if (caller === 'non-member' && projectLevel === 'private')
          assert.deepEqual([response.status, response.body], [404, REFUSALS[404]], label);
        else if (caller === 'external' && projectLevel !== 'public')
          assert.deepEqual([response.status, response.body], [404, REFUSALS[404]], label);
        else {
          assert.equal(response.status, 200, label);
          assert.deepEqual(
            response.body.map((snippet: any) => snippet.id),
            visible,
            label,
          );
        }
      }
    }
  });

  test('one snippet and its raw content: 200 when visible; 404 Not found for a hidden snippet, 404 Project Not Found for a hidden project', async () => {
    for (const projectLevel of LEVELS) {
      const project = projects[projectLevel]!;
      for (const snippetLevel of LEVELS) {
        const id = snippets[projectLevel]![snippetLevel]!;
        for (const [caller, client] of callersOf(project)) {
          const label = `${snippetLevel} snippet of a ${projectLevel} project, ${caller}`;
          const status = sees(projectLevel, snippetLevel, caller);
          const projectHidden =
            (caller === 'non-member' && projectLevel === 'private') || (caller === 'external' && projectLevel !== 'public');
          const refusal = status === 401 ? REFUSALS[401] : projectHidden ? REFUSALS[404] : NOT_FOUND;
          for (const path of [`${base(project)}/${id}`, `${base(project)}/${id}/raw`]) {
            const response = await client.get(path);
            assert.equal(response.status, status, `${label}: ${path}`);
            if (status !== 200) assert.deepEqual(response.body, refusal, `${label}: ${path}`);
          }
        }
      }
    }
  });
});

describe('GET /projects/:id/snippets', () => {
  test("answers the ProjectSnippet entity in 8.12's order, with its author, a null expires_at and its web_url", async () => {
    const created = await newSnippet(world.reporter.client, { title: 'entity', file_name: 'entity.rb' });
    const response = await world.guest.client.get(base());
    assert.equal(response.status, 200);
    const shown = response.body.find((snippet: any) => snippet.id === created.id);
    assert.deepEqual(Object.keys(shown), ['id', 'title', 'file_name', 'author', 'updated_at', 'created_at', 'expires_at', 'web_url']);
    assert.equal(shown.title, 'entity');
    assert.equal(shown.file_name, 'entity.rb');
    assert.equal(shown.expires_at, null);
    assert.equal(shown.web_url, `${world.project.web_url}/snippets/${created.id}`);
    assert.deepEqual(Object.keys(shown.author), ['name', 'username', 'id', 'state', 'avatar_url', 'web_url']);
    assert.equal(shown.author.id, world.reporter.user.id);
    assert.match(shown.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  test('is paginated, newest first', async () => {
    const paged = await createProjectWorld(app, { people, name: 'paged-snippets', roles: [] });
    const ids: number[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await newSnippet(paged.owner.client, {}, paged)).id);
    const first = await paged.owner.client.get(base(paged), { per_page: 2 });
    assert.deepEqual(
      first.body.map((snippet: any) => snippet.id),
      [ids[2], ids[1]],
    );
    assert.equal(first.headers.get('x-total'), '3');
    assert.equal(first.headers.get('x-total-pages'), '2');
    const second = await paged.owner.client.get(base(paged), { per_page: 2, page: 2 });
    assert.deepEqual(
      second.body.map((snippet: any) => snippet.id),
      [ids[0]],
    );
  });

  test('an unknown project answers 404 Project Not Found', async () => {
    const response = await app.root.get('/projects/999999/snippets');
    assert.deepEqual([response.status, response.body], [404, REFUSALS[404]]);
  });
});

describe('GET /projects/:id/snippets/:snippet_id and /raw', () => {
  test('shows one snippet; raw answers its content as text/plain', async () => {
    const created = await newSnippet(world.owner.client, { code: 'line one\nline two ✓\n' });
    const shown = await world.guest.client.get(`${base()}/${created.id}`);
    assert.equal(shown.status, 200);
    assert.deepEqual(shown.body, created);
    const raw = await world.guest.client.get(`${base()}/${created.id}/raw`);
    assert.equal(raw.status, 200);
    assert.match(raw.headers.get('content-type') ?? '', /^text\/plain/);
    assert.equal(raw.text, 'line one\nline two ✓\n');
  });

  test('an unknown snippet, a snippet of another project or an id that is not one answers 404', async () => {
    const other = await createProjectWorld(app, { people, name: 'other-snippets', roles: [] });
    const elsewhere = await newSnippet(other.owner.client, {}, other);
    for (const id of ['999999', String(elsewhere.id)]) {
      for (const suffix of ['', '/raw']) {
        const response = await app.root.get(`${base()}/${id}${suffix}`);
        assert.deepEqual([response.status, response.body], [404, NOT_FOUND], `${id}${suffix}`);
      }
    }
    assert.equal((await app.root.get(`${base()}/abc`)).status, 404);
    assert.equal((await app.root.get(`${base()}/99999999999`)).status, 404);
  });
});

describe('POST /projects/:id/snippets', () => {
  test('creates a snippet: 201 with the entity; the content is stored from code', async () => {
    const response = await world.reporter.client.post(base(), {
      title: 'made',
      file_name: 'made.rb',
      code: 'puts 1',
      visibility_level: '20',
    });
    assert.equal(response.status, 201);
    assert.deepEqual(Object.keys(response.body), [
      'id',
      'title',
      'file_name',
      'author',
      'updated_at',
      'created_at',
      'expires_at',
      'web_url',
    ]);
    assert.equal(response.body.author.username, world.reporter.user.username);
    const row = await db().selectFrom('snippets').selectAll().where('id', '=', response.body.id).executeTakeFirstOrThrow();
    assert.deepEqual([row.content, row.visibility_level, row.project_id, row.type], ['puts 1', 20, world.id, 'ProjectSnippet']);
  });

  test('the form encoding works as the JSON one', async () => {
    const response = await world.reporter.client.form('POST', base(), {
      title: 'form',
      file_name: 'form.rb',
      code: 'x',
      visibility_level: '10',
    });
    assert.equal(response.status, 201);
  });

  test('a missing or blank parameter answers 400 "<name>" not given, in the order title, file_name, code, visibility_level', async () => {
    const full = { title: 't', file_name: 'f.rb', code: 'c', visibility_level: 0 };
    assert.deepEqual((await world.reporter.client.post(base(), {})).body, { message: '400 (Bad request) "title" not given' });
    for (const name of ['title', 'file_name', 'code', 'visibility_level'] as const) {
      for (const value of [undefined, '', '  ']) {
        const body: Record<string, unknown> = { ...full, [name]: value };
        if (value === undefined) delete body[name];
        const response = await world.reporter.client.post(base(), body);
        assert.deepEqual([response.status, response.body], [400, { message: `400 (Bad request) "${name}" not given` }], `${name}=${value}`);
      }
    }
    const titleFirst = await world.reporter.client.post(base(), { title: ' ', code: 'c' });
    assert.deepEqual(titleFirst.body, { message: '400 (Bad request) "title" not given' });
  });

  test('a visibility level other than 0, 10 or 20 answers 400 "is not included in the list"', async () => {
    for (const level of [5, 30, 'abc']) {
      const response = await world.reporter.client.post(base(), { title: 't', file_name: 'f.rb', code: 'c', visibility_level: level });
      assert.deepEqual(
        [response.status, response.body],
        [400, { message: { visibility_level: ['is not included in the list'] } }],
        String(level),
      );
    }
  });

  test("a file name with other characters answers 400 with GitLab's message; letters of any script, digits, _ - @ . pass", async () => {
    for (const fileName of ['a b.rb', 'dir/file.rb', 'x+y']) {
      const response = await world.reporter.client.post(base(), { title: 't', file_name: fileName, code: 'c', visibility_level: 0 });
      assert.deepEqual([response.status, response.body], [400, { message: { file_name: [FILE_NAME_MESSAGE] } }], fileName);
    }
    await newSnippet(world.reporter.client, { file_name: 'ñandú_2-x@y.rb' });
  });

  test('a level the administrator restricted is refused to users (400), allowed to admins', async () => {
    await setSettings({ restricted_visibility_levels: [20] });
    try {
      const response = await world.owner.client.post(base(), { title: 't', file_name: 'f.rb', code: 'c', visibility_level: 20 });
      assert.deepEqual(
        [response.status, response.body],
        [400, { message: { visibility_level: ['public has been restricted by your GitLab administrator'] } }],
      );
      await newSnippet(app.root, { visibility_level: 20 });
      await newSnippet(world.owner.client, { visibility_level: 10 });
    } finally {
      await setSettings({ restricted_visibility_levels: [] });
    }
  });

  test('a title or file name past 255 characters, or code past 1 MiB, answers 400 "is too long"', async () => {
    const cases: [Record<string, unknown>, string, number][] = [
      [{ title: 'x'.repeat(256) }, 'title', 255],
      [{ file_name: 'x'.repeat(256) }, 'file_name', 255],
      [{ code: 'x'.repeat(1024 * 1024 + 1) }, 'code', 1024 * 1024],
    ];
    for (const [fields, field, limit] of cases) {
      const response = await world.reporter.client.post(base(), {
        title: 't',
        file_name: 'f.rb',
        code: 'c',
        visibility_level: 0,
        ...fields,
      });
      assert.deepEqual(
        [response.status, response.body],
        [400, { message: { [field]: [`is too long (maximum is ${limit} characters)`] } }],
        field,
      );
    }
    await newSnippet(world.reporter.client, { title: 'é'.repeat(255) });
  });

  test('a NUL byte anywhere is refused with 400, and nothing is saved', async () => {
    const before = await db()
      .selectFrom('snippets')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    for (const field of ['title', 'file_name', 'code']) {
      const response = await world.reporter.client.post(base(), {
        title: 't',
        file_name: 'f.rb',
        code: 'c',
        visibility_level: 0,
        [field]: 'a\u0000b',
      });
      assert.equal(response.status, 400, field);
    }
    const after = await db()
      .selectFrom('snippets')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(after.n), Number(before.n));
  });

  test('needs create_project_snippet: reporters and up; guests 403, outsiders 404, anonymous 401', async () => {
    await assertAccess(
      world.clients,
      (client) => client.post(base(), { title: 't', file_name: 'f.rb', code: 'c', visibility_level: 0 }),
      (caller) => expectedStatus('private', caller, { minimum: 'reporter', success: 201 }),
    );
  });

  test('on a public project, non-members may not create snippets: 403', async () => {
    const open = await createProjectWorld(app, { people, name: 'public-create-snippets', visibility: 20 });
    await assertAccess(
      open.clients,
      (client) => client.post(base(open), { title: 't', file_name: 'f.rb', code: 'c', visibility_level: 0 }),
      (caller) => expectedStatus('public', caller, { minimum: 'reporter', success: 201 }),
    );
  });
});

describe('PUT /projects/:id/snippets/:snippet_id', () => {
  test('changes the fields given; blank ones keep their value', async () => {
    const created = await newSnippet(world.developer.client, { title: 'before', code: 'old' });
    const code = await world.developer.client.put(`${base()}/${created.id}`, { code: 'new code', title: '' });
    assert.equal(code.status, 200);
    assert.equal(code.body.title, 'before');
    assert.equal((await world.developer.client.get(`${base()}/${created.id}/raw`)).text, 'new code');
    const renamed = await world.developer.client.put(`${base()}/${created.id}`, {
      title: 'after',
      file_name: 'after.py',
      visibility_level: 10,
    });
    assert.deepEqual([renamed.status, renamed.body.title, renamed.body.file_name], [200, 'after', 'after.py']);
    const row = await db().selectFrom('snippets').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    assert.deepEqual([row.content, row.visibility_level], ['new code', 10]);
    assert.ok(row.updated_at >= row.created_at);
  });

  test('invalid values answer 400 with the messages and change nothing', async () => {
    const created = await newSnippet(world.developer.client, { title: 'kept' });
    const response = await world.developer.client.put(`${base()}/${created.id}`, {
      title: 'changed',
      file_name: 'bad name',
      visibility_level: 7,
    });
    assert.deepEqual(
      [response.status, response.body],
      [400, { message: { visibility_level: ['is not included in the list'], file_name: [FILE_NAME_MESSAGE] } }],
    );
    const long = await world.developer.client.put(`${base()}/${created.id}`, { title: 'x'.repeat(256) });
    assert.deepEqual([long.status, long.body], [400, { message: { title: ['is too long (maximum is 255 characters)'] } }]);
    const nul = await world.developer.client.put(`${base()}/${created.id}`, { code: 'a\u0000b' });
    assert.equal(nul.status, 400);
    assert.equal((await world.developer.client.get(`${base()}/${created.id}`)).body.title, 'kept');
  });

  test('a restricted level is refused when it changes; a snippet already at it may still be edited', async () => {
    const created = await newSnippet(world.developer.client, { visibility_level: 20 });
    await setSettings({ restricted_visibility_levels: [20, 10] });
    try {
      const same = await world.developer.client.put(`${base()}/${created.id}`, { visibility_level: 20, title: 'still public' });
      assert.equal(same.status, 200);
      const changed = await world.developer.client.put(`${base()}/${created.id}`, { visibility_level: 10 });
      assert.deepEqual(
        [changed.status, changed.body],
        [400, { message: { visibility_level: ['internal has been restricted by your GitLab administrator'] } }],
      );
    } finally {
      await setSettings({ restricted_visibility_levels: [] });
    }
  });

  test('an unknown or hidden snippet answers 404 Not found', async () => {
    const open = await createProjectWorld(app, { people, name: 'put-hidden-snippets', visibility: 20, roles: ['stranger'] });
    const hidden = await newSnippet(open.owner.client, { visibility_level: 0 }, open);
    const response = await open.stranger.client.put(`${base(open)}/${hidden.id}`, { title: 'x' });
    assert.deepEqual([response.status, response.body], [404, NOT_FOUND]);
    const unknown = await app.root.put(`${base()}/999999`, { title: 'x' });
    assert.deepEqual([unknown.status, unknown.body], [404, NOT_FOUND]);
  });

  test('only the author and admins change a snippet, whatever the project role: others 403', async () => {
    const open = await createProjectWorld(app, { people, name: 'put-access-snippets', visibility: 20 });
    const created = await newSnippet(open.developer.client, { visibility_level: 20 }, open);
    const allowed: Caller[] = ['developer', 'admin'];
    await assertAccess(
      open.clients,
      (client) => client.put(`${base(open)}/${created.id}`, { title: 'edited' }),
      (caller) => (caller === 'anonymous' ? 401 : allowed.includes(caller) ? 200 : 403),
    );
    const refused = await open.master.client.put(`${base(open)}/${created.id}`, { title: 'edited' });
    assert.deepEqual(refused.body, REFUSALS[403]);
  });
});

describe('DELETE /projects/:id/snippets/:snippet_id', () => {
  test('removes the snippet and answers its record, every column; its notes and award emoji go with it', async () => {
    const created = await newSnippet(world.developer.client, { title: 'doomed', code: 'bye', visibility_level: 10 });
    const time = new Date().toISOString();
    const note = await db()
      .insertInto('notes')
      .values({
        project_id: world.id,
        noteable_type: 'Snippet',
        noteable_id: created.id,
        author_id: world.guest.user.id,
        note: 'hi',
        system: 0,
        created_at: time,
        updated_at: time,
        commit_id: null,
        path: null,
        line: null,
        line_type: null,
        attachment: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('award_emoji')
      .values([
        {
          name: 'thumbsup',
          user_id: world.guest.user.id,
          awardable_type: 'Snippet',
          awardable_id: created.id,
          created_at: time,
          updated_at: time,
        },
        { name: 'tada', user_id: world.guest.user.id, awardable_type: 'Note', awardable_id: note.id, created_at: time, updated_at: time },
      ])
      .execute();
    const response = await world.developer.client.delete(`${base()}/${created.id}`);
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body), [
      'id',
      'title',
      'content',
      'author_id',
      'project_id',
      'created_at',
      'updated_at',
      'file_name',
      'expires_at',
      'type',
      'visibility_level',
    ]);
    assert.deepEqual(
      [
        response.body.id,
        response.body.title,
        response.body.content,
        response.body.author_id,
        response.body.project_id,
        response.body.type,
        response.body.visibility_level,
        response.body.expires_at,
      ],
      [created.id, 'doomed', 'bye', world.developer.user.id, world.id, 'ProjectSnippet', 10, null],
    );
    assert.deepEqual((await world.developer.client.get(`${base()}/${created.id}`)).body, NOT_FOUND);
    assert.equal(await db().selectFrom('notes').select('id').where('id', '=', note.id).executeTakeFirst(), undefined);
    const awards = await db()
      .selectFrom('award_emoji')
      .select('id')
      .where((eb) =>
        eb.or([
          eb.and([eb('awardable_type', '=', 'Snippet'), eb('awardable_id', '=', created.id)]),
          eb.and([eb('awardable_type', '=', 'Note'), eb('awardable_id', '=', note.id)]),
        ]),
      )
      .execute();
    assert.deepEqual(awards, []);
  });

  test('an unknown snippet, or one the caller may not see, answers 404 Snippet Not Found', async () => {
    const open = await createProjectWorld(app, { people, name: 'delete-hidden-snippets', visibility: 20, roles: ['stranger'] });
    const hidden = await newSnippet(open.owner.client, { visibility_level: 0 }, open);
    const response = await open.stranger.client.delete(`${base(open)}/${hidden.id}`);
    assert.deepEqual([response.status, response.body], [404, SNIPPET_NOT_FOUND]);
    const unknown = await app.root.delete(`${base()}/999999`);
    assert.deepEqual([unknown.status, unknown.body], [404, SNIPPET_NOT_FOUND]);
    assert.equal((await open.owner.client.get(`${base(open)}/${hidden.id}`)).status, 200);
  });

  test('only the author and admins remove a snippet they see: others 403', async () => {
    const open = await createProjectWorld(app, { people, name: 'delete-access-snippets', visibility: 20 });
    const allowed: Caller[] = ['developer', 'admin'];
    await assertAccess(
      open.clients,
      async (client) => {
        const created = await newSnippet(open.developer.client, { visibility_level: 20 }, open);
        return client.delete(`${base(open)}/${created.id}`);
      },
      (caller) => (caller === 'anonymous' ? 401 : allowed.includes(caller) ? 200 : 403),
    );
    const created = await newSnippet(open.developer.client, { visibility_level: 20 }, open);
    const refused = await open.master.client.delete(`${base(open)}/${created.id}`);
    assert.deepEqual([refused.status, refused.body], [403, REFUSALS[403]]);
  });
});

describe('the snippets feature', () => {
  test('turned off, nobody reads, writes or removes snippets, not even the owner or an admin: 403', async () => {
    const off = await createProjectWorld(app, { people, name: 'no-snippets', visibility: 20, roles: ['reporter'] });
    const created = await newSnippet(off.owner.client, { visibility_level: 20 }, off);
    const disabled = await off.owner.client.put(`/projects/${off.id}`, { snippets_enabled: false });
    assert.equal(disabled.status, 200);
    assert.equal(disabled.body.snippets_enabled, false);
    for (const client of [off.reporter.client, off.owner.client, app.root]) {
      const calls = [
        client.get(base(off)),
        client.get(`${base(off)}/${created.id}`),
        client.get(`${base(off)}/${created.id}/raw`),
        client.post(base(off), { title: 't', file_name: 'f.rb', code: 'c', visibility_level: 0 }),
        client.put(`${base(off)}/${created.id}`, { title: 'x' }),
        client.delete(`${base(off)}/${created.id}`),
      ];
      for (const response of await Promise.all(calls)) assert.deepEqual([response.status, response.body], [403, REFUSALS[403]]);
    }
  });
});

describe("a project's removal", () => {
  test('removes its snippets, their notes and their award emoji', async () => {
    const doomed = await createProjectWorld(app, { people, name: 'doomed-snippets', roles: [] });
    const created = await newSnippet(doomed.owner.client, {}, doomed);
    const time = new Date().toISOString();
    const note = await db()
      .insertInto('notes')
      .values({
        project_id: doomed.id,
        noteable_type: 'Snippet',
        noteable_id: created.id,
        author_id: doomed.owner.user.id,
        note: 'hi',
        system: 0,
        created_at: time,
        updated_at: time,
        commit_id: null,
        path: null,
        line: null,
        line_type: null,
        attachment: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('award_emoji')
      .values([
        {
          name: 'thumbsup',
          user_id: doomed.owner.user.id,
          awardable_type: 'Snippet',
          awardable_id: created.id,
          created_at: time,
          updated_at: time,
        },
        { name: 'tada', user_id: doomed.owner.user.id, awardable_type: 'Note', awardable_id: note.id, created_at: time, updated_at: time },
      ])
      .execute();
    const removed = await doomed.owner.client.delete(`/projects/${doomed.id}`);
    assert.equal(removed.status, 200);
    assert.equal(await db().selectFrom('snippets').select('id').where('id', '=', created.id).executeTakeFirst(), undefined);
    assert.equal(await db().selectFrom('notes').select('id').where('id', '=', note.id).executeTakeFirst(), undefined);
    const awards = await db()
      .selectFrom('award_emoji')
      .select('id')
      .where('awardable_id', 'in', [created.id, note.id])
      .where('awardable_type', 'in', ['Snippet', 'Note'])
      .execute();
    assert.deepEqual(awards, []);
  });
});
