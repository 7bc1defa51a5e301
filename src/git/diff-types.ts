/** What a diff reads as: the records of `diff.ts`, kept by `GitReader`'s caches. */

export interface DiffFile {
  oldPath: string;
  newPath: string;
  /** Octal mode as GitLab shows it (`100644`; `0` for the missing side). */
  aMode: string;
  bMode: string;
  /** The unified diff from the `---` line on (or `Binary files … differ`); empty when only a name or mode changed. */
  diff: string;
  newFile: boolean;
  renamedFile: boolean;
  deletedFile: boolean;
  additions: number;
  deletions: number;
}

export interface DiffResult {
  files: DiffFile[];
  /** The patch text exceeded the limit: files are listed without their `diff`. */
  overflow: boolean;
}

export interface DiffStats {
  additions: number;
  deletions: number;
  total: number;
}

/** How Forge asks `diff-tree` for a diff: raw records with renames, names unquoted, NUL-separated. */
export const DIFF_TREE = ['-c', 'core.quotePath=false', 'diff-tree', '-r', '-z', '-M', '--raw', '--no-commit-id'];
