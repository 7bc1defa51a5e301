import { isFullOid } from './ref-names';
import { gitText } from './run';

/** Names of the branches whose history holds the commit, sorted by name (GitLab's `branch_names_contains`). */
export async function branchesContaining(repoPath: string, commitId: string): Promise<string[]> {
  return refsContaining(repoPath, commitId, 'refs/heads/');
}

/** Names of the tags whose history holds the commit, sorted by name. */
export async function tagsContaining(repoPath: string, commitId: string): Promise<string[]> {
  return refsContaining(repoPath, commitId, 'refs/tags/');
}

async function refsContaining(repoPath: string, commitId: string, prefix: string): Promise<string[]> {
  if (!isFullOid(commitId)) return [];
  const output = await gitText(repoPath, ['for-each-ref', '--format=%(refname)', '--sort=refname', `--contains=${commitId}`, prefix]);
  return output
    .split('\n')
    .filter((line) => line !== '')
    .map((ref) => ref.slice(prefix.length));
}

/** Names of the branches whose head is in the history of `target` (`git branch --merged`). */
export async function branchesMergedInto(repoPath: string, target: string): Promise<string[]> {
  if (!isFullOid(target)) return [];
  const output = await gitText(repoPath, ['for-each-ref', '--format=%(refname)', `--merged=${target}`, 'refs/heads/']);
  return output
    .split('\n')
    .filter((line) => line !== '')
    .map((ref) => ref.slice('refs/heads/'.length));
}
