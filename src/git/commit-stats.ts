import type { DiffStats } from './diff';
import type { Commit } from './objects';
import { runGit } from './run';

/**
 * Lines a commit added and deleted against its first parent (against nothing for a root commit),
 * without rename detection, as GitLab's `CommitStats` counted them. One git process, no patch text.
 */
export async function commitStats(repoPath: string, commit: Commit): Promise<DiffStats> {
  const parent = commit.parentIds[0];
  const args = ['diff-tree', '-r', '-z', '--numstat', '--no-commit-id', '--no-renames'];
  const { stdout } = await runGit(repoPath, parent === undefined ? [...args, '--root', '--end-of-options', commit.id] : [...args, '--end-of-options', parent, commit.id]);
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
