// Black-box compatibility with the real `@gitbeaker/rest` npm client (43.x) against Forge's API v4:
// every call goes through the client's own resource classes over real HTTP. Answers stay snake_case
// (the client camelizes only when asked); lists follow the `link` header's next page, and a failed
// call raises `GitbeakerRequestError` carrying the answer's status.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Gitlab, GitbeakerRequestError } from '@gitbeaker/rest';
import { startApp, type TestApp } from '../support/app';
import { cloneUrl, commit, git, workTree } from '../support/git';
import { registeredRunner } from '../support/ci-world';
import { runNextBuild } from '../support/ci-run';
import { sshKeyPair } from '../support/ssh';

// gitbeaker's generic client types are unwieldy for a test's assertions.
type Client = any;

let app: TestApp;
let api: Client;

/** Runs `call` and answers the `GitbeakerRequestError` it must raise. */
async function rejection(call: () => Promise<unknown>): Promise<GitbeakerRequestError> {
  try {
    await call();
  } catch (error) {
    assert.ok(error instanceof GitbeakerRequestError, `not a GitbeakerRequestError: ${error}`);
    return error;
  }
  assert.fail('the call did not fail');
}

const statusOf = (error: GitbeakerRequestError) => error.cause?.response.status;

before(async () => {
  app = await startApp();
  api = new Gitlab({ host: app.url, token: app.rootToken });
});
after(() => app.close());

describe('gitbeaker: users', () => {
  test('showCurrentUser answers root; create makes a user; all lists them', async () => {
    const me = await api.Users.showCurrentUser();
    assert.equal(me.username, 'root');
    assert.equal(me.is_admin, true);
    const made = await api.Users.create({ email: 'bea@example.com', username: 'bea', name: 'Bea Ker', password: 'secret-password-1' });
    assert.equal(made.username, 'bea');
    const all = await api.Users.all();
    assert.deepEqual(all.map((u: { username: string }) => u.username).sort(), ['bea', 'root']);
  });

  test('a bad token is a GitbeakerRequestError with status 401', async () => {
    const stranger = new Gitlab({ host: app.url, token: 'not-a-token' });
    const error = await rejection(() => stranger.Users.showCurrentUser());
    assert.equal(statusOf(error), 401);
  });
});

describe('gitbeaker: groups and projects', () => {
  test('Groups.create and all; Projects.create in the group; show by id and by path; 404 for a missing one', async () => {
    const group = await api.Groups.create('Beakers', 'beakers', { visibility: 'private' });
    assert.equal(group.path, 'beakers');
    const groups = await api.Groups.all();
    assert.deepEqual(
      groups.map((g: { path: string }) => g.path),
      ['beakers'],
    );
    const project = await api.Projects.create({ name: 'flask', namespaceId: group.id });
    assert.equal(project.path_with_namespace, 'beakers/flask');
    assert.equal(project.visibility, 'private');
    assert.equal((await api.Projects.show(project.id)).name, 'flask');
    assert.equal((await api.Projects.show('beakers/flask')).id, project.id);
    const error = await rejection(() => api.Projects.show(999_999));
    assert.equal(statusOf(error), 404);
  });

  test('Projects.all walks the pages by the link header, stops at maxPages, and shows the pagination with showExpanded', async () => {
    for (const name of ['p1', 'p2', 'p3', 'p4', 'p5']) await api.Projects.create({ name });
    const every = await api.Projects.all({ perPage: 2 });
    assert.equal(every.length, 6);
    assert.equal(new Set(every.map((p: { id: number }) => p.id)).size, 6);
    const firstTwoPages = await api.Projects.all({ perPage: 2, maxPages: 2 });
    assert.equal(firstTwoPages.length, 4);
    const expanded = await api.Projects.all({ perPage: 2, page: 2, showExpanded: true, pagination: 'offset', maxPages: 1 });
    assert.equal(expanded.data.length, 2);
    assert.deepEqual(
      { current: expanded.paginationInfo.current, next: expanded.paginationInfo.next, previous: expanded.paginationInfo.previous },
      { current: 2, next: 3, previous: 1 },
    );
    assert.equal(expanded.paginationInfo.total, 6);
    assert.equal(expanded.paginationInfo.totalPages, 3);
    assert.equal(expanded.paginationInfo.perPage, 2);
  });
});

