import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { GitCommandError, GitStoreError } from './errors';
import { runGit } from './run';
import { headBranch } from './refs';
import { isValidBranchName } from './ref-names';
import type { GitReader } from './reader';

/**
 * Repositories are built under a temporary name beside their final place and renamed in, so a
 * reader never sees half a repository and a crash leaves only a `.tmp-…` directory behind.
 */
async function scratchPath(finalPath: string, purpose: string): Promise<string> {
  await fs.mkdir(path.dirname(finalPath), { recursive: true });
  return path.join(path.dirname(finalPath), `.${purpose}-${path.basename(finalPath)}-${randomBytes(6).toString('hex')}`);
}

export async function repositoryExists(repoPath: string): Promise<boolean> {
  try {
    return (await fs.stat(path.join(repoPath, 'HEAD'))).isFile();
  } catch {
    return false;
  }
}

/** Moves a finished repository into place; refuses to replace one that exists. */
async function moveIntoPlace(scratch: string, repoPath: string): Promise<void> {
  // No hooks at all: pushes are checked before git sees them, and nothing runs inside git.
  await fs.rm(path.join(scratch, 'hooks'), { recursive: true, force: true });
  await fs.mkdir(path.join(scratch, 'hooks'));
  if (await repositoryExists(repoPath)) {
    await fs.rm(scratch, { recursive: true, force: true });
    throw new GitStoreError('repository_exists', `a repository already exists at ${repoPath}`);
  }
  try {
    await fs.rename(scratch, repoPath);
  } catch (error) {
    await fs.rm(scratch, { recursive: true, force: true });
    if ((error as NodeJS.ErrnoException).code === 'ENOTEMPTY' || (error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new GitStoreError('repository_exists', `a repository already exists at ${repoPath}`);
    }
    throw error;
  }
}

/** A new, empty bare repository whose HEAD names `refs/heads/master`, with an empty hooks directory. */
export async function createRepository(repoPath: string): Promise<void> {
  const scratch = await scratchPath(repoPath, 'tmp');
  await runGit(null, ['init', '--bare', '--quiet', '--template=', '--initial-branch=master', scratch]);
  await moveIntoPlace(scratch, repoPath);
}

/** Removes a repository; a missing one is already removed. */
export async function deleteRepository(git: GitReader, repoPath: string): Promise<void> {
  git.forget(repoPath);
  const trash = await scratchPath(repoPath, 'deleted');
  try {
    await fs.rename(repoPath, trash);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  await fs.rm(trash, { recursive: true, force: true });
}

/**
 * A fork: branches and tags of the source in a repository of its own. Objects are hard-linked
 * (`clone --local`), never borrowed through alternates, so deleting the source never breaks the fork.
 */
export async function forkRepository(sourcePath: string, forkPath: string): Promise<void> {
  if (!(await repositoryExists(sourcePath))) throw new GitStoreError('repository_missing', `no repository at ${sourcePath}`);
  const scratch = await scratchPath(forkPath, 'tmp');
  try {
    await runGit(null, ['clone', '--bare', '--local', '--quiet', '--template=', '--end-of-options', sourcePath, scratch]);
    await forgetOrigin(scratch);
    // An empty source gives a fork whose HEAD follows the default; keep the source's choice.
    const head = await headBranch(sourcePath);
    if (head !== undefined) await runGit(scratch, ['symbolic-ref', 'HEAD', `refs/heads/${head}`]);
  } catch (error) {
    await fs.rm(scratch, { recursive: true, force: true });
    throw error;
  }
  await moveIntoPlace(scratch, forkPath);
}

export interface ImportOptions {
  /**
   * Allow `file://` URLs. Off by default: a user could otherwise import any repository readable
   * on the server, other projects' private ones included.
   */
  allowFileUrls?: boolean;
  /** Give up after this long (default 30 minutes). */
  timeoutMs?: number;
}

/**
 * A repository made from a remote one: its branches and tags and its HEAD (a bare clone).
 * The target may already exist if it is still empty (a project created before its import ran).
 * Failures say what git said, with any credentials in the URL removed.
 */
export async function importRepository(git: GitReader, repoPath: string, url: string, options: ImportOptions = {}): Promise<void> {
  const protocols = options.allowFileUrls ? ['http', 'https', 'git', 'file'] : ['http', 'https', 'git'];
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new GitStoreError('invalid_url', 'Import url is invalid');
  }
  if (!protocols.includes(parsed.protocol.slice(0, -1))) throw new GitStoreError('invalid_url', 'Import url is invalid');
  const scratch = await scratchPath(repoPath, 'tmp');
  try {
    await runGit(null, ['-c', 'credential.helper=', 'clone', '--bare', '--quiet', '--template=', '--end-of-options', url, scratch], {
      // Only the transports we allow, also for anything the remote points at.
      env: { GIT_ALLOW_PROTOCOL: protocols.join(':') },
      signal: AbortSignal.timeout(options.timeoutMs ?? 30 * 60 * 1000),
    });
    // The URL may carry credentials; the repository must not keep them.
    await forgetOrigin(scratch);
  } catch (error) {
    await fs.rm(scratch, { recursive: true, force: true });
    const said = error instanceof GitCommandError ? error.stderr : (error as Error).message;
    throw new GitStoreError('import_failed', withoutCredentials(said, parsed).trim() || 'import failed');
  }
  if (await isEmpty(repoPath)) await deleteRepository(git, repoPath);
  await moveIntoPlace(scratch, repoPath);
}

async function forgetOrigin(repoPath: string): Promise<void> {
  await runGit(repoPath, ['config', '--remove-section', 'remote.origin'], { okCodes: [0, 128] });
}

function withoutCredentials(text: string, url: URL): string {
  let result = text;
  for (const secret of [url.password, url.username]) if (secret) result = result.split(secret).join('*****');
  return result;
}

/** True when the repository has no branch (or does not exist). */
export async function isEmpty(repoPath: string): Promise<boolean> {
  if (!(await repositoryExists(repoPath))) return true;
  const { stdout } = await runGit(repoPath, ['for-each-ref', '--count=1', '--format=%(refname)', 'refs/heads/']);
  return stdout.length === 0;
}

/** Points HEAD at a branch (the project's default branch). */
export async function setHeadBranch(repoPath: string, branch: string): Promise<void> {
  if (!isValidBranchName(branch)) throw new GitStoreError('invalid_ref_name', 'Branch name is invalid');
  await runGit(repoPath, ['symbolic-ref', 'HEAD', `refs/heads/${branch}`]);
}
