import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { seedCommit } from '../support/repo';
import { WebClient } from '../support/web';
import { linkerFor, parseReferences } from '../../src/web/references';
import { renderMarkdown } from '../../src/web/markdown';

/** GitLab's Markdown references: parsed as GitLab writes them, linked only when the caller may read the target. */
describe('parseReferences', () => {
  test('finds issues, merge requests, users, labels, milestones, commits and cross-project issues', () => {
    const query = parseReferences([
      'See #12, !3 and group/project#7; ping @alice; ~bug ~"two words" %v1.0 %"Big one" deadbeef1 mail a@b.c',
    ]);
    assert.deepEqual(query.issues, [
      { projectPath: null, iid: 12 },
      { projectPath: 'group/project', iid: 7 },
    ]);
    assert.deepEqual(query.mergeRequests, [{ projectPath: null, iid: 3 }]);
    assert.deepEqual(query.names, ['alice']);
    assert.deepEqual(query.labels, ['bug', 'two words']);
    assert.deepEqual(query.milestones, ['v1.0', 'Big one']);
    assert.deepEqual(query.commits, ['deadbeef1']);
  });

  test('references in code stay text; titles are escaped in title attributes', () => {
    const project = { id: 1, path: 'p', namespace: { path: 'n' } } as any;
    const linker = linkerFor({
      projects: new Map([['', project]]),
      issues: [{ project, iid: 1, title: '"><script>x</script>', state: 'opened' }],
      mergeRequests: [],
      users: [],
      groups: [],
      labels: [],
      milestones: [],
      commits: [],
    });
    const out = renderMarkdown('Fixes #1 but not `#1` nor #2', linker).value;
    assert.match(
      out,
      /<a href="\/n\/p\/issues\/1" class="gfm gfm-issue" title="&#34;&gt;&lt;script&gt;x&lt;\/script&gt;"|<a href="\/n\/p\/issues\/1" class="gfm gfm-issue" title="&quot;&gt;&lt;script&gt;x&lt;\/script&gt;"/,
    );
    assert.match(out, /<code>#1<\/code>/);
    assert.match(out, /nor #2/);
    assert.doesNotMatch(out, /<script/);
  });
});

describe('references on an issue page', () => {
  let app: TestApp;
  let owner: Awaited<ReturnType<TestApp['createUser']>>;
  let stranger: Awaited<ReturnType<TestApp['createUser']>>;
  let project: any;
  let hidden: any;
  let sha: string;
  before(async () => {
    app = await startApp();
    owner = await app.createUser();
    stranger = await app.createUser();
    project = (await owner.client.post('/projects', { name: 'refs', visibility_level: 20 })).body;
    hidden = (await owner.client.post('/projects', { name: 'hidden-refs', visibility_level: 0 })).body;
    await seedCommit(app, project.id, { files: { 'a.txt': 'a' }, message: 'The first commit\n' });
    const api = owner.client.v4();
    await api.post(`/projects/${project.id}/labels`, { name: 'bug', color: '#ff0000' });
    await api.post(`/projects/${project.id}/milestones`, { title: 'v1' });
    await api.post(`/projects/${project.id}/issues`, { title: 'Secret title', confidential: true });
    await api.post(`/projects/${hidden.id}/issues`, { title: 'Hidden project issue' });
    const commit = await api.get(`/projects/${project.id}/repository/commits`);
    sha = commit.body[0].id;
    const hiddenPath = new URL(hidden.web_url).pathname.slice(1);
    await api.post(`/projects/${project.id}/issues`, {
      title: 'Links',
      description: `#1 and #99, @${owner.user.username} and @nobody_here, ~bug ~missing %v1 ${sha.slice(0, 8)} ${hiddenPath}#1`,
    });
  });
  after(() => app?.close());

  test('links what the caller may read; a confidential or hidden issue stays plain text without its title', async () => {
    const path = new URL(project.web_url).pathname;
    const client = new WebClient(app.url);
    await client.signIn(stranger.user.username, stranger.password);
    const page = (await client.get(`${path}/issues/2`)).text;
    assert.match(page, new RegExp(`<a href="/u/${owner.user.username}" class="gfm gfm-project_member"`));
    assert.match(page, /@nobody_here/);
    assert.doesNotMatch(page, /href="\/u\/nobody_here"/);
    assert.match(page, /class="gfm gfm-label"[^>]*>~bug<\/a>/);
    assert.doesNotMatch(page, />~missing<\/a>/);
    assert.match(page, /class="gfm gfm-milestone"[^>]*>%v1<\/a>/);
    assert.match(page, new RegExp(`href="${path}/commit/${sha}" class="gfm gfm-commit" title="The first commit"`));
    assert.doesNotMatch(page, /Secret title|Hidden project issue/);
    assert.doesNotMatch(page, /href="[^"]*\/issues\/1"/);

    const ownerClient = new WebClient(app.url);
    await ownerClient.signIn(owner.user.username, owner.password);
    const ownPage = (await ownerClient.get(`${path}/issues/2`)).text;
    assert.match(ownPage, /class="gfm gfm-issue" title="Secret title"[^>]*>#1<\/a>/);
    assert.match(ownPage, /title="Hidden project issue"[^>]*>[^<]*#1<\/a>/);
    assert.doesNotMatch(ownPage, />#99<\/a>/);
  });
});