describe('gitbeaker: members', () => {
  test('ProjectMembers.add adds a developer; adding them again is a 409 GitbeakerRequestError', async () => {
    const project = await api.Projects.create({ name: 'members' });
    const user = await api.Users.create({ email: 'dev@example.com', username: 'dev', name: 'Dev', password: 'secret-password-2' });
    const member = await api.ProjectMembers.add(project.id, 30, { userId: user.id });
    assert.equal(member.username, 'dev');
    assert.equal(member.access_level, 30);
    const error = await rejection(() => api.ProjectMembers.add(project.id, 30, { userId: user.id }));
    assert.equal(statusOf(error), 409);
    const members = await api.ProjectMembers.all(project.id);
    assert.ok(members.some((m: { username: string }) => m.username === 'dev'));
  });
});

describe('gitbeaker: repository', () => {
  let projectId: number;
  before(async () => {
    projectId = (await api.Projects.create({ name: 'repo', initializeWithReadme: false })).id;
  });

  test('RepositoryFiles create, show, edit and remove', async () => {
    const created = await api.RepositoryFiles.create(projectId, 'docs/a b.md', 'master', 'first\n', 'add a file');
    assert.equal(created.file_path, 'docs/a b.md');
    const shown = await api.RepositoryFiles.show(projectId, 'docs/a b.md', 'master');
    assert.equal(Buffer.from(shown.content, 'base64').toString(), 'first\n');
    await api.RepositoryFiles.edit(projectId, 'docs/a b.md', 'master', 'second\n', 'edit the file');
    const edited = await api.RepositoryFiles.show(projectId, 'docs/a b.md', 'master');
    assert.equal(Buffer.from(edited.content, 'base64').toString(), 'second\n');
    await api.RepositoryFiles.remove(projectId, 'docs/a b.md', 'master', 'remove the file');
    const error = await rejection(() => api.RepositoryFiles.show(projectId, 'docs/a b.md', 'master'));
    assert.equal(statusOf(error), 404);
  });

  test('Commits.create with several actions in one commit', async () => {
    const made = await api.Commits.create(projectId, 'master', 'several actions', [
      { action: 'create', filePath: 'one.txt', content: 'one\n' },
      { action: 'create', filePath: 'two.txt', content: 'two\n' },
      { action: 'create', filePath: 'bin/run', content: '#!/bin/sh\n' },
    ]);
    assert.equal(made.title, 'several actions');
    const next = await api.Commits.create(projectId, 'master', 'more actions', [
      { action: 'update', filePath: 'one.txt', content: 'uno\n' },
      { action: 'move', previousPath: 'two.txt', filePath: 'dos.txt' },
      { action: 'chmod', filePath: 'bin/run', executeFilemode: true },
    ]);
    assert.equal(next.parent_ids[0], made.id);
    const tree = await api.Repositories.allRepositoryTrees(projectId, { ref: 'master' });
    assert.deepEqual(tree.map((e: { path: string }) => e.path).sort(), ['bin', 'dos.txt', 'one.txt']);
    const commits = await api.Commits.all(projectId, { refName: 'master' });
    assert.equal(commits[0].id, next.id);
  });

  test('Branches create, all and remove; ProtectedBranches.protect; Tags.create', async () => {
    const branch = await api.Branches.create(projectId, 'feature', 'master');
    assert.equal(branch.name, 'feature');
    const names = (await api.Branches.all(projectId)).map((b: { name: string }) => b.name).sort();
    assert.deepEqual(names, ['feature', 'master']);
    await api.Branches.create(projectId, 'stable', 'master');
    const protectedBranch = await api.ProtectedBranches.protect(projectId, 'stable', { pushAccessLevel: 40, mergeAccessLevel: 30 });
    assert.equal(protectedBranch.name, 'stable');
    assert.equal(protectedBranch.push_access_levels[0].access_level, 40);
    await api.Branches.remove(projectId, 'feature');
    assert.deepEqual((await api.Branches.all(projectId)).map((b: { name: string }) => b.name).sort(), ['master', 'stable']);
    const tag = await api.Tags.create(projectId, 'v1.0', 'master', { message: 'first release' });
    assert.equal(tag.name, 'v1.0');
    assert.equal(tag.message, 'first release');
  });
});

