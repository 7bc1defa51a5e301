import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { resolveCommitId } from './commits';
import { GitStoreError } from './errors';
import { identityEnvironment, type Identity } from './identity';
import { checkMessage } from './message';
import { normalizeRepoPath } from './paths';
import { isValidBranchName } from './ref-names';
import { refValues } from './refs';
import { runGit } from './run';
import { listTree } from './tree';
import { updateRef } from './write';
import type { GitReader } from './reader';

/**
 * One change of a commit. `executable` sets the file's mode; left out, an update keeps the mode the
 * file had and a new file is not executable. A move without content keeps the file's bytes.
 */
export type FileChange =
  | { action: 'create' | 'update'; path: string; content: Buffer; executable?: boolean }
  | { action: 'delete'; path: string }
  | { action: 'move'; path: string; previousPath: string; content?: Buffer; executable?: boolean }
  | { action: 'chmod'; path: string; executable: boolean };

export interface CommitFilesOptions {
  branch: string;
  changes: FileChange[];
  message: string;
  author: Identity;
  /** Defaults to the author. */
  committer?: Identity;
  /**
   * Where a branch that does not exist yet starts (a sha or ref). Without it a missing branch gets
   * a root commit, as the first commit of an empty repository.
   */
  startRef?: string;
}

export interface CommitFilesResult {
  commitId: string;
  /** The branch did not exist before this commit. */
  branchCreated: boolean;
}

const ZERO = '0'.repeat(40);

/**
 * Commits file changes to a branch without a working tree: blobs by `hash-object`, the tree through
 * a temporary index, `commit-tree`, then `update-ref` against the head that was read. When the
 * branch moved meanwhile this fails with `ref_moved` (or `ref_exists` for a new branch) and changes
 * nothing visible: read again and retry.
 */
