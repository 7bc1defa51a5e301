import { readCommits } from './commits';
import type { Commit } from './objects';
import type { GitReader } from './reader';

/** Past this many commits one `rev-list` process costs less than a round trip per commit. */
export const WALK_LIMIT = 50;

/**
 * The first `count` commits of `git rev-list <start>`, read through the long-lived cat-file process
 * instead of a new process. Same order as git's default walk: the newest committer date first, ties
 * in the order they were reached, each commit once. Undefined when a parent cannot be read (a
 * shallow or damaged repository) or a date may not read as git reads it: the caller asks git instead.
 */
export async function walkHistory(git: GitReader, repoPath: string, start: Commit, count: number): Promise<Commit[] | undefined> {
  if (!plainDate(start)) return undefined;
  const walked: Commit[] = [];
  const seen = new Set([start.id]);
  // Sorted by committer date, newest first; a commit goes after those of the same date (git's
  // `commit_list_insert_by_date`). It holds one commit per line of history being walked.
  const queue: Commit[] = [start];
  while (walked.length < count && queue.length > 0) {
    const commit = queue.shift()!;
    walked.push(commit);
    if (walked.length === count) break;
    const unseen = commit.parentIds.filter((id) => !seen.has(id));
    if (unseen.length === 0) continue;
    for (const id of unseen) seen.add(id);
    // One pipelined exchange per commit: each step needs the parents the previous one named.
    const parents = await readCommits(git, repoPath, unseen);
    if (parents.length !== unseen.length || !parents.every(plainDate)) return undefined;
    for (const parent of parents) insertByDate(queue, parent);
  }
  return walked;
}

/**
 * git sorts by the number after the first `>` of the committer line (0 when unreadable); a positive
 * date and a name without `>` read the same here.
 */
const plainDate = (commit: Commit): boolean => commit.committer.time > 0 && !commit.committer.name.includes('>');

function insertByDate(queue: Commit[], commit: Commit): void {
  const time = commit.committer.time;
  let index = 0;
  while (index < queue.length && queue[index].committer.time >= time) index += 1;
  queue.splice(index, 0, commit);
}
