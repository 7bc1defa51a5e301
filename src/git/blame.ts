import { normalizeRepoPath } from './paths';
import { gitText } from './run';

/** The commit that last touched a run of lines, as `git blame --porcelain` names it. */
export interface BlameCommit {
  id: string;
  authorName: string;
  /** Seconds since the epoch. */
  authorTime: number;
  summary: string;
}

/** Consecutive lines of the file last touched by one commit. */
export interface BlameRange {
  commit: BlameCommit;
  /** The first line's number in the file (from 1). */
  startLine: number;
  lines: string[];
}

/** Blame output past this is refused rather than held (a file that large is not shown anyway). */
const MAX_OUTPUT = 64 * 1024 * 1024;
const HEADER = /^([0-9a-f]{40,64}) \d+ (\d+)(?: \d+)?$/;

/**
 * Who last changed each line of a file at a commit. Undefined when the path is no safe repository
 * path; the caller checked that a file is there.
 */
export async function blame(repoPath: string, commitId: string, path: string): Promise<BlameRange[] | undefined> {
  const file = normalizeRepoPath(path);
  if (!file) return undefined;
  const output = await gitText(repoPath, ['blame', '--porcelain', commitId, '--', file], { maxOutput: MAX_OUTPUT });
  return parseBlame(output);
}

/** Porcelain output: a header per line, the commit's fields the first time it appears, then the line after a tab. */
export function parseBlame(output: string): BlameRange[] {
  const commits = new Map<string, BlameCommit>();
  const ranges: BlameRange[] = [];
  let current: BlameCommit | undefined;
  let lineNumber = 0;
  for (const line of output.split('\n')) {
    if (line.startsWith('\t')) {
      if (!current) continue;
      const last = ranges[ranges.length - 1];
      if (last && last.commit === current && last.startLine + last.lines.length === lineNumber) last.lines.push(line.slice(1));
      else ranges.push({ commit: current, startLine: lineNumber, lines: [line.slice(1)] });
      continue;
    }
    const header = HEADER.exec(line);
    if (header) {
      lineNumber = Number(header[2]);
      current = commits.get(header[1]);
      if (!current) {
        current = { id: header[1], authorName: '', authorTime: 0, summary: '' };
        commits.set(header[1], current);
      }
      continue;
    }
    if (!current) continue;
    const space = line.indexOf(' ');
    const key = space < 0 ? line : line.slice(0, space);
    const value = space < 0 ? '' : line.slice(space + 1);
    if (key === 'author') current.authorName = value;
    else if (key === 'author-time') current.authorTime = Number(value);
    else if (key === 'summary') current.summary = value;
  }
  return ranges;
}
