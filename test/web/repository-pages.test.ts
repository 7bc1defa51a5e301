import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { seedCommit, seedCommits } from '../support/repo';
import type { WebClient } from '../support/web';
import { pathOf, webClients } from '../support/web-world';

/**
 * The repository pages at GitLab 8.12's URLs (tree, blob, raw, blame, commits, commit, compare,
 * branches, tags, the ref switcher), through the same policy as the API: a private project's pages
 * are the same 404 as a missing project's, for anonymous visitors and non-members alike.
 */
let app: TestApp;
type Account = Awaited<ReturnType<TestApp['createUser']>>;
let owner: Account;
let stranger: Account;
let base: string;
let hiddenBase: string;
let firstSha: string;
let secondSha: string;
let anonymous: WebClient;
let strangerWeb: WebClient;
let ownerWeb: WebClient;

const HOSTILE_NAME = '<img src=x onerror=alert(1)>.txt';
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d6a3a40000000049454e44ae426082',
  'hex',
);
const GUIDE = [
  '# Guide',
  '',
  'Read **this**.',
  '',
  '<script>window.__pwned = 1</script>',
  '<img src=x onerror="window.__pwned = 2">',
  '',
].join('\n');
const APP_V1 = ['function greet(name) {', '  /* a comment', '     over lines */', "  return 'hello ' + name;", '}', ''].join('\n');
const APP_V2 = `${APP_V1.replace("'hello '", "'hi '")}greet("you");\n`;

const BIG = 'a line of a large file\n'.repeat(60_000);

async function project(fields: Record<string, unknown>) {
  const created = await owner.client.post('/projects', fields);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body;
}

before(async () => {
  app = await startApp();
  owner = await app.createUser();
  stranger = await app.createUser();
  const open = await project({ name: 'browse-me', visibility_level: 20 });
  const hidden = await project({ name: 'hidden-repo', visibility_level: 0 });
  base = pathOf(open.web_url);
  hiddenBase = pathOf(hidden.web_url);
  firstSha = await seedCommit(app, open.id, {
    files: {
      'README.md': '# Hello browser\n\n<script>window.__pwned = 1</script>\n',
      'src/app.js': APP_V1,
      'docs/guide.md': GUIDE,
      'logo.png': PNG,
      'data.bin': Buffer.from([0, 1, 2, 3, 0, 255]),
      'page.html': '<html><script>alert(1)</script></html>\n',
      [HOSTILE_NAME]: 'hostile\n',
      'big.txt': BIG,
    },
    message: 'First commit\n',
  });
  secondSha = await seedCommit(app, open.id, { files: { 'src/app.js': APP_V2 }, message: 'Say hi\n' });
  await seedCommit(app, open.id, {
    branch: 'feature/x',
    startRef: 'master',
    files: { 'feature.txt': 'a feature\n' },
    message: 'Add a feature\n',
  });
  await seedCommits(
    app,
    open.id,
    Array.from({ length: 41 }, (_, index) => ({
      branch: 'many',
      startRef: 'master',
      files: { 'count.txt': `${index}\n` },
      message: `Count ${index}\n`,
    })),
  );
  const tag = await owner.client.post(`/projects/${open.id}/repository/tags`, {
    tag_name: 'v1.0',
    ref: 'master',
    message: 'First release',
  });
  assert.equal(tag.status, 201, JSON.stringify(tag.body));
  const status = await owner.client.post(`/projects/${open.id}/statuses/${secondSha}`, { state: 'success', name: 'lint' });
  assert.equal(status.status, 201, JSON.stringify(status.body));
  await seedCommit(app, hidden.id, { files: { 'secret.txt': 'secret\n' } });
  ({ anonymous, stranger: strangerWeb, owner: ownerWeb } = await webClients(app, { stranger, owner }));
});
after(() => app?.close());

