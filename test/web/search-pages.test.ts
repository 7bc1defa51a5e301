import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startApp, type TestApp } from '../support/app';
import { createIssue } from '../support/create';
import { createMergeRequest } from '../support/merge-requests';
import { createPeople, createProjectWorld, type People, type ProjectWorld } from '../support/project-world';
import type { SeedCommit } from '../support/repo';
import type { WebClient } from '../support/web';
import { webClients } from '../support/web-world';

/** `/search`: each scope, what each role finds (as the API's rules), and hostile terms. */
const ROLES_USED = ['reporter', 'guest', 'stranger'] as const;
let app: TestApp;
let people: People<'reporter' | 'guest' | 'stranger'>;
let open: ProjectWorld<'reporter' | 'guest' | 'stranger'>;
let secret: ProjectWorld<'reporter' | 'guest' | 'stranger'>;
let web: Record<'anonymous' | 'owner' | 'reporter' | 'guest' | 'stranger', WebClient>;

const search = (client: WebClient, query: Record<string, string>) => client.get(`/search?${new URLSearchParams(query)}`);

/** The page's text for a search that must answer 200. */
async function found(client: WebClient, query: Record<string, string>): Promise<string> {
  const page = await search(client, query);
  assert.equal(page.status, 200, page.text.slice(0, 300));
  return page.text;
}

before(async () => {
  app = await startApp();
  people = await createPeople(app, ROLES_USED);
  const commits = (name: string): SeedCommit[] => [
    { files: { 'src/app.rb': `# ${name}\nputs "needle_${name}_code"\n`, 'weird.txt': 'a.*b [x] -- --help\n<script>alert(1)</script>\n' } },
    { branch: 'feature', startRef: 'master', files: { 'feature.txt': 'more\n' } },
  ];
  open = await createProjectWorld(app, { people, roles: ROLES_USED, name: 'open-searchable', visibility: 20, commits: commits('open') });
  secret = await createProjectWorld(app, {
    people,
    roles: ROLES_USED,
    name: 'secret-searchable',
    visibility: 0,
    commits: commits('secret'),
  });
  await createIssue(people.owner.client, open.id, { title: 'Needle open issue' });
  await createIssue(people.owner.client, open.id, { title: 'Needle confidential issue', confidential: true });
  await createIssue(people.guest.client, open.id, { title: 'Needle guest confidential', confidential: true });
  await createIssue(people.owner.client, secret.id, { title: 'Needle secret issue' });
  const owner = people.owner.user.id;
  await createMergeRequest(app, { targetProjectId: open.id, sourceBranch: 'feature', title: 'Needle open change', authorId: owner });
  await createMergeRequest(app, { targetProjectId: secret.id, sourceBranch: 'feature', title: 'Needle secret change', authorId: owner });
  web = await webClients(app, people);
});
after(() => app?.close());

