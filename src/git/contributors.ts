import { resolveCommitId } from './commits';
import { runGit } from './run';
import type { GitReader } from './reader';

export interface Contributor {
  name: string;
  email: string;
  commits: number;
  additions: number;
  deletions: number;
}

export interface ContributorOptions {
  /** Where history starts (default HEAD). */
  ref?: string;
  /** Newest commits looked at (GitLab: 2000). */
  limit?: number;
  /**
   * Count added and deleted lines (one diff per commit: slower). GitLab 8.12 never did and
   * shows 0 for both.
   */
  lineCounts?: boolean;
}

/** Starts each commit's record; no name, e-mail or numstat line can be exactly this. */
const MARK = '\u0001commit';

/**
 * Authors of the newest non-merge commits, grouped by e-mail in order of first appearance (most
 * recent first), named by their newest non-blank name. One `git log` process.
 */
export async function contributors(git: GitReader, repoPath: string, options: ContributorOptions = {}): Promise<Contributor[]> {
  const start = await resolveCommitId(git, repoPath, options.ref ?? 'HEAD');
  if (start === undefined) return [];
  const args = [
    '-c',
    'log.showSignature=false',
    'log',
    '--no-merges',
    '-M',
    '--no-use-mailmap',
    '-z',
    `--max-count=${options.limit ?? 2000}`,
  ];
  args.push('--format=%x01commit%x00%an%x00%ae%x00');
  if (options.lineCounts) args.push('--numstat');
  const { stdout } = await runGit(repoPath, [...args, '--end-of-options', start, '--']);

  const byEmail = new Map<string, Contributor>();
  let current: Contributor | undefined;
  const tokens = stdout.toString('utf8').split('\0');
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index].replace(/^\n+/, '');
    if (token === MARK) {
      const name = tokens[index + 1] ?? '';
      const email = tokens[index + 2] ?? '';
      index += 2;
      current = byEmail.get(email);
      if (!current) byEmail.set(email, (current = { name: '', email, commits: 0, additions: 0, deletions: 0 }));
      if (current.name.trim() === '') current.name = name;
      current.commits += 1;
      continue;
    }
    const numstat = /^(\d+|-)\t(\d+|-)\t/.exec(token);
    if (numstat && current) {
      current.additions += Number.parseInt(numstat[1], 10) || 0;
      current.deletions += Number.parseInt(numstat[2], 10) || 0;
    }
  }
  return [...byEmail.values()];
}
