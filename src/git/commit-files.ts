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

export type FileChange = { action: 'create' | 'update'; path: string; content: Buffer } | { action: 'delete'; path: string };

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
  const changes = options.changes.map((change) => ({ ...change, path: checkedPath(change.path) }));
  const head = (await refValues(repoPath, [ref])).get(ref);
  const parent = head ?? (options.startRef === undefined ? undefined : await resolveCommitId(git, repoPath, options.startRef));
  if (head === undefined && options.startRef !== undefined && parent === undefined) {
    throw new GitStoreError('invalid_revision', `${options.startRef} is not a commit`);
  }
  const modes = await checkChanges(git, repoPath, parent, changes);

  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'forge-commit-'));
  try {
    const written = changes.filter((change) => change.action !== 'delete');
    await Promise.all(
      written.map((change, index) => fs.writeFile(path.join(scratch, `blob-${index}`), (change as { content: Buffer }).content)),
    );
    const blobIds =
      written.length === 0
        ? []
        : await hashBlobs(
            repoPath,
            written.map((_, index) => path.join(scratch, `blob-${index}`)),
          );

    const env = { GIT_INDEX_FILE: path.join(scratch, 'index') };
    if (parent !== undefined) await runGit(repoPath, ['read-tree', '--end-of-options', `${parent}^{tree}`], { env });
    let blob = 0;
    const records = changes.map((change, index) =>
      change.action === 'delete' ? `0 ${ZERO}\t${change.path}\0` : `${modes[index]} ${blobIds[blob++]}\t${change.path}\0`,
    );
    await runGit(repoPath, ['update-index', '-z', '--index-info'], { env, input: records.join('') });
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

/**
 * Checks every change against the parent tree in one pipelined exchange: a created file must not
 * exist, an updated or deleted one must, and no file may stand where a directory is needed.
 * Returns the mode each written file gets (an update keeps the executable bit).
 */
async function checkChanges(
  git: GitReader,
  repoPath: string,
  parent: string | undefined,
  changes: Array<FileChange & { path: string }>,
): Promise<string[]> {
  const lookups = changes.map((change) => {
    const segments = change.path.split('/');
    return [change.path, ...segments.slice(0, -1).map((_, index) => segments.slice(0, index + 1).join('/'))];
  });
  const infos =
    parent === undefined
      ? []
      : await Promise.all(lookups.map((paths) => Promise.all(paths.map((p) => git.objects.info(repoPath, `${parent}:${p}`)))));
  const modes = parent === undefined ? [] : await currentModes(git, repoPath, parent, changes);
  return changes.map((change, index) => {
    const [self, ...ancestors] = infos[index] ?? [];
    if (ancestors.some((info) => info !== undefined && info.type !== 'tree')) {
      throw new GitStoreError('path_conflict', `a file stands in the way of ${change.path}`);
    }
    if (change.action === 'create' && self !== undefined) {
      throw new GitStoreError(self.type === 'tree' ? 'path_conflict' : 'file_exists', `${change.path} already exists`);
    }
    if (change.action !== 'create' && self?.type !== 'blob') throw new GitStoreError('file_missing', `${change.path} does not exist`);
    return modes[index] === '100755' ? '100755' : '100644';
  });
}

/** Modes of the files to update, from their directories' trees (pipelined reads, no process). */
async function currentModes(
  git: GitReader,
  repoPath: string,
  commitId: string,
  changes: Array<FileChange & { path: string }>,
): Promise<Array<string | undefined>> {
  const directories = await Promise.all(
    changes.map((change) =>
      change.action === 'update' ? listTree(git, repoPath, commitId, path.posix.dirname(change.path).replace(/^\.$/, '')) : undefined,
    ),
  );
  return changes.map((change, index) => directories[index]?.find((entry) => entry.path === change.path)?.mode);
}

async function hashBlobs(repoPath: string, files: string[]): Promise<string[]> {
  const { stdout } = await runGit(repoPath, ['hash-object', '-w', '--no-filters', '--stdin-paths'], { input: `${files.join('\n')}\n` });
  return stdout.toString('utf8').trim().split('\n');
}