describe('GET /search', () => {
  test('without a term: the form alone; every page carries a search box in its header', async () => {
    const page = await found(web.anonymous, {});
    assert.match(page, /<form class="filters" method="get" action="\/search" role="search">/);
    assert.doesNotMatch(page, /aria-label="Search scopes"/);
    const home = await web.anonymous.get('/explore/projects');
    assert.match(home.text, /<form class="search" method="get" action="\/search" role="search"><label for="site-search"/);
  });

  test('projects: those the caller may read, by name', async () => {
    const anonymous = await found(web.anonymous, { search: 'searchable', scope: 'projects' });
    assert.match(anonymous, /open-searchable/);
    assert.doesNotMatch(anonymous, /secret-searchable/);
    assert.doesNotMatch(await found(web.stranger, { search: 'searchable' }), /secret-searchable/);
    assert.match(await found(web.guest, { search: 'searchable' }), /secret-searchable/);
  });

  test('issues: a private project’s never to non-members, a confidential one only to those who may read it', async () => {
    const seen = async (client: WebClient) => {
      const page = await found(client, { search: 'needle', scope: 'issues' });
      return ['open issue', 'confidential issue', 'guest confidential', 'secret issue'].filter((title) => page.includes(`Needle ${title}`));
    };
    assert.deepEqual(await seen(web.anonymous), ['open issue']);
    assert.deepEqual(await seen(web.stranger), ['open issue']);
    // A guest reads their own confidential issue, not the owner's; the private project's issues are theirs to read.
    assert.deepEqual(await seen(web.guest), ['open issue', 'guest confidential', 'secret issue']);
    assert.deepEqual(await seen(web.reporter), ['open issue', 'confidential issue', 'guest confidential', 'secret issue']);
    assert.deepEqual(await seen(web.owner), ['open issue', 'confidential issue', 'guest confidential', 'secret issue']);
  });

  test('issues link to their page and are matched in the description too', async () => {
    const issue = await createIssue(people.owner.client, open.id, { title: 'Plain title', description: 'has a haystackword inside' });
    const page = await found(web.anonymous, { search: 'HAYSTACKWORD', scope: 'issues' });
    assert.match(page, new RegExp(`href="/${open.path}/issues/${issue.iid}">Plain title</a>`));
  });

  test('merge requests: a private project’s to reporters and up only', async () => {
    const seen = async (client: WebClient) => {
      const page = await found(client, { search: 'needle', scope: 'merge_requests' });
      return ['open change', 'secret change'].filter((title) => page.includes(`Needle ${title}`));
    };
    assert.deepEqual(await seen(web.anonymous), ['open change']);
    assert.deepEqual(await seen(web.stranger), ['open change']);
    assert.deepEqual(await seen(web.guest), ['open change']);
    assert.deepEqual(await seen(web.reporter), ['open change', 'secret change']);
  });

  test('code: lines of the default branch, each linking to its line; a private project’s code only to reporters and up', async () => {
    const anonymous = await found(web.anonymous, { search: 'needle_', scope: 'blobs' });
    assert.match(anonymous, new RegExp(`href="/${open.path}/blob/master/src/app.rb#L2">`));
    assert.match(anonymous, /puts &quot;needle_open_code&quot;/);
    assert.doesNotMatch(anonymous, /needle_secret_code/);
    for (const client of [web.stranger, web.guest])
      assert.doesNotMatch(await found(client, { search: 'needle_', scope: 'blobs' }), /needle_secret_code/);
    const reporter = await found(web.reporter, { search: 'needle_', scope: 'blobs' });
    assert.match(reporter, /needle_secret_code/);
    assert.match(reporter, /needle_open_code/);
  });

  test('within one project (project_id): code by default, only that project’s', async () => {
    const page = await found(web.reporter, { search: 'needle_', project_id: String(open.id) });
    assert.match(page, /needle_open_code/);
    assert.doesNotMatch(page, /needle_secret_code/);
    assert.match(page, /name="project_id" value=/);
    const issues = await found(web.reporter, { search: 'needle', scope: 'issues', project_id: String(secret.id) });
    assert.match(issues, /Needle secret issue/);
    assert.doesNotMatch(issues, /Needle open issue/);
  });

  test('within a project the caller may not read, or that does not exist: the same 404', async () => {
    for (const client of [web.anonymous, web.stranger]) {
      const page = await search(client, { search: 'needle', scope: 'issues', project_id: String(secret.id) });
      assert.equal(page.status, 404);
      assert.doesNotMatch(page.text, /Needle secret/);
    }
    assert.equal((await search(web.owner, { search: 'needle', project_id: '999999' })).status, 404);
    assert.equal((await search(web.owner, { search: 'needle', project_id: 'x; drop' })).status, 404);
  });

  test('a guest of a private project finds none of its code within it', async () => {
    const page = await found(web.guest, { search: 'needle_', scope: 'blobs', project_id: String(secret.id) });
    assert.doesNotMatch(page, /needle_secret_code/);
    assert.match(page, /Nothing found/);
  });

  test('paged, the term and scope kept in the links', async () => {
    const world = await createProjectWorld(app, { people, roles: ROLES_USED, name: 'many-issues', visibility: 20 });
    for (let i = 1; i <= 21; i++) await createIssue(people.owner.client, world.id, { title: `Pagey number ${i}` });
    const first = await found(web.anonymous, { search: 'pagey', scope: 'issues' });
    assert.equal(first.match(/Pagey number/g)?.length, 20);
    assert.match(first, /href="\/search\?search=pagey&amp;scope=issues&amp;page=2">Next/);
    const second = await found(web.anonymous, { search: 'pagey', scope: 'issues', page: '2' });
    assert.equal(second.match(/Pagey number/g)?.length, 1);
  });
});

describe('GET /search with hostile input', () => {
  test('regex metacharacters are taken literally, in code and in lists', async () => {
    const code = await found(web.anonymous, { search: 'a.*b [x]', scope: 'blobs' });
    assert.match(code, /weird\.txt:1/);
    // `.*` as a pattern would match every line; literally, it matches none of these.
    assert.match(await found(web.anonymous, { search: 'needle.*code', scope: 'blobs' }), /Nothing found/);
    assert.match(await found(web.anonymous, { search: '%', scope: 'issues' }), /Nothing found/);
    assert.match(await found(web.anonymous, { search: '_', scope: 'projects' }), /0 projects/);
  });

  test('terms that look like options are searched for, never obeyed', async () => {
    const marker = path.join(tmpdir(), `forge-search-option-${process.pid}`);
    for (const term of ['--help', '-e', `--open-files-in-pager=touch ${marker}`, '--no-index', '-O/bin/touch', '--', '-']) {
      const page = await found(web.anonymous, { search: term, scope: 'blobs' });
      assert.doesNotMatch(page, /usage: git grep/);
    }
    assert.equal(existsSync(marker), false);
    assert.match(await found(web.anonymous, { search: '--help', scope: 'blobs' }), /weird\.txt:1/);
  });

  test('markup in a term or a matching line is escaped', async () => {
    const page = await found(web.anonymous, { search: '<script>', scope: 'blobs' });
    assert.doesNotMatch(page, /<script>alert/);
    assert.match(page, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(page, /value="&lt;script&gt;"/);
  });

  test('a very long term is a 400 page; one at the limit is searched; blanks and control characters are one space', async () => {
    for (const scope of ['projects', 'issues', 'merge_requests', 'blobs']) {
      const long = await search(web.anonymous, { search: 'x'.repeat(5000), scope });
      assert.equal(long.status, 400);
      assert.match(await found(web.anonymous, { search: 'y'.repeat(200), scope }), /Nothing found|0 projects/);
    }
    assert.match(await found(web.anonymous, { search: 'needle_open\n\t', scope: 'blobs' }), /needle_open_code/);
    assert.equal((await search(web.anonymous, { search: 'needle\u0000', scope: 'blobs' })).status, 400);
    assert.match(await found(web.anonymous, { search: ' \n\t ', scope: 'blobs' }), /<form class="filters"/);
  });

  test('an unknown scope or page falls back to the defaults', async () => {
    assert.match(await found(web.anonymous, { search: 'searchable', scope: 'users; rm' }), /open-searchable/);
    assert.match(await found(web.anonymous, { search: 'searchable', scope: 'projects', page: '-1' }), /open-searchable/);
    assert.equal((await search(web.anonymous, { search: 'needle', scope: 'issues', page: '99999' })).status, 200);
  });
});
