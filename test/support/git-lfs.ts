import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { runClient, tempDir, type GitResult } from './git';

// git-lfs writes its global settings under HOME: each test process has its own, removed with its temp dirs.
const home = tempDir();

/** Runs the real `git` client with git-lfs, never prompting, with a fixed identity and a HOME of its own. */
export function lfsGit(args: string[], cwd?: string, env: Record<string, string> = {}): Promise<GitResult> {
  return runClient('git', ['-c', 'credential.helper=', '-c', 'lfs.locksverify=false', ...args], { cwd, env: { HOME: home, ...env } });
}

/** Runs git and fails with its output when it fails. */
export async function lfsGitOk(args: string[], cwd?: string, env?: Record<string, string>): Promise<string> {
  const result = await lfsGit(args, cwd, env);
  if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed (${result.code}): ${result.stderr}${result.stdout}`);
  return result.stdout;
}

/** A working repository with git-lfs tracking `*.bin` and these files committed on master. */
export async function lfsWorkTree(files: Record<string, Buffer | string>): Promise<string> {
  const dir = tempDir();
  await lfsGitOk(['init', '-q', '-b', 'master'], dir);
  await lfsGitOk(['lfs', 'install', '--local'], dir);
  await lfsGitOk(['lfs', 'track', '*.bin'], dir);
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), content);
  await lfsGitOk(['add', '-A'], dir);
  await lfsGitOk(['commit', '-q', '-m', 'large files'], dir);
  return dir;
}

export const sha256 = (content: Buffer | string): string => crypto.hash('sha256', content, 'hex');

/** An LFS object's id and size, as the batch API takes them. */
export const lfsObject = (content: Buffer | string) => ({ oid: sha256(content), size: Buffer.byteLength(content) });

/** Where the disk file store keeps an object's content. */
export const storedObjectPath = (dataDir: string, oid: string): string =>
  path.join(dataDir, 'files', 'lfs', 'objects', oid.slice(0, 2), oid.slice(2, 4), oid);

export const basicAuth = (login: string, secret: string): string => `Basic ${Buffer.from(`${login}:${secret}`).toString('base64')}`;
