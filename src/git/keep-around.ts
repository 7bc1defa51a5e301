import { runGit } from './run';
import { isFullOid } from './ref-names';

/** The ref that keeps a commit (and its history) in a repository whatever happens to branches. */
export const keepAroundRef = (commitId: string): string => `refs/keep-around/${commitId}`;

/**
 * Makes sure `commitId` is in `targetRepo` and stays there: a fork's commit is fetched from
 * `sourceRepo` by id, and either way a `refs/keep-around/<id>` ref holds it, so a merge request's
 * versions stay readable after force pushes and branch deletions (GitLab's keep-around refs).
 */
export async function keepAround(targetRepo: string, sourceRepo: string, commitId: string): Promise<void> {
  if (!isFullOid(commitId)) throw new Error(`not a commit id: ${commitId}`);
  const ref = keepAroundRef(commitId);
  if (sourceRepo === targetRepo) {
    await runGit(targetRepo, ['update-ref', '--no-deref', '--end-of-options', ref, commitId]);
    return;
  }
  await runGit(targetRepo, [
    'fetch',
    '--quiet',
    '--no-tags',
    '--no-write-fetch-head',
    '--end-of-options',
    sourceRepo,
    `+${commitId}:${ref}`,
  ]);
}
