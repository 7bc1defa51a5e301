import crypto from 'node:crypto';
import type { DiffFile } from '../../git/diff';

/** A line of a diff a note asks to sit on. */
export interface Placement {
  path: string;
  line: number;
  lineType: string;
}

/** Where a placed note sits: its line on the old side, and its file's diff (for the Note Hook). */
export interface FoundLine {
  oldLine: number;
  file: DiffFile;
}

/**
 * Finds the diff line a note asks for, as GitLab's `Gitlab::Diff::Parser` numbers lines: the
 * file whose new path is `path`, a line whose new-side number is `line` and whose type is
 * `line_type` (`new` for an added line, `old` for a removed one; context lines have no type).
 */
export function findLine(diffs: DiffFile[], wanted: Placement): FoundLine | undefined {
  for (const file of diffs) {
    if (file.newPath !== wanted.path) continue;
    let oldLine = 1;
    let newLine = 1;
    let inHunk = false;
    for (const text of file.diff.split('\n')) {
      const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)/.exec(text);
      if (hunk) {
        oldLine = Number(hunk[1]);
        newLine = Number(hunk[2]);
        inHunk = true;
        continue;
      }
      // The `---`/`+++` file names come before the first hunk; inside one they are lines like any other.
      if (!inHunk || text === '') continue;
      const type = text[0] === '+' ? 'new' : text[0] === '-' ? 'old' : undefined;
      if (type === wanted.lineType && newLine === wanted.line) return { oldLine, file };
      if (text[0] === '+') newLine += 1;
      else if (text[0] === '-') oldLine += 1;
      else if (text[0] !== '\\') {
        newLine += 1;
        oldLine += 1;
      }
    }
  }
  return undefined;
}

/** GitLab's `Gitlab::Diff::LineCode.generate`: the file's SHA-1, the old line, the new line. */
export const lineCode = (path: string, oldLine: number, newLine: number): string =>
  `${crypto.hash('sha1', path, 'hex')}_${oldLine}_${newLine}`;

/** `Gitlab::Git::Diff#to_hash`, which an inline (legacy diff) note keeps as `st_diff`. */
export const diffHash = (file: DiffFile) => ({
  diff: file.diff,
  new_path: file.newPath,
  old_path: file.oldPath,
  a_mode: file.aMode,
  b_mode: file.bMode,
  new_file: file.newFile,
  renamed_file: file.renamedFile,
  deleted_file: file.deletedFile,
});