describe('gitbeaker: issues, labels and milestones', () => {
  test('Labels and Milestones; Issues create, all, close; IssueNotes.create', async () => {
    const project = await api.Projects.create({ name: 'tracker' });
    const label = await api.ProjectLabels.create(project.id, 'bug', '#ff0000');
    assert.equal(label.name, 'bug');
    const milestone = await api.ProjectMilestones.create(project.id, 'v1');
    assert.equal(milestone.title, 'v1');
    const issue = await api.Issues.create(project.id, 'It breaks', { labels: 'bug', milestoneId: milestone.id, description: 'badly' });
    assert.equal(issue.iid, 1);
    assert.deepEqual(issue.labels, ['bug']);
    assert.equal(issue.milestone.title, 'v1');
    const listed = await api.Issues.all({ projectId: project.id });
    assert.deepEqual(
      listed.map((i: { iid: number }) => i.iid),
      [1],
    );
    const note = await api.IssueNotes.create(project.id, issue.iid, 'seen it');
    assert.equal(note.body, 'seen it');
    const closed = await api.Issues.edit(project.id, issue.iid, { stateEvent: 'close' });
    assert.equal(closed.state, 'closed');
    assert.deepEqual(await api.Issues.all({ projectId: project.id, state: 'opened' }), []);
    assert.deepEqual(
      (await api.ProjectLabels.all(project.id)).map((l: { name: string }) => l.name),
      ['bug'],
    );
    assert.equal((await api.ProjectMilestones.all(project.id))[0].id, milestone.id);
  });
});

describe('gitbeaker: merge requests', () => {
  test('a pushed branch opened as a merge request, commented, shown and merged', async () => {
    const project = await api.Projects.create({ name: 'mergeable' });
    const dir = await workTree('master', { 'README.md': '# mergeable\n' });
    const url = cloneUrl(app.url, project.path_with_namespace, 'root', app.rootToken);
    assert.equal((await git(['push', '-q', url, 'master'], dir)).code, 0);
    await git(['checkout', '-q', '-b', 'topic'], dir);
    await commit(dir, { 'topic.txt': 'topic\n' }, 'a topic');
    const pushed = await git(['push', '-q', url, 'topic'], dir);
    assert.equal(pushed.code, 0, pushed.stderr);

    const mr = await api.MergeRequests.create(project.id, 'topic', 'master', 'Add the topic');
    assert.equal(mr.iid, 1);
    assert.equal(mr.state, 'opened');
    const note = await api.MergeRequestNotes.create(project.id, mr.iid, 'looks good');
    assert.equal(note.body, 'looks good');
    assert.equal((await api.MergeRequests.show(project.id, mr.iid)).title, 'Add the topic');
    const merged = await api.MergeRequests.merge(project.id, mr.iid);
    assert.equal(merged.state, 'merged');
    const file = await api.RepositoryFiles.show(project.id, 'topic.txt', 'master');
    assert.equal(Buffer.from(file.content, 'base64').toString(), 'topic\n');
  });
});

