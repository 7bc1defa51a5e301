import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApp, type TestApp } from '../support/app';
import { grantProjectRole } from '../support/roles';
import { cloneUrl, commit, git, tempDir, workTree } from '../support/git';
import { eventually } from '../support/eventually';
import { HookListener } from '../support/hook-listener';
import { ssh, sshCloneUrl, sshGit, sshKeyPair, type SshKeyPair } from '../support/ssh';
import { hostKey } from '../../src/ssh/host-key';
import { projectUrls } from '../../src/lib/urls';

let app: TestApp;
let port: number;
before(async () => {
  // SSH_PORT=any: a port the system picks, settled in the config once listening.
  app = await startApp({ SSH_PORT: 'any' });
  port = app.ctx.config.sshPort!;
});
after(() => app.close());

interface Person {
  id: number;
  username: string;
  token: string;
  key: SshKeyPair;
}

/** A user with an SSH key made by ssh-keygen and added through the API. */
async function person(): Promise<Person> {
  const { user, token, client } = await app.createUser();
  const key = await sshKeyPair();
  const added = await client.post('/user/keys', { title: 'laptop', key: key.publicKey });
  assert.equal(added.status, 201);
  return { id: user.id, username: user.username, token, key };
}

/** A project owned by a new user, with one commit on master pushed over SSH. */
async function project(visibility: number) {
  const owner = await person();
  const created = await app
    .as(owner.token)
    .post('/projects', { name: `p${Math.random().toString(36).slice(2, 8)}`, visibility_level: visibility });
  assert.equal(created.status, 201);
  const pathWithNamespace = created.body.path_with_namespace as string;
  const pushed = await sshGit(owner.key, port, ['push', sshCloneUrl(port, pathWithNamespace), 'master'], await workTree());
  assert.equal(pushed.code, 0, pushed.stderr);
  return {
    owner,
    id: created.body.id as number,
    path: pathWithNamespace,
    project: created.body,
    url: sshCloneUrl(port, pathWithNamespace),
  };
}

async function member(projectId: number, level: number): Promise<Person> {
  const who = await person();
  await grantProjectRole(app, projectId, who.id, level);
  return who;
}

const sshClone = (who: { key: SshKeyPair }, url: string) => sshGit(who.key, port, ['clone', '-q', url, `${tempDir()}/c`]);

/** The reason `git push` printed for a refused ref: `! [remote rejected] a -> b (<reason>)`. */
const rejection = (stderr: string) => /\[remote rejected\] .*\((.+)\)/.exec(stderr)?.[1];

