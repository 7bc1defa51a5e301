import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startApp, type TestApp } from '../support/app';
import { cloneUrl, commit, git, tempDir } from '../support/git';
import { lfsGitOk, lfsWorkTree, sha256 } from '../support/git-lfs';
import { sshCloneUrl, sshGit, sshKeyPair, type SshKeyPair } from '../support/ssh';
import { unzipEntries } from '../support/zip';

/**
 * The server's own git must not read the machine's or the user's git configuration. The server of
 * this file runs (in this process) under an environment as hostile as a real machine's can be:
 * - a system configuration as Debian's git-lfs package writes it (`filter.lfs` with
 *   `required = true`), through GIT_CONFIG_SYSTEM;
 * - a HOME whose `.gitconfig` runs a script that leaves a marker file: as the hooks of every
 *   repository (`core.hooksPath`), as every clone's pack-objects (`uploadpack.packObjectsHook`,
 *   honoured from global configuration only), and as a filter on every `*.txt` file (through its
 *   own `core.attributesFile`).
 * The test's git clients are not affected: they run with GIT_CONFIG_NOSYSTEM and a HOME of their own.
 */
const hostile = tempDir();
const marker = path.join(hostile, 'marker');
// Leaves a line in the marker, then runs its arguments: a filter's or pack-objects' command.
const script = path.join(hostile, 'hostile.sh');
fs.writeFileSync(script, `#!/bin/sh\necho "$0 $*" >> '${marker}'\nexec "$@"\n`, { mode: 0o755 });
// Leaves a line in the marker and lets git go on: a hook.
const hooks = path.join(hostile, 'hooks');
fs.mkdirSync(hooks);
for (const hook of ['pre-receive', 'update', 'post-receive', 'post-update', 'reference-transaction']) {
  fs.writeFileSync(path.join(hooks, hook), `#!/bin/sh\necho "$0 $*" >> '${marker}'\nexit 0\n`, { mode: 0o755 });
}
const systemConfig = path.join(hostile, 'gitconfig');
fs.writeFileSync(
  systemConfig,
  '[filter "lfs"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n\tprocess = git-lfs filter-process\n\trequired = true\n',
);
const home = path.join(hostile, 'home');
fs.mkdirSync(home);
fs.writeFileSync(path.join(hostile, 'attributes'), '*.txt filter=hostile\n');
fs.writeFileSync(
  path.join(home, '.gitconfig'),
  [
    '[core]',
    `\thooksPath = ${hooks}`,
    `\tattributesFile = ${path.join(hostile, 'attributes')}`,
    '[uploadpack]',
    `\tpackObjectsHook = ${script}`,
    '[filter "hostile"]',
    `\tclean = ${script} cat`,
    `\tsmudge = ${script} cat`,
    '\trequired = true',
    '',
  ].join('\n'),
);

let app: TestApp;
let port: number;
before(async () => {
  process.env.GIT_CONFIG_SYSTEM = systemConfig;
  process.env.HOME = home;
  app = await startApp({ SSH_PORT: 'any', EXTERNAL_URL: 'http://127.0.0.1:0' });
  port = app.ctx.config.sshPort!;
});
after(() => app.close());

const LARGE = 'large file content';
/** What git holds for the LFS-tracked file, and what an archive must hold: its pointer, as GitLab 8.12 served it. */
const POINTER = `version https://git-lfs.github.com/spec/v1\noid sha256:${sha256(LARGE)}\nsize ${LARGE.length}\n`;

interface Owner {
  username: string;
  token: string;
  key: SshKeyPair;
}

/** A project whose master holds an LFS-tracked file (its pointer in git, its content in LFS), `.gitattributes` and a text file. */
async function lfsProject(): Promise<{ owner: Owner; id: number; path: string; name: string }> {
  const { user, token, client } = await app.createUser();
  const key = await sshKeyPair();
  assert.equal((await client.post('/user/keys', { title: 'laptop', key: key.publicKey })).status, 201);
  const name = `lfs${Math.random().toString(36).slice(2, 8)}`;
  const created = await client.post('/projects', { name, visibility_level: 0 });
  assert.equal(created.status, 201);
  const work = await lfsWorkTree({ 'big.bin': LARGE, 'notes.txt': 'plain text\n', 'README.md': '# lfs\n' });
  await lfsGitOk(['push', cloneUrl(app.url, created.body.path_with_namespace, user.username, token), 'master'], work);
  return { owner: { username: user.username, token, key }, id: created.body.id, path: created.body.path_with_namespace, name };
}

