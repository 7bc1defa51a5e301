import { runGit } from './run';

/** How many commits `head` has that `base` does not (`git rev-list --count`). */
export async function countCommitsBetween(repoPath: string, baseId: string, headId: string): Promise<number> {
  const { stdout } = await runGit(repoPath, ['rev-list', '--count', '--end-of-options', headId, `^${baseId}`, '--']);
  return Number(stdout.toString('utf8').trim());
}

/** How many files differ between two commits, renames not followed (GitLab's `real_size`). */
export async function countChangedFiles(repoPath: string, fromId: string, toId: string): Promise<number> {
  return (await changedFilePaths(repoPath, fromId, toId)).length;
}

/** The paths of the files that differ between two commits, renames not followed. */
export async function changedFilePaths(repoPath: string, fromId: string, toId: string): Promise<string[]> {
  const { stdout } = await runGit(repoPath, ['diff-tree', '-r', '-z', '--name-only', '--no-commit-id', '--end-of-options', fromId, toId]);
  return stdout
    .toString('utf8')
    .split('\0')
    .filter((name) => name !== '');
}
