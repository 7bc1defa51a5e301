import { parseCommit, type Commit } from './objects';
import { isFullOid, isSafeRevision } from './ref-names';
import type { GitReader } from './reader';

/**
 * The commit a client names (sha, short sha, branch, tag, `HEAD`, with `~n`/`^n`), or undefined.
 * Names resolve as git resolves them (a tag before a branch of the same name).
 */
export async function resolveCommit(git: GitReader, repoPath: string, rev: string): Promise<Commit | undefined> {
  if (!isFullOid(rev) && !isSafeRevision(rev)) return undefined;
  const object = await git.objects.read(repoPath, `${rev}^{commit}`);
  return object?.type === 'commit' ? parseCommit(object.oid, object.content) : undefined;
}

/** The full sha of the commit a revision names, or undefined. */
export async function resolveCommitId(git: GitReader, repoPath: string, rev: string): Promise<string | undefined> {
  const fullOid = isFullOid(rev);
  if (!fullOid && !isSafeRevision(rev)) return undefined;
  const key = `${repoPath}\0${rev}`;
  const known = fullOid ? git.commitIds.peek(key) : undefined;
  if (known) return known;
  const info = await git.objects.info(repoPath, `${rev}^{commit}`);
  const commitId = info?.type === 'commit' ? info.oid : undefined;
  // A name may move and an id not yet pushed may come: only a full sha that was found is kept.
  if (fullOid && commitId !== undefined) git.commitIds.set(key, commitId);
  return commitId;
}

/** Commits by full sha, in the order given, in one pipelined exchange; unknown ones are left out. */
export async function readCommits(git: GitReader, repoPath: string, ids: readonly string[]): Promise<Commit[]> {
  const objects = await git.objects.readMany(repoPath, ids);
  return objects.flatMap((object) => (object?.type === 'commit' ? [parseCommit(object.oid, object.content)] : []));
}
