import { resolveCommitId } from './commits';
import { diffTrees, type DiffFile } from './diff';
import { commitsBetween } from './log';
import type { Commit } from './objects';
import { runGit } from './run';
import type { GitReader } from './reader';

export interface Comparison {
  /** Commits in `to` and not in `from`, oldest first. */
  commits: Commit[];
  /** What `to` changed since the merge base of the two (`git diff from...to`). */
  diffs: DiffFile[];
  /** Both names lead to the same commit. */
  sameRef: boolean;
  /** The diff was too large to carry its text. */
  overflow: boolean;
}

/**
 * GitLab's `Gitlab::Git::Compare`: unknown refs give an empty comparison. `straight` diffs `from`
 * and `to` themselves (`git diff from..to`) rather than from their merge base.
 */
export async function compare(git: GitReader, repoPath: string, from: string, to: string, straight = false): Promise<Comparison> {
  const [baseId, headId] = await Promise.all([resolveCommitId(git, repoPath, from.trim()), resolveCommitId(git, repoPath, to.trim())]);
  const empty: Comparison = { commits: [], diffs: [], sameRef: false, overflow: false };
  if (baseId === undefined || headId === undefined) return empty;
  if (baseId === headId) return { ...empty, sameRef: true };
  // The history and the diff do not depend on each other: they run side by side.
  const [commits, { files, overflow }] = await Promise.all([
    commitsBetween(git, repoPath, baseId, headId),
    (straight ? Promise.resolve(baseId) : mergeBase(repoPath, baseId, headId)).then((start) =>
      diffTrees(git, repoPath, start ?? null, headId),
    ),
  ]);
  return { commits, diffs: files, sameRef: false, overflow };
}

/** The best common ancestor of two commits, or undefined for unrelated histories. */
export async function mergeBase(repoPath: string, a: string, b: string): Promise<string | undefined> {
  const { stdout, code } = await runGit(repoPath, ['merge-base', '--end-of-options', a, b], { okCodes: [0, 1] });
  const id = stdout.toString('utf8').trim();
  return code === 0 && id !== '' ? id : undefined;
}
