import type { DiffFile } from '../../git/diff-types';
import { lineCode } from './diff-lines';

/** GitLab 10's `Gitlab::Diff::Position` of a text line: the version's three commits, the file, its old and new line. */
export interface DiffPosition {
  base_sha: string;
  start_sha: string;
  head_sha: string;
  old_path: string;
  new_path: string;
  position_type: 'text';
  /** Null for an added line. */
  old_line: number | null;
  /** Null for a removed line. */
  new_line: number | null;
}

/** A line of a file's diff: removed (no new line), added (no old line) or context (both). */
export interface PositionLine {
  oldLine: number | null;
  newLine: number | null;
  text: string;
}

/** The numbered lines of a file's unified diff (hunk headers and `\ No newline` left out). */
export function positionLines(file: DiffFile): PositionLine[] {
  const lines: PositionLine[] = [];
  let oldLine = 0;
  let newLine = 0;
  let inHunk = false;
  for (const text of file.diff.split('\n')) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)/.exec(text);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      inHunk = true;
    } else if (!inHunk || text === '' || text[0] === '\\') {
    } else if (text[0] === '+') lines.push({ oldLine: null, newLine: newLine++, text });
    else if (text[0] === '-') lines.push({ oldLine: oldLine++, newLine: null, text });
    else lines.push({ oldLine: oldLine++, newLine: newLine++, text });
  }
  return lines;
}

/** The line code a page anchors a diff line with: the file's SHA-1, then the old and new line (0 for none). */
export const positionLineCode = (path: string, oldLine: number | null, newLine: number | null): string =>
  lineCode(path, oldLine ?? 0, newLine ?? 0);

/** The diff line a position names in a version's diffs, with its file, or undefined. */
export function lineAt(diffs: DiffFile[], position: Pick<DiffPosition, 'old_path' | 'new_path' | 'old_line' | 'new_line'>) {
  const file = diffs.find((candidate) => candidate.newPath === position.new_path && candidate.oldPath === position.old_path);
  if (!file) return undefined;
  const line = positionLines(file).find((candidate) => candidate.oldLine === position.old_line && candidate.newLine === position.new_line);
  return line && { file, line };
}

type LineFinder = (position: Pick<DiffPosition, 'old_path' | 'new_path' | 'old_line' | 'new_line'>) => ReturnType<typeof lineAt>;

/** `lineAt` for many positions on the same diffs: each file's lines are numbered once. */
export function lineFinder(diffs: DiffFile[]): LineFinder {
  const files = new Map<string, Map<string, { file: DiffFile; line: PositionLine }>>();
  return (position) => {
    const key = `${position.old_path}\0${position.new_path}`;
    let lines = files.get(key);
    if (!lines) {
      lines = new Map();
      const file = diffs.find((candidate) => candidate.newPath === position.new_path && candidate.oldPath === position.old_path);
      for (const line of file ? positionLines(file) : []) lines.set(`${line.oldLine}:${line.newLine}`, { file: file!, line });
      files.set(key, lines);
    }
    return lines.get(`${position.old_line}:${position.new_line}`);
  };
}

/** The diff line of a line code, or undefined. */
export function lineOfCode(diffs: DiffFile[], code: string): { file: DiffFile; line: PositionLine } | undefined {
  const match = /^([0-9a-f]{40})_(\d+)_(\d+)$/.exec(code);
  if (!match) return undefined;
  const oldLine = Number(match[2]) || null;
  const newLine = Number(match[3]) || null;
  for (const file of diffs) {
    if (positionLineCode(file.newPath, null, null).slice(0, 40) !== match[1]) continue;
    const line = positionLines(file).find((candidate) => candidate.oldLine === oldLine && candidate.newLine === newLine);
    if (line) return { file, line };
  }
  return undefined;
}

/** A stored position, or undefined for a note without one. */
export function parsePosition(stored: string | null): DiffPosition | undefined {
  if (!stored) return undefined;
  try {
    return JSON.parse(stored) as DiffPosition;
  } catch {
    return undefined;
  }
}
