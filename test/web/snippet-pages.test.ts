import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import type { Person } from '../support/project-world';
import { WebClient } from '../support/web';
import { createWebWorld, submit, type WebWorld } from '../support/web-world';

/** The snippet pages: a project's list, one snippet with its file and comments, its raw text, the form; visibility as the API's. */
let app: TestApp;
let owner: Person;
let open: any;
let secret: any;
let path: string;
let publicSnippet: any;
let internalSnippet: any;
let privateSnippet: any;
let web: WebWorld<'reporter' | 'stranger'>['web'];

const snippet = (projectId: number, title: string, level: number, code = 'puts "hello"\n') =>
  owner.client.post(`/projects/${projectId}/snippets`, { title, file_name: 'hello.rb', code, visibility_level: level }).then((r) => r.body);

before(async () => {
  app = await startApp();
  ({
    owner,
    project: open,
    base: path,
    web,
  } = await createWebWorld(app, { roles: ['reporter', 'stranger'], name: 'snippety', visibility: 20 }));
  secret = (await owner.client.post('/projects', { name: 'hidden-snippety', visibility_level: 0 })).body;
  publicSnippet = await snippet(open.id, 'Public <i>snippet</i>', 20, 'def greet\n  puts "<hello>"\nend\n');
  internalSnippet = await snippet(open.id, 'Internal snippet', 10);
  privateSnippet = await snippet(open.id, 'Private snippet', 0, 'the private text\n');
  await snippet(secret.id, 'Snippet of a private project', 20);
});
after(() => app?.close());

describe('GET /:namespace/:project/snippets', () => {
  test('lists the snippets each caller may read: public to anyone, internal to signed-in users, private to members', async () => {
    const anonymous = (await web.anonymous.get(`${path}/snippets`)).text;
    assert.match(anonymous, /Public &lt;i&gt;snippet&lt;\/i&gt;/);
    assert.doesNotMatch(anonymous, /Internal snippet|Private snippet/);
    const stranger = (await web.stranger.get(`${path}/snippets`)).text;
    assert.match(stranger, /Internal snippet/);
    assert.doesNotMatch(stranger, /Private snippet/);
    assert.match((await web.reporter.get(`${path}/snippets`)).text, /Private snippet/);
  });

  test('a private project: 404 to anonymous visitors and non-members, as for a missing project', async () => {
    const secretPath = new URL(secret.web_url).pathname;
    for (const client of [web.anonymous, web.stranger]) {
      const page = await client.get(`${secretPath}/snippets`);
      assert.equal(page.status, 404);
      assert.doesNotMatch(page.text, /Snippet of a private project/);
    }
    assert.match((await web.owner.get(`${secretPath}/snippets`)).text, /Snippet of a private project/);
  });

  test('the project navigation links to it', async () => {
    assert.match((await web.anonymous.get(path)).text, new RegExp(`href="${path}/snippets"`));
  });
});

describe('GET /:namespace/:project/snippets/:id', () => {
  test("the API's web_url opens the snippet: its title, author and file highlighted with numbered lines", async () => {
    const page = await web.anonymous.get(new URL(publicSnippet.web_url).pathname);
    assert.equal(page.status, 200);
    assert.match(page.text, /<h1>Public &lt;i&gt;snippet&lt;\/i&gt;<\/h1>/);
    assert.match(page.text, new RegExp(owner.user.name));
    assert.match(page.text, /<tr id="L2">/);
    assert.match(page.text, /hljs-keyword/);
    assert.match(page.text, /&lt;hello&gt;/);
    assert.doesNotMatch(page.text, /<hello>/);
  });

  test('a snippet the caller may not read is 404, like a missing one', async () => {
    assert.equal((await web.anonymous.get(`${path}/snippets/${internalSnippet.id}`)).status, 404);
    const hidden = await web.stranger.get(`${path}/snippets/${privateSnippet.id}`);
    assert.equal(hidden.status, 404);
    assert.doesNotMatch(hidden.text, /the private text/);
    assert.equal((await web.reporter.get(`${path}/snippets/${privateSnippet.id}`)).status, 200);
    assert.equal((await web.owner.get(`${path}/snippets/999999`)).status, 404);
    assert.equal((await web.owner.get(`${path}/snippets/nope`)).status, 404);
  });

  test('comments: a signed-in reader posts one, it is shown rendered; anonymous visitors are asked to sign in', async () => {
    const snippetPath = `${path}/snippets/${publicSnippet.id}`;
    assert.match((await web.anonymous.get(snippetPath)).text, /Sign in<\/a> to comment/);
    const posted = await submit(web.stranger, snippetPath, `${snippetPath}/notes`, { note: 'Nice **one**' });
    assert.equal(posted.status, 303);
    assert.match(posted.headers.get('location')!, new RegExp(`${snippetPath}#note_\\d+$`));
    assert.match((await web.anonymous.get(snippetPath)).text, /Nice <strong>one<\/strong>/);
  });

  test('a comment on a snippet the caller may not read is refused', async () => {
    const page = await web.reporter.get(`${path}/snippets/${privateSnippet.id}`);
    const token = WebClient.csrfToken(page.text);
    const refused = await web.stranger.post(`${path}/snippets/${privateSnippet.id}/notes`, { note: 'sneaky', authenticity_token: token });
    assert.notEqual(refused.status, 303);
  });
});

describe('GET /:namespace/:project/snippets/:id/raw', () => {
  test('the content as text/plain, never sniffed', async () => {
    const raw = await web.anonymous.get(`${path}/snippets/${publicSnippet.id}/raw`);
    assert.equal(raw.status, 200);
    assert.match(raw.headers.get('content-type')!, /^text\/plain/);
    assert.equal(raw.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(raw.text, 'def greet\n  puts "<hello>"\nend\n');
  });

  test('a private snippet is 404 to those who may not read it', async () => {
    assert.equal((await web.stranger.get(`${path}/snippets/${privateSnippet.id}/raw`)).status, 404);
    assert.equal((await web.anonymous.get(`${path}/snippets/${privateSnippet.id}/raw`)).status, 404);
    assert.equal((await web.owner.get(`${path}/snippets/${privateSnippet.id}/raw`)).text, 'the private text\n');
  });
});

describe('GET and POST /:namespace/:project/snippets/new', () => {
  test('anonymous visitors are sent to sign in; readers who may not create snippets get 404', async () => {
    const anonymous = await web.anonymous.get(`${path}/snippets/new`);
    assert.equal(anonymous.status, 303);
    assert.match(anonymous.headers.get('location')!, /^\/users\/sign_in\?redirect_to=/);
    assert.equal((await web.stranger.get(`${path}/snippets/new`)).status, 404);
  });

  test('a reporter creates a snippet and lands on it', async () => {
    const created = await submit(web.reporter, `${path}/snippets/new`, `${path}/snippets`, {
      title: 'Made on the web',
      file_name: 'notes.md',
      content: '# Notes\n',
      visibility_level: '10',
    });
    assert.equal(created.status, 303);
    const page = await web.reporter.get(created.headers.get('location')!);
    assert.match(page.text, /Made on the web/);
    assert.match(page.text, /Internal/);
  });

  test('a bad file name shows the form again with the reason, what was typed kept', async () => {
    const refused = await submit(web.reporter, `${path}/snippets/new`, `${path}/snippets`, {
      title: 'Bad name',
      file_name: 'a b/c',
      content: 'x',
      visibility_level: '0',
    });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /can contain only letters/);
    assert.match(refused.text, /value="Bad name"/);
  });
});
