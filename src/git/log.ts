import { gitText } from './run';
import { readCommits, resolveCommit, resolveCommitId } from './commits';
import type { Commit } from './objects';
import { normalizeRepoPath } from './paths';
import { WALK_LIMIT, walkHistory } from './walk';
import { isFullOid } from './ref-names';
import type { GitReader } from './reader';

export interface LogOptions {
  /** Where history starts: sha, branch or tag. */
  ref: string;
  /** Only commits touching this path. */
  path?: string;
  /** Commits whose committer date is at or after this time. */
  since?: Date;
  /** Commits whose committer date is at or before this time. */
  until?: Date;
  offset?: number;
  limit?: number;
  /** Leave merge commits out. */
  noMerges?: boolean;
  /** Every branch's and tag's history instead of `ref`'s. */
  all?: boolean;
}

/** History newest first, as `git log` walks it; empty for an unknown ref or path. */
export async function log(git: GitReader, repoPath: string, options: LogOptions): Promise<Commit[]> {
  const walked = await walkedPage(git, repoPath, options);
  if (walked) return walked;
  const ids = await logIds(git, repoPath, options);
  return ids.length === 0 ? [] : readCommits(git, repoPath, ids);
}

/**
 * A first page of the whole history (no path, dates or merge filter) read through the cat-file
 * process; undefined when git must walk it.
 */
async function walkedPage(git: GitReader, repoPath: string, options: LogOptions): Promise<Commit[] | undefined> {
  const offset = Math.max(0, Math.floor(options.offset ?? 0)) || 0;
  const limit = Math.max(0, Math.floor(options.limit ?? Number.NaN));
  const plain =
    !options.all &&
    (options.path === undefined || normalizeRepoPath(options.path) === '') &&
    !options.since &&
    !options.until &&
    !options.noMerges;
  if (!plain || !Number.isFinite(limit) || offset + limit > WALK_LIMIT) return undefined;
  if (limit === 0) return [];
  const key = (commitId: string) => `${repoPath}\0${commitId}\0${offset + limit}`;
  // A page kept under the commit id given needs no read of the commit.
  const known = isFullOid(options.ref) ? git.walks.peek(key(options.ref)) : undefined;
  if (known) return (await known)?.slice(offset);
  const start = await resolveCommit(git, repoPath, options.ref);
  if (start === undefined) return [];
  const walked = await git.walks.get(key(start.id), () => walkHistory(git, repoPath, start, offset + limit));
  return walked?.slice(offset);
}

/** Only the shas of `log`. */
export async function logIds(git: GitReader, repoPath: string, options: LogOptions): Promise<string[]> {
  const args = await revListArgs(git, repoPath, options);
  return args === undefined ? [] : lines(await gitText(repoPath, args));
}

/** How many commits `log` would list without `offset` and `limit`. */
export async function countLog(git: GitReader, repoPath: string, options: LogOptions): Promise<number> {
  const whole = { ...options, offset: undefined, limit: undefined };
  const count = async (query: LogOptions) => {
    const args = await revListArgs(git, repoPath, query);
    return args === undefined ? 0 : Number((await gitText(repoPath, [args[0], '--count', ...args.slice(1)])).trim());
  };
  // `--all`'s refs move; from a commit the history never changes: its count is kept by the commit's
  // id, so that every page of a branch's commits is not a `rev-list` process.
  if (options.all) return count(whole);
  const key = (commitId: string) =>
    [repoPath, commitId, options.path ?? '', options.since?.getTime() ?? '', options.until?.getTime() ?? '', options.noMerges ? 1 : 0].join(
      '\0',
    );
  const known = isFullOid(options.ref) ? git.logCounts.peek(key(options.ref)) : undefined;
  if (known) return known;
  const start = await resolveCommitId(git, repoPath, options.ref);
  if (start === undefined) return 0;
  return git.logCounts.get(key(start), () => count({ ...whole, ref: start }));
}

async function revListArgs(git: GitReader, repoPath: string, options: LogOptions): Promise<string[] | undefined> {
  const start = options.all ? '--branches --tags' : await resolveCommitId(git, repoPath, options.ref);
  const path = options.path === undefined ? '' : normalizeRepoPath(options.path);
  if (start === undefined || path === undefined) return undefined;
  const args = ['rev-list'];
  if (options.limit !== undefined) args.push(`--max-count=${Math.max(0, Math.floor(options.limit))}`);
  if (options.offset) args.push(`--skip=${Math.max(0, Math.floor(options.offset))}`);
  if (options.since) args.push(`--since=@${Math.floor(options.since.getTime() / 1000)}`);
  if (options.until) args.push(`--until=@${Math.floor(options.until.getTime() / 1000)}`);
  if (options.noMerges) args.push('--no-merges');
  if (options.all) args.push('--branches', '--tags', '--');
  else args.push('--end-of-options', start, '--');
  if (path !== '') args.push(path);
  return args;
}

/** The newest commit at or before `ref` that touched `path` (the files API's `last_commit_id`). */
export async function lastCommitForPath(git: GitReader, repoPath: string, ref: string, path: string): Promise<Commit | undefined> {
  const find = async () => (await log(git, repoPath, { ref, path, limit: 1 }))[0];
  return isFullOid(ref) ? git.lastCommits.get(`${repoPath}\0${ref}\0${path}`, find) : find();
}

/** Commits reachable from `head` and not from `base`, oldest first (GitLab's `commits_between`). */
export async function commitsBetween(git: GitReader, repoPath: string, baseId: string, headId: string): Promise<Commit[]> {
  const ids = lines(await gitText(repoPath, ['rev-list', '--reverse', '--date-order', '--end-of-options', headId, `^${baseId}`, '--']));
  return ids.length === 0 ? [] : readCommits(git, repoPath, ids);
}

const lines = (text: string): string[] => text.split('\n').filter((line) => line !== '');
