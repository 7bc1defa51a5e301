import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { seedCommit } from '../support/repo';
import { createGroupRow, grantProjectRole } from '../support/roles';
import type { WebClient } from '../support/web';
import { pathOf, webClients } from '../support/web-world';

/**
 * The reading pages at GitLab 8.12's URLs, through the same policy as the API: a private project
 * or a hidden user's projects are the same 404 as a missing one, for anonymous visitors and
 * signed-in users alike.
 */
let app: TestApp;
type Account = Awaited<ReturnType<TestApp['createUser']>>;
let owner: Account;
let member: Account;
let guest: Account;
let stranger: Account;
let publicProject: any;
let privateProject: any;
let internalProject: any;
let web: Record<'anonymous' | 'stranger' | 'member' | 'guest' | 'owner', WebClient>;

const README = [
  '# Welcome to the project',
  '',
  '| col | other |',
  '|-----|-------|',
  '| ~~old~~ | new |',
  '',
  '- [x] shipped',
  '',
  '```ruby',
  'def hello; end',
  '```',
  '',
  '<img src=x onerror="window.__pwned = 1"><script>window.__pwned = 1</script>',
  '',
  '[a link](javascript:window.__pwned=1)',
].join('\n');

async function project(fields: Record<string, unknown>) {
  const created = await owner.client.post('/projects', fields);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body;
}

before(async () => {
  app = await startApp();
  owner = await app.createUser({ name: 'Olivia <Owner>' });
  member = await app.createUser();
  guest = await app.createUser();
  stranger = await app.createUser();
  publicProject = await project({ name: 'open-book', visibility_level: 20, description: 'Read <em>me</em> & more' });
  privateProject = await project({ name: 'secret-plans', visibility_level: 0, description: 'top secret' });
  internalProject = await project({ name: 'in-house', visibility_level: 10 });
  await seedCommit(app, publicProject.id, { files: { 'README.md': README }, message: 'Add the README\n' });
  await seedCommit(app, privateProject.id, { files: { 'README.md': '# Secret readme\n' }, message: 'Secret commit\n' });
  await grantProjectRole(app, privateProject.id, member.user.id, 30);
  await grantProjectRole(app, privateProject.id, guest.user.id, 10);
  web = await webClients(app, { stranger, member, guest, owner });
});
after(() => app?.close());

