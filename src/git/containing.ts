import { isFullOid } from './ref-names';
import { gitText } from './run';

/** Names of the branches whose history holds the commit, sorted by name (GitLab's `branch_names_contains`). */
export async function branchesContaining(repoPath: string, commitId: string): Promise<string[]> {
  if (!isFullOid(commitId)) return [];
  const output = await gitText(repoPath, [
    'for-each-ref',
    '--format=%(refname)',
    '--sort=refname',
    `--contains=${commitId}`,
    'refs/heads/',
  ]);
  return output
    .split('\n')
    .filter((line) => line !== '')
    .map((ref) => ref.slice('refs/heads/'.length));
}
