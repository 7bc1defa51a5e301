import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { pythonGitlab, pythonGitlabMissing } from '../support/python-gitlab';
import { createProject } from '../support/create';
import { createRootProject, seedCommit } from '../support/repo';
import { seedPipeline } from '../support/ci';

describe('python-gitlab 3.12: issues, merge requests, notes, todos, labels, milestones, snippets', { skip: pythonGitlabMissing }, () => {
  let app: TestApp;
  let project: { id: number };
  let developer: { user: { id: number; username: string }; token: string };

  before(async () => {
    app = await startApp();
    project = await createRootProject(app, 'client-world');
    developer = await app.createUser();
    const added = await app.root.post(`/projects/${project.id}/members`, { user_id: developer.user.id, access_level: 30 });
    assert.equal(added.status, 201);
  });
  after(async () => app?.close());

  test('issues with labels and milestones, notes, closing, lists with all=True, subscriptions, award emoji', async () => {
    const result = await pythonGitlab(
      app.url,
      app.rootToken,
      `
project = gl.projects.get(${project.id})
project.labels.create({'name': 'a', 'color': '#FF0000'})
project.labels.create({'name': 'b', 'color': '#00FF00'})
milestone = project.milestones.create({'title': 'M1', 'due_date': '2031-01-01'})
issue = project.issues.create({'title': 'from python', 'labels': ['a', 'b'], 'milestone_id': milestone.id})
other = project.issues.create({'title': 'only b', 'labels': ['b']})
note = issue.notes.create({'body': 'a comment'})
issue.state_event = 'close'
issue.save()
again = project.issues.get(issue.iid)
with_a = project.issues.list(labels=['a'], all=True)
with_both = project.issues.list(labels=['a', 'b'], all=True)
issue.unsubscribe()
after_unsubscribe = project.issues.get(issue.iid).subscribed
issue.subscribe()
after_subscribe = project.issues.get(issue.iid).subscribed
award = issue.awardemojis.create({'name': 'tada'})
awards = [a.name for a in issue.awardemojis.list()]
label = project.labels.get('a')
label.description = 'the a label'
label.save()
milestone_issues = [i.iid for i in milestone.issues()]
milestone.state_event = 'close'
milestone.save()
print(json.dumps({
  'iid': issue.iid, 'labels': sorted(again.labels), 'state': again.state, 'note': note.body,
  'notes': [n.body for n in issue.notes.list(all=True) if not n.system],
  'with_a': [i.iid for i in with_a], 'with_both': sorted(i.iid for i in with_both), 'other': other.iid,
  'after_unsubscribe': after_unsubscribe, 'after_subscribe': after_subscribe, 'awards': awards,
  'label_description': project.labels.get('a').description, 'milestone_issues': milestone_issues,
  'milestone_state': project.milestones.get(milestone.id).state,
  'labels_listed': sorted(l.name for l in project.labels.list(all=True)),
}))
`,
    );
    assert.deepEqual(result.labels, ['a', 'b']);
    assert.equal(result.state, 'closed');
    assert.equal(result.note, 'a comment');
    assert.deepEqual(result.notes, ['a comment']);
    assert.deepEqual(result.with_a, [result.iid]);
    assert.deepEqual(result.with_both, [result.iid]);
    assert.equal(result.after_unsubscribe, false);
    assert.equal(result.after_subscribe, true);
    assert.deepEqual(result.awards, ['tada']);
    assert.equal(result.label_description, 'the a label');
    assert.deepEqual(result.milestone_issues, [result.iid]);
    assert.equal(result.milestone_state, 'closed');
    assert.deepEqual(result.labels_listed, ['a', 'b']);
  });

  test('todos: issue.todo(), gl.todos.list(), todo.mark_as_done(), gl.todos.mark_all_as_done()', async () => {
    const result = await pythonGitlab(
      app.url,
      developer.token,
      `
project = gl.projects.get(${project.id})
issue = project.issues.create({'title': 'remember me'})
issue.todo()
todos = gl.todos.list()
mine = [t for t in todos if t.target['iid'] == issue.iid]
mine[0].mark_as_done()
left = [t.id for t in gl.todos.list() if t.target['iid'] == issue.iid]
project.issues.create({'title': 'another'}).todo()
gl.todos.mark_all_as_done()
print(json.dumps({'marked': [t.action_name for t in mine], 'left': left, 'after_all': len(gl.todos.list())}))
`,
    );
    assert.deepEqual(result.marked, ['marked']);
    assert.deepEqual(result.left, []);
    assert.equal(result.after_all, 0);
  });

  test('merge requests: create, notes, changes, merge', async () => {
    await seedCommit(app, project.id, { branch: 'py-feature', startRef: 'refs/heads/master', files: { 'py.txt': 'py\n' } });
    const result = await pythonGitlab(
      app.url,
      app.rootToken,
      `
project = gl.projects.get(${project.id})
mr = project.mergerequests.create({'source_branch': 'py-feature', 'target_branch': 'master', 'title': 'From python', 'labels': ['a']})
mr.notes.create({'body': 'looks good'})
changes = mr.changes()
commits = [c.id for c in mr.commits()]
mr.merge(merge_commit_message='Merged from python')
merged = project.mergerequests.get(mr.iid)
listed = [m.iid for m in project.mergerequests.list(state='merged', all=True)]
print(json.dumps({
  'iid': mr.iid, 'changes': [c['new_path'] for c in changes['changes']], 'commits': len(commits),
  'state': merged.state, 'notes': [n.body for n in mr.notes.list(all=True) if not n.system], 'listed': listed,
}))
`,
    );
    assert.deepEqual(result.changes, ['py.txt']);
    assert.equal(result.commits, 1);
    assert.equal(result.state, 'merged');
    assert.deepEqual(result.notes, ['looks good']);
    assert.ok(result.listed.includes(result.iid));
  });

  test('merge requests: merge(merge_when_pipeline_succeeds=True) while a pipeline runs', async () => {
    const head = await seedCommit(app, project.id, { branch: 'py-ci', startRef: 'refs/heads/master', files: { 'ci.txt': 'ci\n' } });
    await seedPipeline(app, project.id, { sha: head, ref: 'py-ci', status: 'running' });
    const result = await pythonGitlab(
      app.url,
      app.rootToken,
      `
project = gl.projects.get(${project.id})
mr = project.mergerequests.create({'source_branch': 'py-ci', 'target_branch': 'master', 'title': 'Wait for CI'})
mr.merge(merge_when_pipeline_succeeds=True)
waiting = project.mergerequests.get(mr.iid)
mr.cancel_merge_when_pipeline_succeeds()
cancelled = project.mergerequests.get(mr.iid)
print(json.dumps({'waiting': waiting.merge_when_pipeline_succeeds, 'state': waiting.state, 'cancelled': cancelled.merge_when_pipeline_succeeds}))
`,
    );
    assert.deepEqual(result, { waiting: true, state: 'opened', cancelled: false });
  });

  test('project snippets: create, raw, update, notes, delete', async () => {
    const result = await pythonGitlab(
      app.url,
      app.rootToken,
      `
project = gl.projects.get(${project.id})
snippet = project.snippets.create({'title': 'snip', 'file_name': 'snip.py', 'content': 'print(1)', 'visibility': 'internal'})
raw = snippet.content().decode()
snippet.title = 'renamed'
snippet.save()
snippet.notes.create({'body': 'nice snippet'})
again = project.snippets.get(snippet.id)
notes = [n.body for n in again.notes.list()]
snippet.delete()
print(json.dumps({'raw': raw, 'title': again.title, 'visibility': again.visibility, 'notes': notes, 'left': len(project.snippets.list())}))
`,
    );
    assert.deepEqual(result, { raw: 'print(1)', title: 'renamed', visibility: 'internal', notes: ['nice snippet'], left: 0 });
  });

  test('a confidential issue raises GitlabGetError for a non-member of a public project', async () => {
    const open = await createProject(app.root, { name: 'open-tracker', visibility_level: 20 });
    const secret = await app.root.v4().post(`/projects/${open.id}/issues`, { title: 'secret', confidential: true });
    assert.equal(secret.status, 201);
    const stranger = await app.createUser();
    const result = await pythonGitlab(
      app.url,
      stranger.token,
      `
project = gl.projects.get(${open.id})
try:
    project.issues.get(${secret.body.iid})
    outcome = 'found'
except gitlab.exceptions.GitlabGetError as error:
    outcome = error.response_code
print(json.dumps({'outcome': outcome, 'listed': [i.iid for i in project.issues.list(all=True)]}))
`,
    );
    assert.deepEqual(result, { outcome: 404, listed: [] });
  });
});