describe('the SSH server', () => {
  test('ssh_url_to_repo names the SSH server: ssh://git@host:port/… off port 22, git@host:… on it', async () => {
    const p = await project(0);
    assert.equal(p.project.ssh_url_to_repo, `ssh://git@localhost:${port}/${p.path}.git`);
    const shape = { path: 'proj', namespace: { path: 'ns' } };
    assert.equal(
      projectUrls({ externalUrl: 'https://forge.example.com', sshHost: '', sshPort: 22 }, shape).ssh,
      'git@forge.example.com:ns/proj.git',
    );
    assert.equal(
      projectUrls({ externalUrl: 'https://forge.example.com', sshHost: 'ssh.example.com', sshPort: 2222 }, shape).ssh,
      'ssh://git@ssh.example.com:2222/ns/proj.git',
    );
  });

  test('the host key is made once under DATA_DIR, readable by its owner only, and kept', () => {
    const file = path.join(app.dataDir, 'ssh_host_ed25519_key');
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.equal(hostKey(app.dataDir), fs.readFileSync(file, 'utf8'));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-host-key-'));
    try {
      assert.equal(hostKey(dir), hostKey(dir));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('RSA, ECDSA and Ed25519 keys all sign in', async () => {
    const p = await project(20);
    for (const type of ['rsa', 'ecdsa', 'ed25519'] as const) {
      const { client } = await app.createUser();
      const key = await sshKeyPair(type);
      assert.equal((await client.post('/user/keys', { title: type, key: key.publicKey })).status, 201);
      const cloned = await sshClone({ key }, p.url);
      assert.equal(cloned.code, 0, `${type}: ${cloned.stderr}`);
    }
  });

  test('an unknown key is refused at authentication, and nothing is stored', async () => {
    const p = await project(20);
    const stranger = { key: await sshKeyPair() };
    const before = await git(['ls-remote', cloneUrl(app.url, p.path)]);
    const cloned = await sshClone(stranger, p.url);
    assert.notEqual(cloned.code, 0);
    assert.match(cloned.stderr, /Permission denied \(publickey\)/);
    const pushed = await sshGit(stranger.key, port, ['push', p.url, 'master:stranger'], await workTree());
    assert.notEqual(pushed.code, 0);
    assert.equal((await git(['ls-remote', cloneUrl(app.url, p.path)])).stdout, before.stdout);
  });

  test("a blocked user's key is refused with the reason", async () => {
    const p = await project(20);
    const blocked = await person();
    assert.equal((await sshClone(blocked, p.url)).code, 0);
    assert.equal((await app.root.put(`/users/${blocked.id}/block`)).status, 200);
    const refused = await sshClone(blocked, p.url);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /Your account has been blocked\./);
  });

  test('a shell, other commands, paths outside the repositories and injected commands are refused with a message and a non-zero status', async () => {
    const p = await project(20);
    const cases: Array<[string | undefined, RegExp]> = [
      [undefined, /no shell access/],
      ['sh -c id', /runs only git-upload-pack, git-receive-pack/],
      ["git-upload-pack '../../etc'", /Not a project path/],
      // A path is only ever a project's name: this one names no project.
      ["git-upload-pack '/etc/passwd'", /The project you were looking for could not be found\./],
      ["git-upload-pack '../x/y.git'", /Not a project path/],
      ["git-upload-pack 'a/b.git'; rm -rf /", /runs only git-upload-pack/],
      [`git-upload-pack '${p.path}.git' && id`, /runs only git-upload-pack/],
      [`git-upload-pack '$(id)/x.git'`, /Not a project path/],
      ['git-upload-pack', /runs only git-upload-pack/],
      ["git-upload-pack 'nobody/nothing.git'", /The project you were looking for could not be found\./],
    ];
    for (const [command, message] of cases) {
      const result = await ssh(p.owner.key, port, command);
      assert.notEqual(result.code, 0, `${command}: ${result.stderr}`);
      assert.match(result.stderr, message, String(command));
      assert.equal(result.stdout, '', String(command));
    }
  });
  test("a push that is not in git's format is refused with a message; an empty one ends quietly; nothing is stored", async () => {
    const p = await project(0);
    const refs = () => git(['ls-remote', cloneUrl(app.url, p.path, p.owner.username, p.owner.token)]);
    const before = (await refs()).stdout;
    const garbage = await ssh(p.owner.key, port, `git-receive-pack '${p.path}.git'`, 'this is not a pkt-line\n');
    assert.notEqual(garbage.code, 0);
    assert.match(garbage.stderr, /not in git's pkt-line format/);
    assert.match(garbage.stdout, /refs\/heads\/master/, 'the advertisement came first');
    const empty = await ssh(p.owner.key, port, `git-receive-pack '${p.path}.git'`, '0000');
    assert.equal(empty.code, 0, empty.stderr);
    assert.equal((await refs()).stdout, before);
  });
});

describe('clone, fetch and push over SSH: the access of git over HTTP', () => {
  // Who reads and who pushes, per visibility; the same callers are asked over HTTP too.
  const callers = ['owner', 'master', 'developer', 'reporter', 'guest', 'stranger'] as const;
  const levels = { master: 40, developer: 30, reporter: 20, guest: 10 } as const;
  const readers: Record<number, string[]> = {
    0: ['owner', 'master', 'developer', 'reporter'],
    10: [...callers],
    20: [...callers],
  };
  const pushers = ['owner', 'master', 'developer'];

  for (const visibility of [0, 10, 20]) {
    test(`visibility ${visibility}: each role clones, fetches and pushes as over HTTP`, async () => {
      const p = await project(visibility);
      const people: Record<string, Person> = { owner: p.owner, stranger: await person() };
      for (const [role, level] of Object.entries(levels)) people[role] = await member(p.id, level);
      for (const role of callers) {
        const who = people[role];
        const cloned = await sshClone(who, p.url);
        const overHttp = await git(['clone', '-q', cloneUrl(app.url, p.path, who.username, who.token), `${tempDir()}/c`]);
        const reads = readers[visibility].includes(role);
        assert.equal(cloned.code === 0, reads, `${role} clone: ${cloned.stderr}`);
        assert.equal(overHttp.code === 0, reads, `${role} clone over HTTP: ${overHttp.stderr}`);
        if (!reads) {
          const message =
            role === 'stranger'
              ? /The project you were looking for could not be found\./
              : /You are not allowed to download code from this project\./;
          assert.match(cloned.stderr, message, role);
        }
        const dir = await workTree('master', { [`${role}.txt`]: `${role}\n` });
        const pushed = await sshGit(who.key, port, ['push', p.url, `master:refs/heads/from-${role}`], dir);
        assert.equal(pushed.code === 0, pushers.includes(role), `${role} push: ${pushed.stderr}`);
        if (!pushers.includes(role)) {
          const message =
            role === 'stranger' && visibility === 0 ? /could not be found/ : /You are not allowed to push code to this project\./;
          assert.match(pushed.stderr, message, role);
        }
      }
      const branches = await git(['ls-remote', '--heads', cloneUrl(app.url, p.path, p.owner.username, p.owner.token)]);
      assert.deepEqual(branches.stdout.match(/refs\/heads\/from-\S+/g)?.sort(), pushers.map((role) => `refs/heads/from-${role}`).sort());
    });
  }

  test('a clone fetches again after a push, over protocol v2 and v0', async () => {
    const p = await project(0);
    const dir = `${tempDir()}/c`;
    assert.equal((await sshGit(p.owner.key, port, ['clone', '-q', p.url, dir])).code, 0);
    const other = await workTree('master', { 'next.txt': 'next\n' });
    assert.equal((await sshGit(p.owner.key, port, ['push', '-q', p.url, 'master:next'], other)).code, 0);
    for (const version of ['2', '0']) {
      const fetched = await sshGit(p.owner.key, port, ['-c', `protocol.version=${version}`, 'fetch', '-q', 'origin', 'next'], dir);
      assert.equal(fetched.code, 0, fetched.stderr);
    }
    assert.equal((await git(['rev-parse', 'FETCH_HEAD'], dir)).stdout, (await git(['rev-parse', 'HEAD'], other)).stdout);
  });

  test('git archive --remote reads over SSH as a clone does', async () => {
    const p = await project(0);
    const out = path.join(tempDir(), 'a.tar');
    const archived = await sshGit(p.owner.key, port, ['archive', '--remote', p.url, '-o', out, 'master']);
    assert.equal(archived.code, 0, archived.stderr);
    assert.ok(fs.statSync(out).size > 0);
    const stranger = await person();
    const refused = await sshGit(stranger.key, port, ['archive', '--remote', p.url, '-o', out, 'master']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /could not be found/);
  });
});

describe('the push rule over SSH', () => {
  test('a developer pushing to a protected branch reads the same refusal as over HTTP, and nothing moves', async () => {
    const p = await project(0);
    const developer = await member(p.id, 30);
    const dir = `${tempDir()}/c`;
    assert.equal((await sshGit(developer.key, port, ['clone', '-q', p.url, dir])).code, 0);
    await commit(dir, { 'dev.txt': 'x\n' }, 'developer change');
    const overSsh = await sshGit(developer.key, port, ['push', 'origin', 'master'], dir);
    const overHttp = await git(['push', cloneUrl(app.url, p.path, developer.username, developer.token), 'master'], dir);
    assert.notEqual(overSsh.code, 0);
    assert.equal(rejection(overSsh.stderr), 'You are not allowed to push code to protected branches on this project.');
    assert.equal(rejection(overSsh.stderr), rejection(overHttp.stderr));
    assert.match(overSsh.stderr, /remote: You are not allowed to push code to protected branches on this project\./);
    const remote = await git(['ls-remote', cloneUrl(app.url, p.path, p.owner.username, p.owner.token), 'refs/heads/master']);
    assert.notEqual(remote.stdout.slice(0, 40), (await git(['rev-parse', 'HEAD'], dir)).stdout.trim());
    await app.services.protectedBranches.protect(p.id, 'master', { developersCanPush: true, developersCanMerge: false });
    assert.equal((await sshGit(developer.key, port, ['push', 'origin', 'master'], dir)).code, 0);
  });

  test('nobody force-pushes or deletes a protected branch over SSH, masters included', async () => {
    const p = await project(0);
    const dir = `${tempDir()}/c`;
    assert.equal((await sshGit(p.owner.key, port, ['clone', '-q', p.url, dir])).code, 0);
    await commit(dir, { 'a.txt': 'a\n' }, 'to be rewritten');
    assert.equal((await sshGit(p.owner.key, port, ['push', '-q', 'origin', 'master'], dir)).code, 0);
    await git(['reset', '-q', '--hard', 'HEAD~1'], dir);
    await commit(dir, { 'b.txt': 'b\n' }, 'rewritten history');
    const forced = await sshGit(p.owner.key, port, ['push', '--force', 'origin', 'master'], dir);
    assert.notEqual(forced.code, 0);
    assert.match(forced.stderr, /You are not allowed to force push code to a protected branch on this project\./);
    const deleted = await sshGit(p.owner.key, port, ['push', 'origin', ':master'], dir);
    assert.notEqual(deleted.code, 0);
    assert.equal(rejection(deleted.stderr), 'You are not allowed to delete protected branches from this project.');
    assert.match(
      (await git(['ls-remote', cloneUrl(app.url, p.path, p.owner.username, p.owner.token), 'refs/heads/master'])).stdout,
      /refs\/heads\/master/,
    );
  });

  test('a push over SSH records the push event, fires the push hook and starts a pipeline, as over HTTP', async (t) => {
    const p = await project(0);
    const listener = await HookListener.start();
    t.after(() => listener.close());
    assert.equal((await app.as(p.owner.token).post(`/projects/${p.id}/hooks`, { url: listener.url, push_events: true })).status, 201);
    const dir = `${tempDir()}/c`;
    assert.equal((await sshGit(p.owner.key, port, ['clone', '-q', p.url, dir])).code, 0);
    await commit(dir, { '.gitlab-ci.yml': 'test:\n  script: echo ok\n' }, 'add CI');
    const pushed = await sshGit(p.owner.key, port, ['push', '-q', 'origin', 'master'], dir);
    assert.equal(pushed.code, 0, pushed.stderr);
    const sha = (await git(['rev-parse', 'HEAD'], dir)).stdout.trim();
    const owner = app.as(p.owner.token);
    const pipelines = await eventually(async () => {
      const list = await owner.get(`/projects/${p.id}/pipelines`);
      return list.body.find((pipeline: any) => pipeline.sha === sha) ? list.body : undefined;
    });
    assert.equal(pipelines.find((pipeline: any) => pipeline.sha === sha).ref, 'master');
    const events = await eventually(async () => {
      const list = await owner.get(`/projects/${p.id}/events`);
      return list.body.filter((event: any) => event.action_name === 'pushed to' && event.data?.after === sha).length > 0
        ? list.body
        : undefined;
    });
    const event = events.find((e: any) => e.action_name === 'pushed to' && e.data?.after === sha);
    assert.equal(event.author_id, p.owner.id);
    assert.equal(event.data.ref, 'refs/heads/master');
    const hook = await listener.waitFor((received) => received.body?.after === sha);
    assert.equal(hook.body.user_id, p.owner.id);
    assert.equal(hook.body.repository.git_ssh_url, `ssh://git@localhost:${port}/${p.path}.git`);
  });
});

describe('deploy keys over SSH', () => {
  test('a deploy key clones and fetches the projects it is enabled on, pushes nowhere, and reads nothing else', async () => {
    const p = await project(0);
    const other = await project(0);
    const publicOne = await project(20);
    const deployKey = { key: await sshKeyPair() };
    const added = await app.as(p.owner.token).post(`/projects/${p.id}/deploy_keys`, { title: 'ci', key: deployKey.key.publicKey });
    assert.equal(added.status, 201);

    const dir = `${tempDir()}/c`;
    const cloned = await sshGit(deployKey.key, port, ['clone', '-q', p.url, dir]);
    assert.equal(cloned.code, 0, cloned.stderr);
    assert.equal((await sshGit(deployKey.key, port, ['fetch', '-q', 'origin'], dir)).code, 0);

    await commit(dir, { 'deploy.txt': 'x\n' }, 'a deploy key pushing');
    const before = (await git(['ls-remote', cloneUrl(app.url, p.path, p.owner.username, p.owner.token)])).stdout;
    for (const ref of ['master', 'master:refs/heads/new-branch']) {
      const pushed = await sshGit(deployKey.key, port, ['push', 'origin', ref], dir);
      assert.notEqual(pushed.code, 0);
      assert.match(pushed.stderr, /Deploy keys are not allowed to push code\./);
    }
    assert.equal((await git(['ls-remote', cloneUrl(app.url, p.path, p.owner.username, p.owner.token)])).stdout, before);

    for (const elsewhere of [other, publicOne]) {
      const refused = await sshClone(deployKey, elsewhere.url);
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /The project you were looking for could not be found\./);
    }

    // Enabled on another project, it reads that one too; disabled, no longer.
    assert.equal(
      (await app.as(other.owner.token).post(`/projects/${other.id}/deploy_keys`, { title: 'ci', key: deployKey.key.publicKey })).status,
      400,
    );
    assert.equal((await app.root.post(`/projects/${other.id}/deploy_keys/${added.body.id}/enable`)).status, 201);
    assert.equal((await sshClone(deployKey, other.url)).code, 0);
    assert.equal((await app.as(other.owner.token).delete(`/projects/${other.id}/deploy_keys/${added.body.id}/disable`)).status, 200);
    assert.notEqual((await sshClone(deployKey, other.url)).code, 0);
  });

  test('git-lfs-authenticate hands out the LFS address and a credential its HTTP routes accept; strangers and bad operations are refused', async () => {
    const p = await project(0);
    const answered = await ssh(p.owner.key, port, `git-lfs-authenticate ${p.path}.git upload`);
    assert.equal(answered.code, 0, answered.stderr);
    const credential = JSON.parse(answered.stdout);
    assert.equal(
      credential.href,
      `${projectUrls(app.ctx.config, { path: p.project.path, namespace: { path: p.path.split('/')[0] } }).http}/info/lfs`,
    );
    assert.match(credential.header.Authorization, /^Basic /);
    assert.ok(credential.expires_in > 0);
    const batch = await fetch(`${credential.href}/objects/batch`, {
      method: 'POST',
      headers: { ...credential.header, accept: 'application/vnd.git-lfs+json', 'content-type': 'application/vnd.git-lfs+json' },
      body: JSON.stringify({ operation: 'upload', objects: [{ oid: 'a'.repeat(64), size: 3 }] }),
    });
    assert.equal(batch.status, 200);
    assert.ok((await batch.json()).objects[0].actions.upload.href);
    const stranger = await person();
    const refused = await ssh(stranger.key, port, `git-lfs-authenticate ${p.path}.git upload`);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /could not be found/);
    const badOperation = await ssh(p.owner.key, port, `git-lfs-authenticate ${p.path}.git delete`);
    assert.match(badOperation.stderr, /download or upload/);
  });
});
