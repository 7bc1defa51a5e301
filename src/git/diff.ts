import { GitCommandError } from './errors';
import type { Commit } from './objects';
import { runGit } from './run';

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

const EMPTY_TREE: Record<number, string> = {
  40: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  64: '6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321',
};

/** Above this much patch text a diff is listed without its text (GitLab's `compare_timeout`). */
const MAX_PATCH_BYTES = 32 * 1024 * 1024;

/** What a commit changed against its first parent (against nothing for a root commit), renames detected. */
export function commitDiff(repoPath: string, commit: Commit): Promise<DiffResult> {
  return diffTrees(repoPath, commit.parentIds[0] ?? null, commit.id);
}

/** The diff between two commits or trees; `from` null means the empty tree. One git process. */
export async function diffTrees(repoPath: string, from: string | null, to: string): Promise<DiffResult> {
  const base = from ?? EMPTY_TREE[to.length] ?? EMPTY_TREE[40];
  const args = ['-c', 'core.quotePath=false', 'diff-tree', '-r', '-z', '-M', '--raw', '--numstat', '--no-commit-id'];
  try {
    const { stdout } = await runGit(repoPath, [...args, '-p', '--end-of-options', base, to], { maxOutput: MAX_PATCH_BYTES });
    return { files: parseDiffTree(stdout, true), overflow: false };
  } catch (error) {
    if (!(error instanceof GitCommandError) || error.stderr !== 'output too large') throw error;
    const { stdout } = await runGit(repoPath, [...args, '--end-of-options', base, to]);
    return { files: parseDiffTree(stdout, false), overflow: true };
  }
}

export function diffStats(files: readonly DiffFile[]): DiffStats {
  const additions = files.reduce((sum, file) => sum + file.additions, 0);
  const deletions = files.reduce((sum, file) => sum + file.deletions, 0);
  return { additions, deletions, total: additions + deletions };
}

/**
 * `diff-tree -z --raw --numstat [-p]` output: raw records (`:mode mode oid oid status\0path\0[path\0]`),
 * as many numstat records (`add\tdel\tpath\0`, or `add\tdel\t\0old\0new\0` for a rename), a NUL, then
 * the patch, one `diff --git` section per record in the same order.
 */
function parseDiffTree(output: Buffer, withPatch: boolean): DiffFile[] {
  let offset = 0;
  const token = (): string => {
    const end = output.indexOf(0, offset);
    const stop = end === -1 ? output.length : end;
    const value = output.toString('utf8', offset, stop);
    offset = stop + 1;
    return value;
  };
  const files: Array<DiffFile & { typeChanged: boolean }> = [];
  while (offset < output.length && output[offset] === 0x3a /* ':' */) {
    const [oldMode, newMode, , , status] = token().slice(1).split(' ');
    const first = token();
    const kind = status.charAt(0);
    const second = kind === 'R' || kind === 'C' ? token() : first;
    files.push({
      oldPath: first,
      newPath: second,
      aMode: gitlabMode(oldMode),
      bMode: gitlabMode(newMode),
      diff: '',
      newFile: kind === 'A',
      renamedFile: kind === 'R',
      deletedFile: kind === 'D',
      additions: 0,
      deletions: 0,
      typeChanged: kind === 'T',
    });
  }
  for (const file of files) {
    const [additions, deletions, path] = token().split('\t');
    if (path === '') offset = skipTokens(output, offset, 2);
    // Binary files count `-`: no lines.
    file.additions = Number.parseInt(additions, 10) || 0;
    file.deletions = Number.parseInt(deletions, 10) || 0;
  }
  if (!withPatch || files.length === 0) return files.map(withoutTypeChange);
  if (output[offset] === 0) offset += 1;
  const sections = output.toString('utf8', offset).split(/^diff --git /m).slice(1);
  let next = 0;
  for (const file of files) {
    // A change of type (file ⇄ symlink ⇄ submodule) is printed as a deletion and a creation.
    const count = file.typeChanged ? 2 : 1;
    file.diff = sections.slice(next, next + count).map(patchBody).join('');
    next += count;
  }
  return files.map(withoutTypeChange);
}

const withoutTypeChange = ({ typeChanged: _, ...file }: DiffFile & { typeChanged: boolean }): DiffFile => file;

function skipTokens(output: Buffer, offset: number, count: number): number {
  let position = offset;
  for (let i = 0; i < count; i += 1) {
    const end = output.indexOf(0, position);
    position = end === -1 ? output.length : end + 1;
  }
  return position;
}

/** GitLab keeps a patch from its first `---` or `Binary` line on; nothing when there is neither. */
function patchBody(section: string): string {
  const match = /^(---|Binary)/m.exec(section);
  return match ? section.slice(match.index) : '';
}

/** `000000` → `0`, `100644` → `100644`: the octal number, as rugged's `mode.to_s(8)` prints it. */
const gitlabMode = (mode: string): string => Number.parseInt(mode, 8).toString(8);