export async function commitFiles(git: GitReader, repoPath: string, options: CommitFilesOptions): Promise<CommitFilesResult> {
  if (!isValidBranchName(options.branch)) throw new GitStoreError('invalid_ref_name', 'Branch name is invalid');
  checkMessage(options.message);
  const ref = `refs/heads/${options.branch}`;
  const changes = options.changes.map(checkedChange);
  const head = (await refValues(repoPath, [ref])).get(ref);
  const parent = head ?? (options.startRef === undefined ? undefined : await resolveCommitId(git, repoPath, options.startRef));
  if (head === undefined && options.startRef !== undefined && parent === undefined) {
    throw new GitStoreError('invalid_revision', `${options.startRef} is not a commit`);
  }
  const entries = await plannedEntries(git, repoPath, parent, changes);

  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-commit-'));
  try {
    const pending = [...entries.values()].filter((entry): entry is Written => entry !== null && entry.content !== undefined);
    await Promise.all(pending.map((entry, index) => fs.writeFile(path.join(scratch, `blob-${index}`), entry.content as Buffer)));
    const blobIds =
      pending.length === 0
        ? []
        : await hashBlobs(
            repoPath,
            pending.map((_, index) => path.join(scratch, `blob-${index}`)),
          );
    pending.forEach((entry, index) => {
      entry.oid = blobIds[index];
    });

    const env = { GIT_INDEX_FILE: path.join(scratch, 'index') };
    if (parent !== undefined) await runGit(repoPath, ['read-tree', '--end-of-options', `${parent}^{tree}`], { env });
    // Removals first, so that a file's path may become a directory in the same commit.
    const records = [...entries].sort(([, a], [, b]) => Number(a !== null) - Number(b !== null));
    const lines = records.map(([file, entry]) => (entry === null ? `0 ${ZERO}\t${file}\0` : `${entry.mode} ${entry.oid}\t${file}\0`));
    await runGit(repoPath, ['update-index', '-z', '--index-info'], { env, input: lines.join('') });
    const treeId = (await runGit(repoPath, ['write-tree'], { env })).stdout.toString('utf8').trim();

    const parents = parent === undefined ? [] : ['-p', parent];
    const commitId = (
      await runGit(repoPath, ['commit-tree', ...parents, '-F', '-', '--end-of-options', treeId], {
        env: identityEnvironment(options.author, options.committer ?? options.author),
        input: options.message,
      })
    ).stdout
      .toString('utf8')
      .trim();
    await updateRef(repoPath, ref, commitId, head ?? null);
    return { commitId, branchCreated: head === undefined };
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/** A path a commit may write: inside the tree, not empty, never a `.git` directory (clients would trust it). */
function checkedPath(value: string): string {
  const normalized = normalizeRepoPath(value);
  if (!normalized || normalized.split('/').some((segment) => segment.toLowerCase() === '.git')) {
    throw new GitStoreError('invalid_path', `invalid path: ${value}`);
  }
  return normalized;
}

function checkedChange(change: FileChange): FileChange {
  const checked = { ...change, path: checkedPath(change.path) };
  return checked.action === 'move' ? { ...checked, previousPath: checkedPath(checked.previousPath) } : checked;
}

/** A file as the commit leaves it: its mode and either its bytes (to be written) or the blob it keeps. */
interface Written {
  mode: string;
  content?: Buffer;
  oid?: string;
}

const alreadyThere = (file: string, entry: Written | Existing) =>
  new GitStoreError('type' in entry && entry.type === 'tree' ? 'path_conflict' : 'file_exists', `${file} already exists`);

/** What stands at a path of the parent tree. */
interface Existing {
  type: string;
  oid: string;
  mode?: string;
}

const modeFor = (executable: boolean | undefined, current?: string) =>
  executable === undefined ? (current === '100755' ? '100755' : '100644') : executable ? '100755' : '100644';

/**
 * Applies the changes in order to the parent tree, as a client means them (a file created by one
 * action may be updated by the next), and answers what each touched path becomes: a file, or null
 * for removed. A created file must not exist, an updated, moved, re-moded or deleted one must, and
 * no file may stand where a directory is needed. The parent is read in one pipelined exchange.
 */
async function plannedEntries(
  git: GitReader,
  repoPath: string,
  parent: string | undefined,
  changes: FileChange[],
): Promise<Map<string, Written | null>> {
  const touched = changes.flatMap((change) => (change.action === 'move' ? [change.path, change.previousPath] : [change.path]));
  const ancestors = touched.flatMap((file) => {
    const segments = file.split('/');
    return segments.slice(0, -1).map((_, index) => segments.slice(0, index + 1).join('/'));
  });
  const existing = await parentEntries(git, repoPath, parent, [...new Set([...touched, ...ancestors])]);
  const planned = new Map<string, Written | null>();
  const current = (file: string): Written | Existing | null | undefined => (planned.has(file) ? planned.get(file) : existing.get(file));
  const isFile = (entry: Written | Existing | null | undefined): entry is Written | Existing =>
    entry !== null && entry !== undefined && (!('type' in entry) || entry.type === 'blob');

  for (const change of changes) {
    const segments = change.path.split('/');
    const blocking = segments.slice(0, -1).some((_, index) => {
      const entry = current(segments.slice(0, index + 1).join('/'));
      return entry !== null && entry !== undefined && !('type' in entry && entry.type === 'tree');
    });
    if (blocking) throw new GitStoreError('path_conflict', `a file stands in the way of ${change.path}`);
    const self = current(change.path);
    switch (change.action) {
      case 'create':
        if (self !== null && self !== undefined) throw alreadyThere(change.path, self);
        planned.set(change.path, { mode: modeFor(change.executable ?? false), content: change.content });
        break;
      case 'move': {
        if (self !== null && self !== undefined && change.previousPath !== change.path) throw alreadyThere(change.path, self);
        const source = current(change.previousPath);
        if (!isFile(source)) throw new GitStoreError('file_missing', `${change.previousPath} does not exist`);
        planned.set(change.previousPath, null);
        const kept = 'content' in source ? { content: source.content } : { oid: source.oid };
        const bytes = change.content !== undefined ? { content: change.content } : kept;
        planned.set(change.path, { mode: modeFor(change.executable, source.mode), ...bytes });
        break;
      }
      case 'update':
        if (!isFile(self)) throw new GitStoreError('file_missing', `${change.path} does not exist`);
        planned.set(change.path, { mode: modeFor(change.executable, self.mode), content: change.content });
        break;
      case 'chmod':
        if (!isFile(self)) throw new GitStoreError('file_missing', `${change.path} does not exist`);
        planned.set(change.path, {
          ...('content' in self ? { content: self.content } : { oid: self.oid }),
          mode: modeFor(change.executable),
        });
        break;
      case 'delete':
        if (!isFile(self)) throw new GitStoreError('file_missing', `${change.path} does not exist`);
        planned.set(change.path, null);
        break;
    }
  }
  // A path that ends as it began in the parent (created then deleted) needs no record.
  for (const [file, entry] of planned) if (entry === null && !existing.has(file)) planned.delete(file);
  return planned;
}

/** Type, id and mode of each path in the parent tree (absent when nothing is there): cat-file for the objects, tree reads for modes. */
async function parentEntries(
  git: GitReader,
  repoPath: string,
  parent: string | undefined,
  paths: string[],
): Promise<Map<string, Existing>> {
  const found = new Map<string, Existing>();
  if (parent === undefined) return found;
  const infos = await Promise.all(paths.map((file) => git.objects.info(repoPath, `${parent}:${file}`)));
  const directories = [...new Set(paths.filter((_, index) => infos[index]?.type === 'blob').map((file) => path.posix.dirname(file)))];
  const listings = await Promise.all(directories.map((dir) => listTree(git, repoPath, parent, dir === '.' ? '' : dir)));
  const modes = new Map(listings.flatMap((listing) => (listing ?? []).map((entry) => [entry.path, entry.mode] as const)));
  paths.forEach((file, index) => {
    const info = infos[index];
    if (info) found.set(file, { type: info.type, oid: info.oid, mode: modes.get(file) });
  });
  return found;
}

async function hashBlobs(repoPath: string, files: string[]): Promise<string[]> {
  const { stdout } = await runGit(repoPath, ['hash-object', '-w', '--no-filters', '--stdin-paths'], { input: `${files.join('\n')}\n` });
  return stdout.toString('utf8').trim().split('\n');
}
