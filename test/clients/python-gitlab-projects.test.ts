import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { pythonGitlab, pythonGitlabMissing } from '../support/python-gitlab';

describe('python-gitlab 3.12 on API v4: projects, groups, members, hooks, access requests', { skip: pythonGitlabMissing }, () => {
  let app: TestApp;
  let alice: { token: string; id: number };
  let bob: { token: string; id: number };

  before(async () => {
    app = await startApp();
    const a = await app.createUser({ username: 'alice', projects_limit: 100 });
    const b = await app.createUser({ username: 'bob' });
    alice = { token: a.token, id: a.user.id };
    bob = { token: b.token, id: b.user.id };
  });
  after(async () => app?.close());

  it('creates projects, lists them with owned and all, pages with an iterator, gets by id and by path', async () => {
    const result = await pythonGitlab(
      app.url,
      alice.token,
      `
created = [gl.projects.create({'name': 'proj-%02d' % n, 'visibility': 'public' if n % 2 else 'private'}) for n in range(25)]
owned = gl.projects.list(owned=True, all=True)
pages = gl.projects.list(owned=True, iterator=True, per_page=10, order_by='name', sort='asc')
names = [p.name for p in pages]
by_id = gl.projects.get(created[3].id)
by_path = gl.projects.get('alice/proj-03')
print(json.dumps({
  'owned': len(owned),
  'names': names,
  'total_pages': pages.total_pages,
  'by_id': by_id.path_with_namespace,
  'by_path': by_path.id == created[3].id,
  'visibility': by_path.visibility,
}))
`,
    );
    assert.equal(result.owned, 25);
    assert.equal(result.names.length, 25);
    assert.equal(result.names[0], 'proj-00');
    assert.equal(result.names[24], 'proj-24');
    assert.equal(result.total_pages, 3);
    assert.equal(result.by_id, 'alice/proj-03');
    assert.equal(result.by_path, true);
    assert.equal(result.visibility, 'public');
  });

  it('updates, stars and unstars, forks, lists forks and deletes a project; errors are GitlabGetError', async () => {
    const result = await pythonGitlab(
      app.url,
      bob.token,
      `
project = gl.projects.create({'name': 'bobs', 'visibility': 'public'})
project.description = 'changed by save'
project.save()
again = gl.projects.get(project.id)
project.star()
stars_after_star = project.star_count
starred = [p.id for p in gl.projects.list(starred=True)]
event_actions = [e.action_name for e in project.events.list()]
own_events = len(gl.events.list(all=True))
alice_events = [e.project_id for e in gl.users.get(${alice.id}).events.list(all=True)]
try:
    project.star()
    second_star = 'no error'
except gitlab.exceptions.GitlabCreateError as error:
    second_star = error.response_code
project.unstar()
stars_after_unstar = project.star_count
source = gl.projects.get('alice/proj-01')
fork = source.forks.create({})
forks = [f.path_with_namespace for f in source.forks.list()]
doomed = gl.projects.create({'name': 'doomed'})
doomed.delete()
try:
    gl.projects.get(doomed.id)
    missing = 'found'
except gitlab.exceptions.GitlabGetError as error:
    missing = error.response_code
try:
    gl.projects.get('alice/proj-02')
    hidden = 'found'
except gitlab.exceptions.GitlabGetError as error:
    hidden = error.response_code
print(json.dumps({
  'description': again.description,
  'stars_after_star': stars_after_star,
  'starred': starred == [project.id],
  'event_actions': event_actions,
  'own_events': own_events > 0,
  'alice_events_private': any(gl.projects.get(pid).visibility != 'public' for pid in alice_events) if alice_events else 'none',
  'second_star': second_star,
  'stars_after_unstar': stars_after_unstar,
  'fork': gl.projects.get(fork.id).forked_from_project['id'] == source.id,
  'forks': forks,
  'missing': missing,
  'hidden': hidden,
}))
`,
    );
    assert.equal(result.description, 'changed by save');
    assert.equal(result.stars_after_star, 1);
    assert.equal(result.starred, true);
    assert.deepEqual(result.event_actions, ['created']);
    assert.equal(result.own_events, true);
    assert.equal(result.alice_events_private, false);
    assert.equal(result.second_star, 304);
    assert.equal(result.stars_after_unstar, 0);
    assert.equal(result.fork, true);
    assert.deepEqual(result.forks, ['bob/proj-01']);
    assert.equal(result.missing, 404);
    assert.equal(result.hidden, 404);
  });

  it('creates, lists and reads groups, and manages their members', async () => {
    const result = await pythonGitlab(
      app.url,
      alice.token,
      `
group = gl.groups.create({'name': 'Crew', 'path': 'crew', 'visibility': 'internal'})
listed = [g.path for g in gl.groups.list()]
got = gl.groups.get(group.id)
member = group.members.create({'user_id': ${bob.id}, 'access_level': gitlab.const.DEVELOPER_ACCESS})
member.access_level = gitlab.const.MAINTAINER_ACCESS
member.save()
level = group.members.get(${bob.id}).access_level
try:
    group.members.create({'user_id': ${bob.id}, 'access_level': 30})
    duplicate = 'created'
except gitlab.exceptions.GitlabCreateError as error:
    duplicate = error.response_code
group.members.delete(${bob.id})
remaining = [m.username for m in group.members.list()]
print(json.dumps({'listed': listed, 'visibility': got.visibility, 'level': level, 'duplicate': duplicate, 'remaining': remaining}))
`,
    );
    assert.deepEqual(result.listed, ['crew']);
    assert.equal(result.visibility, 'internal');
    assert.equal(result.level, 40);
    assert.equal(result.duplicate, 409);
    assert.deepEqual(result.remaining, ['alice']);
  });

  it('manages project members (an existing one is GitlabCreateError 409) and hooks with v4 flags', async () => {
    const result = await pythonGitlab(
      app.url,
      alice.token,
      `
project = gl.projects.get('alice/proj-05')
project.members.create({'user_id': ${bob.id}, 'access_level': 30})
try:
    project.members.create({'user_id': ${bob.id}, 'access_level': 30})
    duplicate = 'created'
except gitlab.exceptions.GitlabCreateError as error:
    duplicate = [error.response_code, error.error_message]
members = sorted(m.username for m in project.members.list())
project.members.delete(${bob.id})
hook = project.hooks.create({'url': 'http://example.com/hook', 'push_events': False, 'job_events': True, 'pipeline_events': True})
hook.issues_events = True
hook.save()
read = project.hooks.get(hook.id)
flags = {k: getattr(read, k) for k in ['push_events', 'job_events', 'pipeline_events', 'issues_events']}
hooks = len(project.hooks.list())
hook.delete()
print(json.dumps({'duplicate': duplicate, 'members': members, 'flags': flags, 'hooks': hooks, 'after': len(project.hooks.list())}))
`,
    );
    assert.deepEqual(result.duplicate, [409, 'Member already exists']);
    assert.deepEqual(result.members, ['alice', 'bob']);
    assert.deepEqual(result.flags, { push_events: false, job_events: true, pipeline_events: true, issues_events: true });
    assert.equal(result.hooks, 1);
    assert.equal(result.after, 0);
  });

  it('asks for access, and a master lists, approves and denies requests', async () => {
    const asked = await pythonGitlab(
      app.url,
      bob.token,
      `
project = gl.projects.get('alice/proj-07')
request = project.accessrequests.create({})
group = gl.groups.get('crew')
group.accessrequests.create({})
print(json.dumps(request.username))
`,
    );
    assert.equal(asked, 'bob');
    const result = await pythonGitlab(
      app.url,
      alice.token,
      `
project = gl.projects.get('alice/proj-07')
requests = project.accessrequests.list()
names = [r.username for r in requests]
requests[0].approve(access_level=gitlab.const.REPORTER_ACCESS)
level = project.members.get(${bob.id}).access_level
group = gl.groups.get('crew')
group.accessrequests.list()[0].delete()
print(json.dumps({'names': names, 'level': level, 'group_requests': len(group.accessrequests.list())}))
`,
    );
    assert.deepEqual(result.names, ['bob']);
    assert.equal(result.level, 20);
    assert.equal(result.group_requests, 0);
  });
});