describe("GET /:namespace/:project (a project's home)", () => {
  test('a public project opens from its API web_url for everyone', async () => {
    for (const [who, client] of Object.entries(web)) {
      const page = await client.get(pathOf(publicProject.web_url));
      assert.equal(page.status, 200, who);
      assert.match(page.text, /<h1>[^<]*\/ open-book/, who);
    }
  });

  test('name, description escaped, HTTP and SSH clone URLs, and the last commit', async () => {
    const page = await web.anonymous.get(pathOf(publicProject.web_url));
    assert.match(page.text, /<p class="description">Read &lt;em&gt;me&lt;\/em&gt; &amp; more<\/p>/);
    assert.ok(page.text.includes(`<code>${publicProject.http_url_to_repo}</code>`));
    assert.ok(page.text.includes(`<code>${publicProject.ssh_url_to_repo}</code>`));
    assert.match(page.text, /<strong>Add the README<\/strong>/);
  });

  test('the README rendered: heading, table, strikethrough, task list, highlighted code; nothing hostile', async () => {
    const page = await web.anonymous.get(pathOf(publicProject.web_url));
    assert.match(page.text, /<h2>README.md<\/h2>/);
    assert.match(page.text, /<h1>Welcome to the project<\/h1>/);
    assert.match(page.text, /<table>/);
    assert.match(page.text, /<s>old<\/s>/);
    assert.match(page.text, /class="task-list-item"><input type="checkbox"[^>]* checked/);
    assert.match(page.text, /<code class="language-ruby"><span class="hljs-keyword">def<\/span>/);
    assert.doesNotMatch(page.text, /<script|\sonerror=|href="javascript:/i);
  });

  test('a private project: 404 to anonymous visitors and non-members, as for a missing project', async () => {
    const missing = await web.anonymous.get(`/${owner.user.username}/no-such-project`);
    assert.equal(missing.status, 404);
    for (const who of ['anonymous', 'stranger'] as const) {
      const page = await web[who].get(pathOf(privateProject.web_url));
      assert.equal(page.status, 404, who);
      assert.doesNotMatch(page.text, /secret/i, who);
      // The same page as a missing one, but for the address bar.
      assert.equal(page.text.match(/<main[\s\S]*<\/main>/)?.[0], missing.text.match(/<main[\s\S]*<\/main>/)?.[0]);
    }
  });

  test('a private project: 200 to a member, with its README', async () => {
    const page = await web.member.get(pathOf(privateProject.web_url));
    assert.equal(page.status, 200);
    assert.match(page.text, /<h1>Secret readme<\/h1>/);
  });

  test('a guest of a private project sees the project but not its code', async () => {
    const page = await web.guest.get(pathOf(privateProject.web_url));
    assert.equal(page.status, 200);
    assert.match(page.text, /top secret/);
    assert.doesNotMatch(page.text, /Secret readme|Secret commit|\.git<\/code>/);
  });

  test('an internal project: 404 to anonymous visitors, 200 to any signed-in user', async () => {
    assert.equal((await web.anonymous.get(pathOf(internalProject.web_url))).status, 404);
    assert.equal((await web.stranger.get(pathOf(internalProject.web_url))).status, 200);
  });

  test('an empty repository says so', async () => {
    const page = await web.owner.get(pathOf(internalProject.web_url));
    assert.match(page.text, /The repository for this project is empty\./);
  });

  test('the clone URL opened in a browser goes to the project; other letters go to its own path', async () => {
    const path = pathOf(publicProject.web_url);
    const cloned = await web.anonymous.get(`${path}.git`);
    assert.equal(cloned.status, 301);
    assert.equal(cloned.headers.get('location'), path);
    const shouted = await web.anonymous.get(path.toUpperCase());
    assert.equal(shouted.status, 301);
    assert.equal(shouted.headers.get('location'), path);
  });

  test('pages are not cached by others and cannot be framed', async () => {
    const page = await web.anonymous.get(pathOf(publicProject.web_url));
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
  });
});

describe('GET / and /explore/projects', () => {
  test('anonymous: public projects only', async () => {
    const page = await web.anonymous.get('/');
    assert.match(page.text, /<h1>Public projects<\/h1>/);
    assert.match(page.text, /open-book/);
    assert.doesNotMatch(page.text, /secret-plans|in-house/);
    assert.match(page.text, /<a href="\/users\/sign_in">Sign in<\/a>/);
  });

  test('signed in: your projects', async () => {
    const page = await web.member.get('/');
    assert.match(page.text, /<h1>Your projects<\/h1>/);
    assert.match(page.text, /secret-plans/);
    assert.doesNotMatch(page.text, /open-book/);
  });

  test('explore: what the caller may see', async () => {
    const anonymous = await web.anonymous.get('/explore/projects');
    assert.match(anonymous.text, /open-book/);
    assert.doesNotMatch(anonymous.text, /in-house|secret-plans/);
    const stranger = await web.stranger.get('/explore/projects');
    assert.match(stranger.text, /open-book/);
    assert.match(stranger.text, /in-house/);
    assert.doesNotMatch(stranger.text, /secret-plans/);
  });
});

describe('GET /u/:username and /:username', () => {
  test("the user's name escaped, and their projects the caller may see", async () => {
    for (const path of [pathOf(owner.user.web_url), `/${owner.user.username}`]) {
      const anonymous = await web.anonymous.get(path);
      assert.equal(anonymous.status, 200, path);
      assert.match(anonymous.text, /<h1>Olivia &lt;Owner&gt;<\/h1>/);
      assert.match(anonymous.text, /open-book/);
      assert.doesNotMatch(anonymous.text, /secret-plans|in-house/);
    }
    const memberView = await web.member.get(`/u/${owner.user.username}`);
    assert.match(memberView.text, /secret-plans/);
  });

  test('an unknown user: 404', async () => {
    assert.equal((await web.anonymous.get('/u/nobody-here')).status, 404);
    assert.equal((await web.anonymous.get('/nobody-here')).status, 404);
  });
});

describe('GET /groups/:path', () => {
  test('a public group with its projects; a private group is 404 to those outside it', async () => {
    const groupId = await createGroupRow(app, 'open-group', owner.user.id, 20);
    const hiddenId = await createGroupRow(app, 'hidden-group', owner.user.id, 0);
    assert.ok(groupId && hiddenId);
    const created = await app.root.post('/projects', { name: 'group-tool', namespace_id: groupId, visibility_level: 20 });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const page = await web.anonymous.get('/groups/open-group');
    assert.equal(page.status, 200);
    assert.match(page.text, /<h1>open-group<\/h1>/);
    assert.match(page.text, /href="\/open-group\/group-tool"/);
    assert.equal((await web.stranger.get('/groups/hidden-group')).status, 404);
    assert.equal((await web.anonymous.get('/groups/no-such-group')).status, 404);
    // GitLab's `/:namespace` sends a group's path on to the group's page.
    const redirected = await web.anonymous.get('/open-group');
    assert.equal(redirected.status, 302);
    assert.equal(redirected.headers.get('location'), '/groups/open-group');
  });
});

describe('the other doors keep their paths', () => {
  test('the API, its 404s, health and git over HTTP are not pages', async () => {
    const api = await web.anonymous.get('/api/v3');
    assert.equal(api.status, 404);
    assert.match(api.headers.get('content-type') ?? '', /application\/json/);
    assert.equal((await web.anonymous.get('/api/v3/projects')).status, 401);
    // A page's `/:namespace/:project` does not make other methods on two-segment paths 405s.
    const posted = await fetch(`${app.url}/api/v3`, { method: 'POST' });
    assert.equal(posted.status, 404);
    assert.deepEqual(await posted.json(), { message: '404 Not Found' });
    assert.equal((await web.anonymous.get('/-/health')).status, 200);
    const refs = await web.anonymous.get(`${pathOf(publicProject.web_url)}.git/info/refs?service=git-upload-pack`);
    assert.equal(refs.status, 200);
    assert.equal(refs.headers.get('content-type'), 'application/x-git-upload-pack-advertisement');
  });

  test('the stylesheet, cached for a year', async () => {
    const css = await web.anonymous.get('/assets/forge.css');
    assert.equal(css.status, 200);
    assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
    assert.match(css.headers.get('cache-control') ?? '', /max-age=31536000/);
    assert.ok(!css.setCookies.length, 'no cookie for an asset');
  });
});
