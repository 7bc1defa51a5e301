import { identityEnvironment, type Identity } from './identity';
import { checkMessage } from './message';
import { isFullOid } from './ref-names';
import { runGit } from './run';

/** What merging two commits gives: the merged tree, or the paths that conflict. */
export type TreeMerge = { clean: true; treeId: string } | { clean: false; conflicts: string[] };

/**
 * Merges two commits in the object database only (`git merge-tree --write-tree`, no working tree,
 * merge base found by git): exit 0 is a clean merge, 1 a conflicted one (the tree then holds
 * conflict markers and is never committed). Unrelated histories are refused as conflicts.
 */
export async function mergeTrees(repoPath: string, ours: string, theirs: string): Promise<TreeMerge> {
  if (!isFullOid(ours) || !isFullOid(theirs)) throw new Error('merge needs commit ids');
  const { stdout, code } = await runGit(repoPath, ['merge-tree', '--write-tree', '--name-only', '-z', '--no-messages', ours, theirs], {
    okCodes: [0, 1],
  });
  const [treeId, ...rest] = stdout.toString('utf8').split('\0');
  if (code === 0) return { clean: true, treeId: treeId.trim() };
  return { clean: false, conflicts: [...new Set(rest.filter((path) => path !== ''))] };
}

export interface MergeCommitOptions {
  /** The target branch's head: the first parent. */
  targetId: string;
  /** The source branch's head: the second parent. */
  sourceId: string;
  message: string;
  author: Identity;
  committer: Identity;
}

export type MergeCommitResult = { commitId: string } | { conflicts: string[] };

/** Writes the merge commit of `sourceId` into `targetId` (parents in that order), or reports the conflicts. No ref moves. */
export async function writeMergeCommit(repoPath: string, options: MergeCommitOptions): Promise<MergeCommitResult> {
  checkMessage(options.message);
  const merged = await mergeTrees(repoPath, options.targetId, options.sourceId);
  if (!merged.clean) return { conflicts: merged.conflicts };
  const { stdout } = await runGit(
    repoPath,
    ['commit-tree', '-p', options.targetId, '-p', options.sourceId, '-F', '-', '--end-of-options', merged.treeId],
    {
      env: identityEnvironment(options.author, options.committer),
      input: options.message,
    },
  );
  return { commitId: stdout.toString('utf8').trim() };
}

/** Whether `ancestor` is in the history of `descendant` (`git merge-base --is-ancestor`). */
export async function isAncestor(repoPath: string, ancestor: string, descendant: string): Promise<boolean> {
  const { code } = await runGit(repoPath, ['merge-base', '--is-ancestor', '--end-of-options', ancestor, descendant], {
    okCodes: [0, 1, 128],
  });
  return code === 0;
}
