import { spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { HookListener, type ReceivedHook } from '../support/hook-listener';
import { seedCommit, seedCommits } from '../support/repo';
import { cloneUrl, commit, git, workTree } from '../support/git';
import type { ApiClient } from '../support/client';
import { processPush } from '../../src/services/repository/push-processing';
import { createTag, deleteBranch } from '../../src/git/write';
import { repoPathOf } from '../../src/services/repository/repositories';

const ZERO = '0'.repeat(40);

let app: TestApp;
let listener: HookListener;
let pusher: { user: any; client: ApiClient; token: string };

before(async () => {
  app = await startApp({ EXTERNAL_URL: 'http://forge.example.com' });
  listener = await HookListener.start();
  pusher = await app.createUser({ name: 'Pat Pusher', username: 'pat', email: 'pat@example.com', projects_limit: 100 });
  // A system hook gets branch pushes by default (push_events on, tag_push_events off, as in GitLab).
  const systemHook = await app.root.post('/hooks', { url: `${listener.url}?system` });
  assert.equal(systemHook.status, 201, JSON.stringify(systemHook.body));
});
after(async () => {
  await app.close();
  await listener.close();
});

/** A project of the pusher with a hook at the listener (`?project=<name>`) for pushes and tag pushes. */
async function hookedProject(name: string): Promise<{ id: number; path: string }> {
  const created = await pusher.client.post('/projects', { name });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const hook = await pusher.client.post(`/projects/${created.body.id}/hooks`, {
    url: `${listener.url}?project=${name}`,
    push_events: true,
    tag_push_events: true,
  });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  return { id: created.body.id, path: created.body.path_with_namespace };
}

async function latestEvent(projectId: number) {
  const events = await pusher.client.get(`/projects/${projectId}/events`);
  assert.equal(events.status, 200);
  return events.body[0];
}

const projectHook = (name: string, ref: string) => (hook: ReceivedHook) => hook.url === `/hook?project=${name}` && hook.body?.ref === ref;
const systemHook = (projectId: number, ref: string) => (hook: ReceivedHook) =>
  hook.url === '/hook?system' && hook.body?.project_id === projectId && hook.body?.ref === ref;

describe('push processing: branches', () => {
  test('a push to a new branch records a `pushed new` event carrying GitLab push data', async () => {
    const project = await hookedProject('first-push');
    const first = await seedCommit(app, project.id, {
      files: { 'README.md': '# hi\n' },
      message: 'Add readme\n\nWith a body\n',
      time: new Date('2016-09-20T10:00:00Z'),
      author: { name: 'Ada', email: 'ada@example.com' },
    });
    const second = await seedCommit(app, project.id, { files: { 'README.md': '# hello\n', 'src/app.js': 'x\n' }, message: 'Grow\n' });
    await processPush(
      { ...app.services, ctx: app.ctx },
      { projectId: project.id, userId: pusher.user.id, updates: [{ oldId: ZERO, newId: second, ref: 'refs/heads/master' }] },
    );

    const event = await latestEvent(project.id);
    assert.equal(event.action_name, 'pushed new');
    assert.equal(event.author_id, pusher.user.id);
    assert.equal(event.author_username, 'pat');
    const data = event.data;
    assert.equal(data.object_kind, 'push');
    assert.equal(data.event_name, 'push');
    assert.equal(data.before, ZERO);
    assert.equal(data.after, second);
    assert.equal(data.ref, 'refs/heads/master');
    assert.equal(data.checkout_sha, second);
    assert.equal(data.message, null);
    assert.equal(data.user_id, pusher.user.id);
    assert.equal(data.user_name, 'Pat Pusher');
    assert.equal(data.user_email, 'pat@example.com');
    assert.match(data.user_avatar, /^https:\/\/www\.gravatar\.com\/avatar\/[0-9a-f]{32}/);
    assert.equal(data.project_id, project.id);
    assert.equal(data.total_commits_count, 2);
    const web = `http://forge.example.com/${project.path}`;
    assert.deepEqual(data.commits, [
      {
        id: first,
        message: 'Add readme\n\nWith a body\n',
        timestamp: '2016-09-20T10:00:00+00:00',
        url: `${web}/commit/${first}`,
        author: { name: 'Ada', email: 'ada@example.com' },
        added: ['README.md'],
        modified: [],
        removed: [],
      },
      {
        id: second,
        message: 'Grow\n',
        timestamp: data.commits[1].timestamp,
        url: `${web}/commit/${second}`,
        author: { name: 'Ada Tester', email: 'ada@example.com' },
        added: ['src/app.js'],
        modified: ['README.md'],
        removed: [],
      },
    ]);
    assert.match(data.commits[1].timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    const ssh = `git@forge.example.com:${project.path}.git`;
    assert.deepEqual(data.repository, {
      name: 'first-push',
      url: ssh,
      description: data.project.description,
      homepage: web,
      git_http_url: `${web}.git`,
      git_ssh_url: ssh,
      visibility_level: 0,
    });
    assert.deepEqual(Object.keys(data.project), [
      'name',
      'description',
      'web_url',
      'avatar_url',
      'git_ssh_url',
      'git_http_url',
      'namespace',
      'visibility_level',
      'path_with_namespace',
      'default_branch',
      'homepage',
      'url',
      'ssh_url',
      'http_url',
    ]);
    assert.equal(data.project.path_with_namespace, project.path);
    assert.equal(data.project.namespace, 'pat');
  });

  test('a push to an existing branch lists the commits after the old head with their added, modified and removed files', async () => {
    const project = await hookedProject('existing-branch');
    const base = await seedCommit(app, project.id, { files: { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'same content for a rename\n' } });
    const head = await seedCommit(app, project.id, { files: { 'a.txt': 'changed\n', 'd.txt': 'new\n' }, deletes: ['b.txt'] });
    await processPush(
      { ...app.services, ctx: app.ctx },
      { projectId: project.id, userId: pusher.user.id, updates: [{ oldId: base, newId: head, ref: 'refs/heads/master' }] },
    );

    const event = await latestEvent(project.id);
    assert.equal(event.action_name, 'pushed to');
    assert.equal(event.data.total_commits_count, 1);
    assert.deepEqual(
      event.data.commits.map((c: any) => [c.id, c.added, c.modified, c.removed]),
      [[head, ['d.txt'], ['a.txt'], ['b.txt']]],
    );
  });

  test('a renamed file counts as added under its new name, as GitLab lists it', async () => {
    const project = await hookedProject('renames');
    const base = await seedCommit(app, project.id, { files: { 'old-name.txt': 'a file long enough to be recognised after its rename\n' } });
    const head = await seedCommit(app, project.id, {
      files: { 'new-name.txt': 'a file long enough to be recognised after its rename\n' },
      deletes: ['old-name.txt'],
    });
    await processPush(
      { ...app.services, ctx: app.ctx },
      { projectId: project.id, userId: pusher.user.id, updates: [{ oldId: base, newId: head, ref: 'refs/heads/master' }] },
    );
    const [pushed] = (await latestEvent(project.id)).data.commits;
    assert.deepEqual([pushed.added, pushed.modified, pushed.removed], [['new-name.txt'], [], []]);
  });

  test('at most 20 commits travel, the newest, oldest first; total_commits_count counts them all', async () => {
    const project = await hookedProject('many-commits');
    const shas = await seedCommits(
      app,
      project.id,
      Array.from({ length: 23 }, (_, i) => ({ files: { 'counter.txt': `${i}\n` }, message: `commit ${i}\n` })),
    );
    await processPush(
      { ...app.services, ctx: app.ctx },
      { projectId: project.id, userId: pusher.user.id, updates: [{ oldId: shas[0], newId: shas[22], ref: 'refs/heads/master' }] },
    );
    const data = (await latestEvent(project.id)).data;
    assert.equal(data.total_commits_count, 22);
    assert.deepEqual(
      data.commits.map((c: any) => c.id),
      shas.slice(3),
    );
  });

  test('a new branch lists only the commits no other branch has', async () => {
    const project = await hookedProject('new-branch');
    const master = await seedCommit(app, project.id, { files: { 'a.txt': 'a\n' } });
    const feature = await seedCommit(app, project.id, { branch: 'feature', startRef: master, files: { 'f.txt': 'f\n' } });
    await processPush(
      { ...app.services, ctx: app.ctx },
      { projectId: project.id, userId: pusher.user.id, updates: [{ oldId: ZERO, newId: feature, ref: 'refs/heads/feature' }] },
    );
    const event = await latestEvent(project.id);
    assert.equal(event.action_name, 'pushed new');
    assert.equal(event.data.total_commits_count, 1);
    assert.deepEqual(
      event.data.commits.map((c: any) => c.id),
      [feature],
    );
  });

  test('deleting a branch records `deleted` with no commits and no checkout_sha', async () => {
    const project = await hookedProject('deleted-branch');
    const master = await seedCommit(app, project.id, { files: { 'a.txt': 'a\n' } });
    const gone = await seedCommit(app, project.id, { branch: 'gone', startRef: master, files: { 'g.txt': 'g\n' } });
    await deleteBranch(repoPathOf(app.ctx, project.id), 'gone');
    await processPush(
      { ...app.services, ctx: app.ctx },
      { projectId: project.id, userId: pusher.user.id, updates: [{ oldId: gone, newId: ZERO, ref: 'refs/heads/gone' }] },
    );

    const event = await latestEvent(project.id);
    assert.equal(event.action_name, 'deleted');
    assert.equal(event.data.before, gone);
    assert.equal(event.data.after, ZERO);
    assert.equal(event.data.checkout_sha, null);
    assert.deepEqual(event.data.commits, []);
    assert.equal(event.data.total_commits_count, 0);
    const hook = await listener.waitFor(projectHook('deleted-branch', 'refs/heads/gone'));
    assert.equal(hook.headers['x-gitlab-event'], 'Push Hook');
  });

  test('project hooks with push_events get a Push Hook with the push data', async () => {
    const project = await hookedProject('hooked-push');
    const head = await seedCommit(app, project.id, { files: { 'a.txt': 'a\n' } });
    await processPush(
      { ...app.services, ctx: app.ctx },
      { projectId: project.id, userId: pusher.user.id, updates: [{ oldId: ZERO, newId: head, ref: 'refs/heads/master' }] },
    );
    const hook = await listener.waitFor(projectHook('hooked-push', 'refs/heads/master'));
    assert.equal(hook.headers['x-gitlab-event'], 'Push Hook');
    assert.deepEqual(hook.body, (await latestEvent(project.id)).data);
  });

  test('system hooks with push_events get the push without its commits', async () => {
    const project = await hookedProject('system-push');
    const head = await seedCommit(app, project.id, { files: { 'a.txt': 'a\n' } });
    await processPush(
      { ...app.services, ctx: app.ctx },
      { projectId: project.id, userId: pusher.user.id, updates: [{ oldId: ZERO, newId: head, ref: 'refs/heads/master' }] },
    );
    const hook = await listener.waitFor(systemHook(project.id, 'refs/heads/master'));
    assert.equal(hook.headers['x-gitlab-event'], 'System Hook');
    assert.equal(hook.body.event_name, 'push');
    assert.equal(hook.body.after, head);
    assert.deepEqual(hook.body.commits, []);
    assert.equal(hook.body.total_commits_count, 0);
  });

  test("the push moves the project's last_activity_at", async () => {
    const project = await hookedProject('activity');
    const before = (await pusher.client.get(`/projects/${project.id}`)).body.last_activity_at;
    const head = await seedCommit(app, project.id, { files: { 'a.txt': 'a\n' } });
    await processPush(
      { ...app.services, ctx: app.ctx },
      { projectId: project.id, userId: pusher.user.id, updates: [{ oldId: ZERO, newId: head, ref: 'refs/heads/master' }] },
    );
    const after = (await pusher.client.get(`/projects/${project.id}`)).body.last_activity_at;
    assert.ok(after > before, `${after} > ${before}`);
  });
});

describe('push processing: tags', () => {
  test('an annotated tag push records the event and fires a Tag Push Hook with the tagged commit and the annotation', async () => {
    const project = await hookedProject('tagged');
    const head = await seedCommit(app, project.id, { files: { 'a.txt': 'a\n' } });
    const tagId = await createTag(app.ctx.git, repoPathOf(app.ctx, project.id), 'v1.0', head, {
      message: 'Release 1.0\n',
      tagger: { name: 'Pat', email: 'pat@example.com' },
    });
    await processPush(
      { ...app.services, ctx: app.ctx },
      { projectId: project.id, userId: pusher.user.id, updates: [{ oldId: ZERO, newId: tagId, ref: 'refs/tags/v1.0' }] },
    );

    const event = await latestEvent(project.id);
    assert.equal(event.action_name, 'pushed new');
    assert.equal(event.data.object_kind, 'tag_push');
    assert.equal(event.data.event_name, 'tag_push');
    assert.equal(event.data.after, tagId);
    assert.equal(event.data.checkout_sha, head);
    assert.equal(event.data.message, 'Release 1.0');
    assert.equal(event.data.total_commits_count, 1);
    assert.deepEqual(
      event.data.commits.map((c: any) => [c.id, c.added]),
      [[head, ['a.txt']]],
    );
    const hook = await listener.waitFor(projectHook('tagged', 'refs/tags/v1.0'));
    assert.equal(hook.headers['x-gitlab-event'], 'Tag Push Hook');
    assert.deepEqual(hook.body, event.data);
  });

  test('a lightweight tag has a null message; deleting it records `deleted`', async () => {
    const project = await hookedProject('light-tag');
    const head = await seedCommit(app, project.id, { files: { 'a.txt': 'a\n' } });
    await createTag(app.ctx.git, repoPathOf(app.ctx, project.id), 'light', head);
    await processPush(
      { ...app.services, ctx: app.ctx },
      { projectId: project.id, userId: pusher.user.id, updates: [{ oldId: ZERO, newId: head, ref: 'refs/tags/light' }] },
    );
    assert.equal((await latestEvent(project.id)).data.message, null);

    await processPush(
      { ...app.services, ctx: app.ctx },
      { projectId: project.id, userId: pusher.user.id, updates: [{ oldId: head, newId: ZERO, ref: 'refs/tags/light' }] },
    );
    const event = await latestEvent(project.id);
    assert.equal(event.action_name, 'deleted');
    assert.equal(event.data.checkout_sha, null);
    assert.deepEqual(event.data.commits, []);
  });

  test('a push of several refs records one event per ref, in the pushed order; other refs are ignored', async () => {
    const project = await hookedProject('several-refs');
    const repo = repoPathOf(app.ctx, project.id);
    const first = await seedCommit(app, project.id, { files: { 'a.txt': 'a\n' } });
    const second = await seedCommit(app, project.id, { files: { 'b.txt': 'b\n' } });
    const annotated = await createTag(app.ctx.git, repo, 'v1', first, {
      message: 'one',
      tagger: { name: 'Pat', email: 'pat@example.com' },
    });
    await createTag(app.ctx.git, repo, 'v2', second);
    await processPush(
      { ...app.services, ctx: app.ctx },
      {
        projectId: project.id,
        userId: pusher.user.id,
        updates: [
          { oldId: first, newId: second, ref: 'refs/heads/master' },
          { oldId: ZERO, newId: annotated, ref: 'refs/tags/v1' },
          { oldId: ZERO, newId: second, ref: 'refs/tags/v2' },
          { oldId: ZERO, newId: second, ref: 'refs/notes/commits' },
        ],
      },
    );
    const events = (await pusher.client.get(`/projects/${project.id}/events`)).body.slice(0, 3).reverse();
    assert.deepEqual(
      events.map((e: any) => [e.action_name, e.data.ref, e.data.checkout_sha, e.data.message, e.data.commits.map((c: any) => c.id)]),
      [
        ['pushed to', 'refs/heads/master', second, null, [second]],
        ['pushed new', 'refs/tags/v1', first, 'one', [first]],
        ['pushed new', 'refs/tags/v2', second, null, [second]],
      ],
    );
  });

  test('system hooks get tag pushes only with tag_push_events, without commits and with an empty message', async () => {
    const tagHook = await app.root.post('/hooks', { url: `${listener.url}?system-tags` });
    await app.ctx.db.updateTable('hooks').set({ tag_push_events: 1 }).where('id', '=', tagHook.body[0].id).execute();
    const project = await hookedProject('system-tags');
    const head = await seedCommit(app, project.id, { files: { 'a.txt': 'a\n' } });
    const tagId = await createTag(app.ctx.git, repoPathOf(app.ctx, project.id), 'v2', head, {
      message: 'two',
      tagger: { name: 'Pat', email: 'pat@example.com' },
    });
    await processPush(
      { ...app.services, ctx: app.ctx },
      { projectId: project.id, userId: pusher.user.id, updates: [{ oldId: ZERO, newId: tagId, ref: 'refs/tags/v2' }] },
    );

    const hook = await listener.waitFor((h) => h.url === '/hook?system-tags' && h.body?.ref === 'refs/tags/v2');
    assert.equal(hook.headers['x-gitlab-event'], 'System Hook');
    assert.equal(hook.body.event_name, 'tag_push');
    assert.equal(hook.body.message, '');
    assert.deepEqual(hook.body.commits, []);
    // The project hook's delivery was queued in the same transaction: once it arrived, the
    // default system hook (tag_push_events off) has had its chance too.
    await listener.waitFor(projectHook('system-tags', 'refs/tags/v2'));
    await eventually(
      async () => (await app.ctx.db.selectFrom('jobs').select('id').where('kind', '=', 'hook.deliver').execute()).length === 0,
    );
    assert.equal(listener.received.filter(systemHook(project.id, 'refs/tags/v2')).length, 0);
  });
});

describe('push processing: large pushes', () => {
  test('a push of 600 tags records 600 events in the pushed order and sends 600 Tag Push Hooks', async () => {
    const project = await hookedProject('many-tags');
    const repo = repoPathOf(app.ctx, project.id);
    const sha = await seedCommit(app, project.id, { files: { 'a.txt': 'a\n' } });
    const names = Array.from({ length: 600 }, (_, i) => `t${String(i).padStart(3, '0')}`);
    const refs = names.map((name) => `create refs/tags/${name} ${sha}\n`).join('');
    const created = await new Promise<number>((resolve) => {
      const child = spawn('git', ['update-ref', '--stdin'], { cwd: repo, stdio: ['pipe', 'ignore', 'ignore'] });
      child.on('close', (code) => resolve(code ?? 1));
      child.stdin.end(refs);
    });
    assert.equal(created, 0);
    const before = Number((await pusher.client.get(`/projects/${project.id}/events`)).headers.get('x-total'));

    await processPush(
      { ...app.services, ctx: app.ctx },
      {
        projectId: project.id,
        userId: pusher.user.id,
        updates: names.map((name) => ({ oldId: ZERO, newId: sha, ref: `refs/tags/${name}` })),
      },
    );
    const events = await pusher.client.get(`/projects/${project.id}/events`, { per_page: 100 });
    assert.equal(Number(events.headers.get('x-total')), before + 600);
    // Newest first: the last pushed tag on top.
    assert.deepEqual(
      events.body.slice(0, 3).map((event: any) => event.data.ref),
      ['refs/tags/t599', 'refs/tags/t598', 'refs/tags/t597'],
    );
    await eventually(async () => listener.received.filter((hook) => hook.url === '/hook?project=many-tags').length === 600);
    const refsHooked = new Set(listener.received.filter((hook) => hook.url === '/hook?project=many-tags').map((hook) => hook.body.ref));
    assert.equal(refsHooked.size, 600);
  });
});

describe('push processing: the job', () => {
  test('a real git push is processed in the background: event, hook and data', async () => {
    const project = await hookedProject('over-http');
    const dir = await workTree('master', { 'README.md': '# pushed\n' });
    await commit(dir, { 'b.txt': 'b\n' }, 'second commit');
    const pushed = await git(['push', cloneUrl(app.url, project.path, 'pat', pusher.token), 'master'], dir);
    assert.equal(pushed.code, 0, pushed.stderr);
    const head = (await git(['rev-parse', 'HEAD'], dir)).stdout.trim();

    const hook = await listener.waitFor(projectHook('over-http', 'refs/heads/master'));
    assert.equal(hook.body.after, head);
    assert.equal(hook.body.total_commits_count, 2);
    assert.deepEqual(
      hook.body.commits.map((c: any) => c.message),
      ['initial commit\n', 'second commit\n'],
    );
    // The first push made master the default branch before the job ran.
    assert.equal(hook.body.project.default_branch, 'master');
    const event = await latestEvent(project.id);
    assert.equal(event.action_name, 'pushed new');
    assert.deepEqual(event.data, hook.body);
  });
});
