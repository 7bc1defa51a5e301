import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { pythonGitlab, pythonGitlabMissing } from '../support/python-gitlab';
import { publicKeys } from '../fixtures/ssh-keys';

let app: TestApp;

before(async () => {
  app = await startApp();
});
after(async () => app?.close());

describe('python-gitlab 3.12: users', { skip: pythonGitlabMissing }, () => {
  test('auth(), users.list(all=True), create, get, update, block and unblock a user', async () => {
    const answer = await pythonGitlab(
      app.url,
      app.rootToken,
      `
gl.auth()
me = gl.user.username
for n in range(3):
    gl.users.create({'email': f'py{n}@example.com', 'password': 'password123', 'username': f'py{n}', 'name': f'Py {n}', 'skip_confirmation': True})
everyone = [u.username for u in gl.users.list(all=True, per_page=2)]
user = gl.users.get(gl.users.list(username='py1')[0].id)
user.bio = 'from python'
user.save()
again = gl.users.get(user.id)
blocked = user.block()
state_blocked = gl.users.get(user.id).state
user.unblock()
state_after = gl.users.get(user.id).state
print(json.dumps({'me': me, 'everyone': everyone, 'bio': again.bio, 'blocked': blocked, 'state_blocked': state_blocked, 'state_after': state_after, 'web_url': again.web_url}))
`,
    );
    assert.equal(answer.me, 'root');
    assert.deepEqual(answer.everyone, ['root', 'py0', 'py1', 'py2']);
    assert.equal(answer.bio, 'from python');
    assert.equal(answer.blocked, true);
    assert.equal(answer.state_blocked, 'blocked');
    assert.equal(answer.state_after, 'active');
    assert.match(answer.web_url, /\/py1$/);
  });

  test("a user's SSH keys and e-mails", async () => {
    const answer = await pythonGitlab(
      app.url,
      app.rootToken,
      `
user = gl.users.create({'email': 'keys@example.com', 'password': 'password123', 'username': 'keyed', 'name': 'Keyed', 'skip_confirmation': True})
key = user.keys.create({'title': 'laptop', 'key': ${JSON.stringify(publicKeys['ed25519-4'].key)}})
email = user.emails.create({'email': 'keyed.second@example.com'})
keys = [k.title for k in user.keys.list()]
emails = [e.email for e in user.emails.list()]
key.delete()
email.delete()
print(json.dumps({'keys': keys, 'emails': emails, 'after': [len(user.keys.list()), len(user.emails.list())]}))
`,
    );
    assert.deepEqual(answer, { keys: ['laptop'], emails: ['keyed.second@example.com'], after: [0, 0] });
  });

  test('errors: GitlabGetError for a missing user, GitlabAuthenticationError for a bad token', async () => {
    const answer = await pythonGitlab(
      app.url,
      app.rootToken,
      `
out = {}
try:
    gl.users.get(99999)
except gitlab.exceptions.GitlabGetError as e:
    out['get'] = [e.response_code, str(e.error_message)]
try:
    gitlab.Gitlab(${JSON.stringify(app.url)}, private_token='not-a-token').auth()
except gitlab.exceptions.GitlabAuthenticationError as e:
    out['auth'] = e.response_code
print(json.dumps(out))
`,
    );
    assert.deepEqual(answer, { get: [404, '404 User Not Found'], auth: 401 });
  });

  test('templates', async () => {
    const answer = await pythonGitlab(
      app.url,
      undefined,
      `
node = gl.gitignores.get('Node')
licenses = [l.key for l in gl.licenses.list(all=True)]
ci = gl.gitlabciymls.list(all=True)
print(json.dumps({'node': 'node_modules' in node.content, 'mit': 'mit' in licenses, 'ci': len(ci) > 0}))
`,
    );
    assert.deepEqual(answer, { node: true, mit: true, ci: true });
  });
});

describe('python-gitlab 3.12: tokens', { skip: pythonGitlabMissing }, () => {
  test('a personal access token made by an administrator, then revoked', async () => {
    const answer = await pythonGitlab(
      app.url,
      app.rootToken,
      `
user = gl.users.create({'email': 'pat@example.com', 'password': 'password123', 'username': 'patty', 'name': 'Patty', 'skip_confirmation': True})
made = user.personal_access_tokens.create({'name': 'script', 'scopes': ['api']})
as_user = gitlab.Gitlab(${JSON.stringify(app.url)}, private_token=made.token)
as_user.auth()
who = as_user.user.username
listed = [t.name for t in as_user.personal_access_tokens.list()]
as_user.personal_access_tokens.delete(made.id)
try:
    gitlab.Gitlab(${JSON.stringify(app.url)}, private_token=made.token).auth()
    after = 'still works'
except gitlab.exceptions.GitlabAuthenticationError as e:
    after = e.response_code
print(json.dumps({'who': who, 'listed': listed, 'after': after}))
`,
    );
    assert.deepEqual(answer, { who: 'patty', listed: ['script'], after: 401 });
  });

  test('Gitlab(url, oauth_token=...) after a password grant', async () => {
    await app.createUser({ username: 'oauthy', email: 'oauthy@example.com' });
    const answer = await pythonGitlab(
      app.url,
      undefined,
      `
import requests
grant = requests.post(${JSON.stringify(app.url)} + '/oauth/token', data={'grant_type': 'password', 'username': 'oauthy', 'password': 'password123'}).json()
ogl = gitlab.Gitlab(${JSON.stringify(app.url)}, oauth_token=grant['access_token'])
ogl.auth()
print(json.dumps({'who': ogl.user.username, 'type': grant['token_type']}))
`,
    );
    assert.deepEqual(answer, { who: 'oauthy', type: 'bearer' });
  });
});
