import { readCommits } from './commits';
import { GitStoreError } from './errors';
import type { Commit } from './objects';
import { isFullOid, isValidBranchName } from './ref-names';
import { runGit } from './run';
import type { GitReader } from './reader';

/** A pushed commit and the paths it changed against its first parent, as GitLab's push data lists them. */
export interface PushedCommit {
  commit: Commit;
  added: string[];
  modified: string[];
  removed: string[];
}

/** Which commits a push brought: those after `oldId`, or for a new branch those no other branch has. */
export type PushRange = { oldId: string } | { newBranch: string };

export interface PushCommits {
  /** The newest `limit` commits of the range, oldest first. */
  commits: PushedCommit[];
  /** Every commit of the range. */
  total: number;
}

type ChangedPaths = { id: string } & Omit<PushedCommit, 'commit'>;

const COMMIT_MARK = '\x01';
const LOG_ARGS = ['log', '-z', '--name-status', '-M', '--diff-merges=first-parent', `--format=${COMMIT_MARK}%H`];

/**
 * The commits a push added to a branch with their changed files: one `git log` for the newest
 * `limit` (names and statuses, renames detected, merges against their first parent) and one
 * `rev-list --count` for the total, side by side.
 */
export async function pushCommits(git: GitReader, repoPath: string, newId: string, range: PushRange, limit: number): Promise<PushCommits> {
  if (!isFullOid(newId) || ('oldId' in range && !isFullOid(range.oldId)))
    throw new GitStoreError('invalid_revision', 'a push names full object ids');
  if ('newBranch' in range && !isValidBranchName(range.newBranch)) throw new GitStoreError('invalid_ref_name', 'Branch name is invalid');
  // `--exclude` patterns for `--branches` are matched against short branch names.
  const revisions =
    'oldId' in range
      ? ['--end-of-options', newId, `^${range.oldId}`]
      : ['--not', `--exclude=${range.newBranch}`, '--branches', '--not', '--end-of-options', newId];
  const [logged, counted] = await Promise.all([
    runGit(repoPath, [...LOG_ARGS, '--topo-order', `--max-count=${Math.max(0, Math.floor(limit))}`, ...revisions, '--']),
    runGit(repoPath, ['rev-list', '--count', ...revisions, '--']),
  ]);
  const pushed = await withCommits(git, repoPath, parseNameStatus(logged.stdout.toString('utf8')));
  return { commits: [...pushed.values()].reverse(), total: Number(counted.stdout.toString('utf8').trim()) };
}

/** Given commits with the paths each changed (the commits pushed tags name), in one `git log`. */
export async function commitsChanges(git: GitReader, repoPath: string, commitIds: readonly string[]): Promise<Map<string, PushedCommit>> {
  const wanted = [...new Set(commitIds.filter(isFullOid))];
  // Without revisions git would log HEAD.
  if (wanted.length === 0) return new Map();
  const { stdout } = await runGit(repoPath, [...LOG_ARGS, '--no-walk=unsorted', '--stdin', '--'], { input: `${wanted.join('\n')}\n` });
  return withCommits(git, repoPath, parseNameStatus(stdout.toString('utf8')));
}

/** The parsed changes joined to their commits (read through cat-file), in log order. */
async function withCommits(git: GitReader, repoPath: string, entries: ChangedPaths[]): Promise<Map<string, PushedCommit>> {
  const commits = await readCommits(
    git,
    repoPath,
    entries.map((entry) => entry.id),
  );
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  return new Map(
    commits.map((commit) => {
      const { added, modified, removed } = byId.get(commit.id)!;
      return [commit.id, { commit, added, modified, removed }];
    }),
  );
}

/**
 * `log -z --name-status --format=\x01%H`: a `\x01<sha>` token per commit, then `status\0path\0`
 * (two paths for a rename or copy), the first status preceded by a newline. GitLab's
 * `repo_changes`: a renamed or new file is added (under its new path), a deleted one removed,
 * anything else modified.
 */
function parseNameStatus(output: string): ChangedPaths[] {
  const tokens = output.split('\0');
  const entries: ChangedPaths[] = [];
  let index = 0;
  while (index < tokens.length) {
    const token = tokens[index++].replace(/^\n/, '');
    if (token === '') continue;
    if (token.startsWith(COMMIT_MARK)) {
      entries.push({ id: token.slice(1), added: [], modified: [], removed: [] });
      continue;
    }
    const entry = entries[entries.length - 1];
    const kind = token.charAt(0);
    const first = tokens[index++] ?? '';
    const path = kind === 'R' || kind === 'C' ? (tokens[index++] ?? '') : first;
    if (!entry) continue;
    if (kind === 'D') entry.removed.push(path);
    else if (kind === 'A' || kind === 'R' || kind === 'C') entry.added.push(path);
    else entry.modified.push(path);
  }
  return entries;
}