describe('GET /:namespace/:project/tree/:ref/*path', () => {
  test('the root lists folders first, then files, and renders the README below (sanitized)', async () => {
    const page = await anonymous.get(`${base}/tree/master`);
    assert.equal(page.status, 200);
    const docs = page.text.indexOf('>docs/<');
    const src = page.text.indexOf('>src/<');
    const readme = page.text.indexOf('>README.md<');
    assert.ok(docs > 0 && src > docs && readme > src, 'folders before files');
    assert.match(page.text, /<h1>Hello browser<\/h1>/);
    assert.doesNotMatch(page.text, /window\.__pwned/);
  });

  test('a folder lists its files, with a link up', async () => {
    const page = await anonymous.get(`${base}/tree/master/src`);
    assert.equal(page.status, 200);
    assert.match(page.text, new RegExp(`href="${base}/blob/master/src/app\\.js"`));
    assert.match(page.text, /rel="up"/);
  });

  test('/tree without a ref opens the default branch', async () => {
    const page = await anonymous.get(`${base}/tree`);
    assert.equal(page.status, 302);
    assert.equal(page.headers.get('location'), `${base}/tree/master`);
  });

  test('a ref with a slash: the longest branch name wins over a path', async () => {
    const page = await anonymous.get(`${base}/tree/feature/x`);
    assert.equal(page.status, 200);
    assert.match(page.text, new RegExp(`href="${base}/blob/feature/x/feature\\.txt"`));
    const blob = await anonymous.get(`${base}/blob/feature/x/feature.txt`);
    assert.equal(blob.status, 200);
    assert.match(blob.text, /a feature/);
  });

  test('a hostile file name is escaped', async () => {
    const page = await anonymous.get(`${base}/tree/master`);
    assert.doesNotMatch(page.text, /<img src=x onerror/);
    assert.match(page.text, /&lt;img src=x onerror=alert\(1\)&gt;\.txt/);
  });

  test('an unknown path or ref is a 404 page', async () => {
    assert.equal((await anonymous.get(`${base}/tree/master/nowhere`)).status, 404);
    assert.equal((await anonymous.get(`${base}/tree/no-such-branch`)).status, 404);
    assert.equal((await anonymous.get(`${base}/blob/master/nowhere.txt`)).status, 404);
    assert.equal((await anonymous.get(`${base}/raw/no-such-branch/README.md`)).status, 404);
  });
});

