import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRepository } from '../../src/git/repositories';

/** An environment where the test's git client reads no user or system configuration. */
export const clientEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  return { ...env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', ...extra };
};

export function git(cwd: string, args: string[], env: Record<string, string> = {}, input?: string | Buffer): string {
  return execFileSync('git', args, { cwd, env: clientEnv(env), input, stdio: ['pipe', 'pipe', 'pipe'] }).toString('utf8');
}

export function tempDir(prefix = 'forge-git-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export const DMITRIY = { name: 'Dmitriy Zaporozhets', email: 'dmitriy.zaporozhets@gmail.com' };
export const ALICE = { name: 'Alice Liddell', email: 'alice@example.com' };

/** `git commit` in a work tree with fixed people and times, so shas are the same on every run. */
function commit(work: string, message: string, who: { name: string; email: string }, date: string, staged?: () => void): string {
  const env = {
    GIT_AUTHOR_NAME: who.name,
    GIT_AUTHOR_EMAIL: who.email,
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_NAME: who.name,
    GIT_COMMITTER_EMAIL: who.email,
    GIT_COMMITTER_DATE: date,
  };
  git(work, ['add', '-A']);
  staged?.();
  git(work, ['commit', '-q', '--allow-empty', '-m', message], env);
  return git(work, ['rev-parse', 'HEAD']).trim();
}

export interface Fixture {
  repoPath: string;
  /** Commits in the order they were made. */
  c1: string;
  c2: string;
  c3: string;
  c4: string;
  feature: string;
}

/**
 * A small repository shaped like GitLab's test fixture:
 *   c1 (Dmitriy, +03:00)  README.md, files/ruby/popen.rb, files/js/app.js
 *   c2 (Alice, -07:00)    edits README.md, adds encoding/utf8.txt, a binary image, a submodule, deletes app.js
 *   c3 (Dmitriy, +00:00)  renames popen.rb → files/ruby/open.rb, adds an executable script
 *   feature = c3 + c4'    (branch `feature`: adds feature.txt)
 *   master = c4           (Dmitriy: edits README.md again)
 *   tags: v1.0.0 → c1 (lightweight), v1.1.0 → c2 (annotated, "Version 1.1.0")
 */
export async function buildFixture(root: string): Promise<Fixture> {
  const repoPath = path.join(root, 'fixture.git');
  await createRepository(repoPath);
  const work = path.join(root, 'work');
  git(root, ['clone', '-q', repoPath, work]);
  git(work, ['checkout', '-q', '-b', 'master']);
  const write = (file: string, content: string | Buffer, mode?: number) => {
    fs.mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
    fs.writeFileSync(path.join(work, file), content);
    if (mode) fs.chmodSync(path.join(work, file), mode);
  };

  write('README.md', 'Sample repo for testing\n');
  write('files/ruby/popen.rb', "require 'fileutils'\nrequire 'open3'\n\nmodule Popen\n  extend self\nend\n");
  write('files/js/app.js', 'console.log("hi");\n');
  const c1 = commit(work, 'Initial commit\n\nWith a body line.', DMITRIY, '2012-09-20T09:06:12+0300');

  write('README.md', 'Sample repo for testing\n\nMore words.\n');
  write('encoding/utf8.txt', 'Ünïcödé\n');
  write('files/images/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 0, 255]));
  fs.rmSync(path.join(work, 'files/js/app.js'));
  // An empty directory is an unpopulated submodule: later `add -A` leave it alone.
  fs.mkdirSync(path.join(work, 'gitlab-grack'));
  const c2 = commit(work, 'x'.repeat(120), ALICE, '2012-09-21T10:00:00-0700', () =>
    git(work, ['update-index', '--add', '--cacheinfo', `160000,${c1},gitlab-grack`]),
  );

  git(work, ['mv', 'files/ruby/popen.rb', 'files/ruby/open.rb']);
  write('bin/run', '#!/bin/sh\necho run\n', 0o755);
  const c3 = commit(work, 'Rename popen\n', DMITRIY, '2012-09-22T12:00:00+0000');

  git(work, ['checkout', '-q', '-b', 'feature']);
  write('feature.txt', 'feature\n');
  const feature = commit(work, 'Add feature', ALICE, '2012-09-23T12:00:00+0200');

  git(work, ['checkout', '-q', 'master']);
  write('README.md', 'Sample repo for testing\n\nMore words.\nAnd more.\n');
  const c4 = commit(work, 'Update README', DMITRIY, '2012-09-24T08:00:00+0300');

  git(work, ['tag', 'v1.0.0', c1]);
  git(work, ['tag', '-a', 'v1.1.0', '-m', 'Version 1.1.0', c2], {
    GIT_COMMITTER_NAME: 'T',
    GIT_COMMITTER_EMAIL: 't@x',
    GIT_COMMITTER_DATE: '2012-09-25T00:00:00+0000',
  });
  git(work, ['push', '-q', 'origin', 'master', 'feature', 'v1.0.0', 'v1.1.0']);
  fs.rmSync(work, { recursive: true, force: true });
  return { repoPath, c1, c2, c3, c4, feature };
}
