import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  /** Added to (or replacing) the fixed environment. */
  env?: Record<string, string>;
  input?: Buffer | string;
  timeoutMs?: number;
}

/**
 * Runs a client program (git, ssh) as the tests do: never prompting, with a fixed identity, no
 * system git config, HOME in the temp folder; answers its exit code and output, never throws.
 */
export function runClient(program: string, args: string[], { cwd, env = {}, input, timeoutMs }: RunOptions = {}): Promise<GitResult> {
  return new Promise((resolve) => {
    const child = execFile(
      program,
      args,
      {
        cwd,
        env: {
          ...process.env,
          GIT_TERMINAL_PROMPT: '0',
          GIT_AUTHOR_NAME: 'Ada Tester',
          GIT_AUTHOR_EMAIL: 'ada@example.com',
          GIT_COMMITTER_NAME: 'Ada Tester',
          GIT_COMMITTER_EMAIL: 'ada@example.com',
          GIT_CONFIG_NOSYSTEM: '1',
          HOME: os.tmpdir(),
          ...env,
        },
        maxBuffer: 64 * 1024 * 1024,
        timeout: timeoutMs,
      },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    if (input !== undefined) child.stdin!.end(input);
  });
}

/** Runs the real `git` client, never prompting, with a fixed identity. */
export function git(args: string[], cwd?: string): Promise<GitResult> {
  return runClient('git', ['-c', 'credential.helper=', '-c', 'protocol.version=2', ...args], { cwd });
}

/** The clone URL of a project, with HTTP Basic credentials when given. */
export function cloneUrl(baseUrl: string, pathWithNamespace: string, login?: string, secret?: string): string {
  const url = new URL(`${baseUrl}/${pathWithNamespace}.git`);
  if (login) {
    url.username = encodeURIComponent(login);
    url.password = encodeURIComponent(secret ?? '');
  }
  return url.toString();
}

// Working copies and clones are many and small; each test file's process removes its own when it exits.
const madeHere = new Set<string>();
process.once('exit', () => {
  for (const dir of madeHere) fs.rmSync(dir, { recursive: true, force: true });
});

function scratchDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  madeHere.add(dir);
  return dir;
}

/** A fresh working repository with one commit on `branch`, in a temp dir removed when the process exits. */
export async function workTree(branch = 'master', files: Record<string, string> = { 'README.md': '# hello\n' }): Promise<string> {
  const dir = scratchDir('forge-work-');
  await git(['init', '-q', '-b', branch], dir);
  await commit(dir, files, 'initial commit');
  return dir;
}

export async function commit(dir: string, files: Record<string, string>, message: string): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  await git(['add', '-A'], dir);
  const result = await git(['commit', '-q', '-m', message], dir);
  if (result.code !== 0) throw new Error(`commit failed: ${result.stderr}`);
}

/** An empty temp dir, removed when the process exits. */
export function tempDir(): string {
  return scratchDir('forge-clone-');
}