describe('gitbeaker: CI', () => {
  test('Pipelines.create runs the .gitlab-ci.yml; Jobs.all lists its jobs; Jobs.showLog reads a finished job trace', async () => {
    const project = await api.Projects.create({ name: 'ci' });
    await api.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'master', 'compile:\n  script: make\n', 'add CI [ci skip]');
    const runner = await registeredRunner(app);
    const pipeline = await api.Pipelines.create(project.id, 'master');
    assert.equal(pipeline.ref, 'master');
    const jobs = await api.Jobs.all(project.id);
    assert.deepEqual(
      jobs.map((j: { name: string; pipeline: { id: number } }) => [j.name, j.pipeline.id]),
      [['compile', pipeline.id]],
    );
    const jobId = await runNextBuild(runner, { state: 'success', trace: 'compiling\n' });
    assert.equal(jobId, jobs[0].id);
    assert.equal(await api.Jobs.showLog(project.id, jobId), 'compiling\n');
    assert.equal((await api.Jobs.show(project.id, jobId)).status, 'success');
  });

  test('PipelineTriggerTokens, ProjectVariables, DeployKeys and ProjectHooks', async () => {
    const project = await api.Projects.create({ name: 'settings' });
    const trigger = await api.PipelineTriggerTokens.create(project.id, 'nightly');
    assert.equal(trigger.description, 'nightly');
    assert.ok(trigger.token);
    assert.deepEqual(
      (await api.PipelineTriggerTokens.all(project.id)).map((t: { id: number }) => t.id),
      [trigger.id],
    );
    const variable = await api.ProjectVariables.create(project.id, 'DEPLOY_ENV', 'staging');
    assert.deepEqual([variable.key, variable.value], ['DEPLOY_ENV', 'staging']);
    assert.equal((await api.ProjectVariables.show(project.id, 'DEPLOY_ENV')).value, 'staging');
    const key = await api.DeployKeys.create(project.id, 'deployer', (await sshKeyPair()).publicKey);
    assert.equal(key.title, 'deployer');
    assert.deepEqual(
      (await api.DeployKeys.all({ projectId: project.id })).map((k: { id: number }) => k.id),
      [key.id],
    );
    const hook = await api.ProjectHooks.add(project.id, 'http://127.0.0.1:9/hook', { pushEvents: true, issuesEvents: true });
    assert.equal(hook.url, 'http://127.0.0.1:9/hook');
    assert.equal(hook.issues_events, true);
    assert.deepEqual(
      (await api.ProjectHooks.all(project.id)).map((h: { id: number }) => h.id),
      [hook.id],
    );
  });
});

describe('gitbeaker: todos and snippets', () => {
  test('an assigned issue is a todo, marked done; a project snippet is created, shown and listed', async () => {
    const project = await api.Projects.create({ name: 'todos' });
    const assignee = await app.createUser();
    await api.ProjectMembers.add(project.id, 30, { userId: assignee.user.id });
    await api.Issues.create(project.id, 'Do this', { assigneeIds: [assignee.user.id] });
    const theirs: Client = new Gitlab({ host: app.url, token: assignee.token });
    const todos = await theirs.TodoLists.all();
    assert.deepEqual(
      todos.map((t: { action_name: string; target: { title: string } }) => [t.action_name, t.target.title]),
      [['assigned', 'Do this']],
    );
    await theirs.TodoLists.done({ todoId: todos[0].id });
    assert.deepEqual(await theirs.TodoLists.all(), []);

    // Forge has project snippets only (personal ones, `/snippets`, came after GitLab 8.12).
    const snippet = await api.ProjectSnippets.create(project.id, 'snip', { fileName: 's.sh', content: 'echo\n', visibility: 'private' });
    assert.equal(snippet.title, 'snip');
    assert.equal((await api.ProjectSnippets.show(project.id, snippet.id)).file_name, 's.sh');
    assert.deepEqual(
      (await api.ProjectSnippets.all(project.id)).map((x: { id: number }) => x.id),
      [snippet.id],
    );
  });
});
