import { diffStats, smallCommitDiff, type DiffStats } from './diff';
import type { Commit } from './objects';
import { runGit } from './run';
import type { GitReader } from './reader';

/** Past this much output the patch is not read for the counts alone. */
const SMALL_PATCH_BYTES = 512 * 1024;

/**
 * Lines a commit added and deleted against its first parent (against nothing for a root commit),
 * without rename detection, as GitLab's `CommitStats` counted them. A small diff is read whole and
 * kept, so the commit's diff, usually asked next, is ready; with no rename in it, its counts are
 * those. Otherwise git counts them without the patch text.
 */
export function commitStats(git: GitReader, repoPath: string, commit: Commit): Promise<DiffStats> {
  return git.commitStats.get(`${repoPath}\0${commit.id}`, async () => {
    const diff = await smallCommitDiff(git, repoPath, commit, SMALL_PATCH_BYTES);
    if (diff && !diff.files.some((file) => file.renamedFile)) return diffStats(diff.files);
    return countLines(repoPath, commit);
  });
}

async function countLines(repoPath: string, commit: Commit): Promise<DiffStats> {
  const parent = commit.parentIds[0];
  const args = ['diff-tree', '-r', '-z', '--numstat', '--no-commit-id', '--no-renames'];
  const { stdout } = await runGit(
    repoPath,
    parent === undefined ? [...args, '--root', '--end-of-options', commit.id] : [...args, '--end-of-options', parent, commit.id],
  );
  let additions = 0;
  let deletions = 0;
  for (const record of stdout.toString('utf8').split('\0')) {
    // Binary files count `-`: no lines.
    const match = /^\n?(\d+|-)\t(\d+|-)\t/.exec(record);
    if (!match) continue;
    additions += Number.parseInt(match[1], 10) || 0;
    deletions += Number.parseInt(match[2], 10) || 0;
  }
  return { additions, deletions, total: additions + deletions };
}