async function download(p: { id: number; owner: Owner }, file: string) {
  const response = await fetch(`${app.url}/api/v3/projects/${p.id}/repository/${file}`, { headers: { 'private-token': p.owner.token } });
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

/** Unpacks a tar archive (compressed or not) with the system's tar, which fails on a truncated one. */
function untar(body: Buffer): string {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'archive'), body);
  execFileSync('tar', ['-xf', 'archive'], { cwd: dir, stdio: 'pipe' });
  return dir;
}

const markerWritten = () => (fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : '');

describe("the server's git ignores the system's and the user's git configuration", () => {
  test('GET …/repository/archive (tar.gz) answers 200 with the whole archive, LFS files as their pointers', async () => {
    const p = await lfsProject();
    const { response, body } = await download(p, 'archive');
    assert.equal(response.status, 200, body.toString('utf8'));
    const dir = untar(body);
    const [top] = fs.readdirSync(dir).filter((entry) => entry !== 'archive');
    assert.equal(fs.readFileSync(path.join(dir, top, 'big.bin'), 'utf8'), POINTER);
    assert.equal(fs.readFileSync(path.join(dir, top, 'notes.txt'), 'utf8'), 'plain text\n');
    assert.equal(fs.readFileSync(path.join(dir, top, '.gitattributes'), 'utf8'), '*.bin filter=lfs diff=lfs merge=lfs -text\n');
    assert.equal(markerWritten(), '');
  });

  test('archive.zip and archive.tar answer 200 with the whole archive, LFS files as their pointers', async () => {
    const p = await lfsProject();
    const zip = await download(p, 'archive.zip');
    assert.equal(zip.response.status, 200, zip.body.toString('utf8'));
    const entries = await unzipEntries(zip.body);
    const pointer = Object.entries(entries).find(([name]) => name.endsWith('/big.bin'));
    assert.ok(pointer, Object.keys(entries).join(', '));
    assert.equal(pointer[1], POINTER);
    const tar = await download(p, 'archive.tar');
    assert.equal(tar.response.status, 200);
    const dir = untar(tar.body);
    const [top] = fs.readdirSync(dir).filter((entry) => entry !== 'archive');
    assert.equal(fs.readFileSync(path.join(dir, top, 'big.bin'), 'utf8'), POINTER);
    assert.equal(markerWritten(), '');
  });

  test('git archive --remote over SSH works and prints no server path', async () => {
    const p = await lfsProject();
    const out = path.join(tempDir(), 'a.tar');
    const archived = await sshGit(p.owner.key, port, ['archive', '--remote', sshCloneUrl(port, p.path), '-o', out, 'master']);
    assert.equal(archived.code, 0, archived.stderr);
    assert.equal(archived.stderr, '');
    assert.ok(!archived.stdout.includes(app.dataDir));
    const dir = untar(fs.readFileSync(out));
    assert.equal(fs.readFileSync(path.join(dir, 'big.bin'), 'utf8'), POINTER);
    assert.equal(markerWritten(), '');
  });

  test('clones, pushes and the files API run none of the hooks or filters of the configuration', async () => {
    const p = await lfsProject();
    const dir = path.join(tempDir(), 'c');
    const cloned = await git(['clone', '-q', cloneUrl(app.url, p.path, p.owner.username, p.owner.token), dir]);
    assert.equal(cloned.code, 0, cloned.stderr);
    await commit(dir, { 'more.txt': 'more\n' }, 'more');
    const pushed = await git(['push', '-q', 'origin', 'master'], dir);
    assert.equal(pushed.code, 0, pushed.stderr);
    const overSsh = await sshGit(p.owner.key, port, ['clone', '-q', sshCloneUrl(port, p.path), path.join(tempDir(), 'c')]);
    assert.equal(overSsh.code, 0, overSsh.stderr);
    const pushedOverSsh = await sshGit(p.owner.key, port, ['push', '-q', sshCloneUrl(port, p.path), 'master:other'], dir);
    assert.equal(pushedOverSsh.code, 0, pushedOverSsh.stderr);
    const created = await app.as(p.owner.token).post(`/projects/${p.id}/repository/files`, {
      file_path: 'api.txt',
      branch_name: 'master',
      content: 'from the API\n',
      commit_message: 'api',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const raw = await app.as(p.owner.token).get(`/projects/${p.id}/repository/blobs/master?filepath=notes.txt`);
    assert.equal(raw.status, 200);
    assert.equal(markerWritten(), '');
  });
});
