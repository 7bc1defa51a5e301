import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { createProjectWorld } from '../support/project-world';
import { pythonGitlab, pythonGitlabMissing } from '../support/python-gitlab';

let app: TestApp;
let world: Awaited<ReturnType<typeof makeWorld>>;

const makeWorld = () =>
  createProjectWorld(app, {
    roles: [],
    commits: [{ files: { 'README.md': '# readme\n', 'lib/a.rb': 'a\n' } }, { files: { 'lib/b.rb': 'b\n' } }],
  });

/** The owner's python-gitlab with `project` ready. */
const asOwner = (script: string) => pythonGitlab(app.url, world.owner.token, `project = gl.projects.get(${world.id})\n${script}`);

before(async () => {
  app = await startApp();
  world = await makeWorld();
});
after(async () => app?.close());

describe('python-gitlab 3.12 on the repository', { skip: pythonGitlabMissing }, () => {
  test('branches: create, list, get, delete; a second create raises GitlabCreateError', async () => {
    const result = await asOwner(`
branch = project.branches.create({'branch': 'feature/py', 'ref': 'master'})
names = [b.name for b in project.branches.list(all=True)]
got = project.branches.get('feature/py')
try:
    project.branches.create({'branch': 'feature/py', 'ref': 'master'})
    duplicate = None
except gitlab.exceptions.GitlabCreateError as error:
    duplicate = [error.response_code, error.error_message]
project.branches.delete('feature/py')
try:
    project.branches.get('feature/py')
    gone = False
except gitlab.exceptions.GitlabGetError as error:
    gone = error.response_code == 404
print(json.dumps({'created': branch.name, 'names': names, 'got': got.commit['id'], 'duplicate': duplicate, 'gone': gone}))
`);
    assert.equal(result.created, 'feature/py');
    assert.ok(result.names.includes('feature/py'));
    assert.equal(result.got, world.shas[1]);
    assert.deepEqual(result.duplicate, [400, 'Branch already exists']);
    assert.equal(result.gone, true);
  });

  test('protected branches: create with MAINTAINER_ACCESS, list, delete', async () => {
    const result = await asOwner(`
rule = project.protectedbranches.create({'name': 'release/*', 'push_access_level': gitlab.const.MAINTAINER_ACCESS, 'merge_access_level': gitlab.const.DEVELOPER_ACCESS})
listed = [r.name for r in project.protectedbranches.list()]
got = project.protectedbranches.get('release/*')
project.protectedbranches.delete('release/*')
print(json.dumps({'push': rule.push_access_levels, 'merge': got.merge_access_levels[0]['access_level'], 'listed': listed, 'after': [r.name for r in project.protectedbranches.list()]}))
`);
    assert.deepEqual(result.push, [{ access_level: 40, access_level_description: 'Maintainers' }]);
    assert.equal(result.merge, 30);
    assert.deepEqual(result.listed, ['release/*']);
    assert.deepEqual(result.after, []);
  });

  test('files: create, get and decode, raw, update, delete; a missing file raises GitlabGetError', async () => {
    const result = await asOwner(`
project.files.create({'file_path': 'docs/guide.md', 'branch': 'master', 'content': 'guide v1', 'commit_message': 'add guide'})
f = project.files.get(file_path='docs/guide.md', ref='master')
first = f.decode().decode()
raw = project.files.raw(file_path='docs/guide.md', ref='master').decode()
f.content = 'guide v2'
f.save(branch='master', commit_message='update guide')
second = project.files.get(file_path='docs/guide.md', ref='master').decode().decode()
f.delete(branch='master', commit_message='remove guide')
try:
    project.files.get(file_path='docs/guide.md', ref='master')
    missing = None
except gitlab.exceptions.GitlabGetError as error:
    missing = error.response_code
print(json.dumps({'first': first, 'raw': raw, 'second': second, 'missing': missing}))
`);
    assert.deepEqual(result, { first: 'guide v1', raw: 'guide v1', second: 'guide v2', missing: 404 });
  });

  test('commits: several actions in one commit, every page listed, the diff', async () => {
    const result = await asOwner(`
commit = project.commits.create({
    'branch': 'master',
    'commit_message': 'several actions',
    'actions': [
        {'action': 'create', 'file_path': 'new.txt', 'content': 'new'},
        {'action': 'update', 'file_path': 'README.md', 'content': '# changed'},
        {'action': 'move', 'file_path': 'lib/c.rb', 'previous_path': 'lib/a.rb'},
        {'action': 'delete', 'file_path': 'lib/b.rb'},
    ],
})
commits = project.commits.list(all=True, per_page=1)
diff = commit.diff()
whole = project.commits.list(per_page=100)
print(json.dumps({'title': commit.title, 'count': len(commits), 'whole': [c.id for c in whole], 'paged': [c.id for c in commits], 'first': commits[0].id == commit.id, 'paths': sorted(d['new_path'] for d in diff)}))
`);
    assert.equal(result.title, 'several actions');
    // One commit a page, followed through the Link headers, is the whole history in one page.
    assert.ok(result.count > 3);
    assert.deepEqual(result.paged, result.whole);
    assert.equal(result.first, true);
    assert.deepEqual(result.paths, ['README.md', 'lib/b.rb', 'lib/c.rb', 'new.txt']);
  });

  test('tags, tree, compare and archive', async () => {
    const result = await asOwner(`
import io, tarfile
project.tags.create({'tag_name': 'v1', 'ref': '${world.shas[0]}'})
tags = [t.name for t in project.tags.list()]
project.tags.delete('v1')
after = [t.name for t in project.tags.list()]
tree = sorted(e['path'] for e in project.repository_tree(recursive=True, all=True, ref='${world.shas[1]}'))
compare = project.repository_compare('${world.shas[0]}', '${world.shas[1]}')
archive = project.repository_archive(sha='${world.shas[1]}')
names = sorted(m.name.split('/', 1)[1] for m in tarfile.open(fileobj=io.BytesIO(archive), mode='r:gz').getmembers() if m.isfile())
print(json.dumps({'tags': tags, 'after': after, 'tree': tree, 'compare': [c['id'] for c in compare['commits']], 'archive': names}))
`);
    assert.deepEqual(result.tags, ['v1']);
    assert.deepEqual(result.after, []);
    assert.deepEqual(result.tree, ['README.md', 'lib', 'lib/a.rb', 'lib/b.rb']);
    assert.deepEqual(result.compare, [world.shas[1]]);
    assert.deepEqual(result.archive, ['README.md', 'lib/a.rb', 'lib/b.rb']);
  });
});
