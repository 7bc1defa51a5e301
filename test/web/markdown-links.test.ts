import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveRelative } from '../../src/web/relative-links';
import { renderMarkdown } from '../../src/web/markdown';
import { startApp, type TestApp } from '../support/app';
import { WebClient } from '../support/web';

/** Relative links of a repository file's Markdown resolve against its folder at the shown ref, as GitLab's relative link filter does. */
const root = { projectPath: '/group/project', ref: 'master', folder: '' };
const docs = { projectPath: '/group/project', ref: 'feature/x', folder: 'docs/guide' };

describe('resolveRelative', () => {
  test('a link to a file opens its blob at the ref, from the file’s folder', () => {
    assert.equal(resolveRelative('docs/setup.md', root, 'link'), '/group/project/blob/master/docs/setup.md');
    assert.equal(resolveRelative('setup.md', docs, 'link'), '/group/project/blob/feature/x/docs/guide/setup.md');
    assert.equal(resolveRelative('./setup.md', docs, 'link'), '/group/project/blob/feature/x/docs/guide/setup.md');
  });

  test('an image opens its raw bytes', () => {
    assert.equal(resolveRelative('img/a.png', root, 'image'), '/group/project/raw/master/img/a.png');
    assert.equal(resolveRelative('../img/a.png', docs, 'image'), '/group/project/raw/feature/x/docs/img/a.png');
  });

  test('.. climbs folders and stops at the root; a folder opens its tree', () => {
    assert.equal(resolveRelative('../../../../LICENSE', docs, 'link'), '/group/project/blob/feature/x/LICENSE');
    assert.equal(resolveRelative('sub/', docs, 'link'), '/group/project/tree/feature/x/docs/guide/sub');
    assert.equal(resolveRelative('..', root, 'link'), '/group/project/tree/master');
  });

  test('a query and an anchor are kept after the resolved path', () => {
    assert.equal(resolveRelative('setup.md#install', root, 'link'), '/group/project/blob/master/setup.md#install');
    assert.equal(resolveRelative('setup.md?plain=1', root, 'link'), '/group/project/blob/master/setup.md?plain=1');
  });

  test('absolute URLs, #anchors, /root-relative and //host paths stay as written', () => {
    for (const href of [
      'https://example.com/a.md',
      'mailto:a@example.com',
      '#section',
      '/other/project',
      '//example.com/x',
      'javascript:alert(1)',
    ]) {
      assert.equal(resolveRelative(href, root, 'link'), href);
    }
  });

  test('the folder’s segments are escaped in the URL', () => {
    assert.equal(resolveRelative('a.md', { ...root, folder: 'my docs' }, 'link'), '/group/project/blob/master/my%20docs/a.md');
  });
});

describe('renderMarkdown with a file’s place', () => {
  test('Markdown links and images, and raw HTML ones, resolve', () => {
    const body = renderMarkdown('[setup](docs/setup.md) ![logo](img/a.png) <a href="x.md">x</a> <img src="y.png">', undefined, root).value;
    assert.match(body, /href="\/group\/project\/blob\/master\/docs\/setup\.md"/);
    assert.match(body, /src="\/group\/project\/raw\/master\/img\/a\.png"/);
    assert.match(body, /href="\/group\/project\/blob\/master\/x\.md"/);
    assert.match(body, /src="\/group\/project\/raw\/master\/y\.png"/);
  });

  test('the sanitizer still runs last: a javascript: link is dropped, rel added', () => {
    const body = renderMarkdown('<a href="javascript:alert(1)">bad</a> [ok](ok.md)', undefined, root).value;
    assert.doesNotMatch(body, /javascript:/);
    assert.match(body, /<a href="\/group\/project\/blob\/master\/ok\.md" rel="nofollow noreferrer noopener">ok<\/a>/);
  });

  test('issue and note Markdown (no place) is unchanged', () => {
    const body = renderMarkdown('[setup](docs/setup.md) ![](img/a.png)').value;
    assert.match(body, /href="docs\/setup\.md"/);
    assert.match(body, /src="img\/a\.png"/);
  });
});

describe('a README and a Markdown blob on their pages', () => {
  let app: TestApp;
  let path: string;
  const web = () => new WebClient(app.url);

  before(async () => {
    app = await startApp();
    const owner = await app.createUser();
    const project = (await owner.client.post('/projects', { name: 'documented', visibility_level: 20 })).body;
    path = new URL(project.web_url).pathname;
    const file = (file_path: string, content: string) =>
      owner.client.post(`/projects/${project.id}/repository/files`, {
        file_path,
        content,
        branch_name: 'master',
        commit_message: `add ${file_path}`,
      });
    assert.equal((await file('README.md', 'See [setup](docs/setup.md) and ![](img/a.png) or [site](https://example.com).\n')).status, 201);
    assert.equal((await file('docs/setup.md', 'Back to [readme](../README.md), [next](next.md#top).\n')).status, 201);
  });
  after(() => app?.close());

  test('the project page’s README links resolve from the root at the default branch', async () => {
    const page = (await web().get(path)).text;
    assert.match(page, new RegExp(`href="${path}/blob/master/docs/setup\\.md"`));
    assert.match(page, new RegExp(`src="${path}/raw/master/img/a\\.png"`));
    assert.match(page, /href="https:\/\/example\.com"/);
    assert.equal((await web().get(`${path}/blob/master/docs/setup.md`)).status, 200);
  });

  test('a Markdown blob in a folder links from its folder', async () => {
    const page = (await web().get(`${path}/blob/master/docs/setup.md`)).text;
    assert.match(page, new RegExp(`href="${path}/blob/master/README\\.md"`));
    assert.match(page, new RegExp(`href="${path}/blob/master/docs/next\\.md#top"`));
  });
});