describe('GET /:namespace/:project/blob/:ref/*path', () => {
  test('lines are numbered with anchors and highlighted by the file name', async () => {
    const page = await anonymous.get(`${base}/blob/master/src/app.js`);
    assert.equal(page.status, 200);
    assert.match(page.text, /<tr id="L1"><td class="num"><a href="#L1">1<\/a>/);
    assert.match(page.text, /id="L6"/);
    assert.match(page.text, /<span class="hljs-keyword">function<\/span>/);
    // A comment over two lines is closed and opened again on each.
    assert.match(page.text, /id="L2".*<span class="hljs-comment">\/\* a comment<\/span>/);
    assert.match(page.text, /id="L3".*<span class="hljs-comment"> {5}over lines \*\/<\/span>/);
  });

  test('a Markdown file is rendered (sanitized), with its source a link away', async () => {
    const rendered = await anonymous.get(`${base}/blob/master/docs/guide.md`);
    assert.equal(rendered.status, 200);
    assert.match(rendered.text, /<strong>this<\/strong>/);
    assert.doesNotMatch(rendered.text, /<script>window|onerror=/);
    assert.match(rendered.text, /href="[^"]*\/blob\/master\/docs\/guide\.md\?plain=1">Source</);
    const source = await anonymous.get(`${base}/blob/master/docs/guide.md?plain=1`);
    assert.equal(source.status, 200);
    assert.match(source.text, /&lt;<span class="hljs-name">script<\/span>&gt;/);
    assert.doesNotMatch(source.text, /<script>window/);
  });

  test('an image is shown from its raw URL; a binary file offers a download', async () => {
    const image = await anonymous.get(`${base}/blob/master/logo.png`);
    assert.match(image.text, new RegExp(`<img src="${base}/raw/master/logo\\.png"`));
    const binary = await anonymous.get(`${base}/blob/master/data.bin`);
    assert.match(binary.text, /This file is binary/);
    assert.match(binary.text, new RegExp(`href="${base}/raw/master/data\\.bin" download`));
  });

  test('a file over 1 MB is offered for download, and raw streams it whole', async () => {
    const page = await anonymous.get(`${base}/blob/master/big.txt`);
    assert.equal(page.status, 200);
    assert.match(page.text, /This file is too large to show here/);
    assert.match(page.text, new RegExp(`href="${base}/raw/master/big\\.txt" download`));
    assert.doesNotMatch(page.text, /id="L1"/);
    const raw = await anonymous.get(`${base}/raw/master/big.txt`);
    assert.equal(raw.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(raw.text, BIG);
  });

  test('a folder asked as a blob is sent to its tree', async () => {
    const page = await anonymous.get(`${base}/blob/master/src`);
    assert.equal(page.status, 302);
    assert.equal(page.headers.get('location'), `${base}/tree/master/src`);
  });
});

describe('GET /:namespace/:project/raw/:ref/*path', () => {
  test('text is text/plain, even HTML; never sniffed', async () => {
    const html = await anonymous.get(`${base}/raw/master/page.html`);
    assert.equal(html.status, 200);
    assert.equal(html.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(html.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(html.headers.get('content-disposition'), null);
    assert.equal(html.text, '<html><script>alert(1)</script></html>\n');
  });

  test('an image is served as its type', async () => {
    const response = await fetch(`${app.url}${base}/raw/master/logo.png`);
    assert.equal(response.headers.get('content-type'), 'image/png');
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), PNG);
  });

  test('another binary file is a download', async () => {
    const response = await anonymous.get(`${base}/raw/master/data.bin`);
    assert.equal(response.headers.get('content-type'), 'application/octet-stream');
    assert.match(response.headers.get('content-disposition') ?? '', /^attachment; filename="data\.bin"/);
  });
});

describe('GET /:namespace/:project/blame/:ref/*path', () => {
  test('each line beside the commit that last changed it', async () => {
    const page = await anonymous.get(`${base}/blame/master/src/app.js`);
    assert.equal(page.status, 200);
    assert.match(page.text, new RegExp(`href="${base}/commit/${firstSha}"[^>]*>${firstSha.slice(0, 8)}</a> First commit`));
    assert.match(page.text, new RegExp(`href="${base}/commit/${secondSha}"[^>]*>${secondSha.slice(0, 8)}</a> Say hi`));
    assert.match(page.text, /id="L6"/);
  });
});

describe('GET /:namespace/:project/commits/:ref[/*path]', () => {
  test('newest first, 40 a page, paged with ?page=', async () => {
    const first = await anonymous.get(`${base}/commits/many`);
    assert.equal(first.status, 200);
    const newest = first.text.indexOf('>Count 40<');
    assert.ok(newest > 0 && newest < first.text.indexOf('>Count 39<'));
    assert.doesNotMatch(first.text, />Count 0</);
    assert.match(first.text, /href="[^"]*\/commits\/many\?page=2" rel="next"/);
    const second = await anonymous.get(`${base}/commits/many?page=2`);
    assert.equal(second.status, 200);
    assert.match(second.text, />Count 0</);
    assert.match(second.text, />Say hi</);
    assert.equal((await anonymous.get(`${base}/commits/many?page=9`)).status, 404);
  });

  test("a path's history holds only the commits that touched it", async () => {
    const page = await anonymous.get(`${base}/commits/master/src/app.js`);
    assert.equal(page.status, 200);
    assert.match(page.text, />Say hi</);
    assert.match(page.text, />First commit</);
    const readme = await anonymous.get(`${base}/commits/master/README.md`);
    assert.doesNotMatch(readme.text, />Say hi</);
  });
});

describe('GET /:namespace/:project/commit/:sha', () => {
  test('the diff with old and new line numbers, and the pipeline status', async () => {
    const page = await anonymous.get(`${base}/commit/${secondSha}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /<h2>Say hi<\/h2>/);
    assert.match(
      page.text,
      /<tr class="del"><td class="num">4<\/td><td class="num"><\/td><td class="src">- {2}return &#39;hello &#39; \+ name;<\/td>/,
    );
    assert.match(
      page.text,
      /<tr class="add"><td class="num"><\/td><td class="num">4<\/td><td class="src">\+ {2}return &#39;hi &#39; \+ name;<\/td>/,
    );
    assert.match(page.text, /<tr class="hunk">/);
    assert.match(page.text, /Pipeline <a href="[^"]*\/pipelines\/\d+">#\d+<\/a>\s*<span class="status status-success">success<\/span>/);
  });

  test('new files are marked; an unknown commit is a 404', async () => {
    const page = await anonymous.get(`${base}/commit/${firstSha}`);
    assert.match(page.text, /<span class="badge">new file<\/span>/);
    assert.equal((await anonymous.get(`${base}/commit/${'0'.repeat(40)}`)).status, 404);
  });
});

describe('GET /:namespace/:project/compare', () => {
  test('the form sends its two refs to the comparison', async () => {
    const form = await anonymous.get(`${base}/compare`);
    assert.equal(form.status, 200);
    assert.match(form.text, /<label for="compare-from">From<\/label>/);
    const sent = await anonymous.get(`${base}/compare?from=master&to=feature%2Fx`);
    assert.equal(sent.status, 302);
    assert.equal(sent.headers.get('location'), `${base}/compare/master...feature/x`);
  });

  test('from...to: the commits and the changes', async () => {
    const page = await anonymous.get(`${base}/compare/master...feature/x`);
    assert.equal(page.status, 200);
    assert.match(page.text, />Add a feature</);
    assert.match(page.text, /feature\.txt/);
    assert.match(page.text, /\+a feature/);
    const nothing = await anonymous.get(`${base}/compare/master...master`);
    assert.match(nothing.text, /There isn't anything to compare/);
  });
});

describe('GET /:namespace/:project/branches and /tags, and the switcher', () => {
  test('branches, the default one marked', async () => {
    const page = await anonymous.get(`${base}/branches`);
    assert.equal(page.status, 200);
    assert.match(page.text, /<strong>feature\/x<\/strong>/);
    assert.match(page.text, /<strong>master<\/strong><\/a>\n <span class="badge">default<\/span>/);
  });

  test('tags with their message', async () => {
    const page = await anonymous.get(`${base}/tags`);
    assert.equal(page.status, 200);
    assert.match(page.text, /<strong>v1\.0<\/strong>/);
    assert.match(page.text, /First release/);
  });

  test('the switcher is a GET form that lands on the chosen ref', async () => {
    const page = await anonymous.get(`${base}/tree/master/src`);
    assert.match(page.text, new RegExp(`<form class="ref-switcher" method="get" action="${base}/refs/switch">`));
    assert.match(page.text, /<option value="feature\/x">feature\/x<\/option>/);
    assert.match(page.text, /<option value="v1\.0">v1\.0<\/option>/);
    const switched = await anonymous.get(`${base}/refs/switch?destination=tree&path=src&ref=v1.0`);
    assert.equal(switched.status, 302);
    assert.equal(switched.headers.get('location'), `${base}/tree/v1.0/src`);
  });
});

describe('privacy', () => {
  const pages = [
    '/tree/master',
    '/blob/master/secret.txt',
    '/raw/master/secret.txt',
    '/blame/master/secret.txt',
    '/commits/master',
    '/branches',
    '/tags',
    '/compare',
  ];

  test("a private project's pages: 404 to anonymous visitors and non-members, as for a missing project", async () => {
    const withoutToken = (text: string) => text.replace(/name="authenticity_token" value="[^"]*"/g, '');
    for (const [who, client] of [
      ['anonymous', anonymous],
      ['stranger', strangerWeb],
    ] as const) {
      const missing = await client.get(`${hiddenBase}-missing/tree/master`);
      assert.equal(missing.status, 404);
      for (const path of pages) {
        const page = await client.get(hiddenBase + path);
        assert.equal(page.status, 404, `${who} ${path}`);
        assert.equal(withoutToken(page.text), withoutToken(missing.text), `${who} ${path}`);
      }
    }
  });

  test("a private project's pages open for its owner", async () => {
    for (const path of pages) assert.equal((await ownerWeb.get(hiddenBase + path)).status, 200, path);
  });
});
