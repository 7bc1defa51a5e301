import { DIFF_TREE, type DiffFile, type DiffResult, type DiffStats } from './diff-types';
import { GitCommandError } from './errors';
import type { Commit } from './objects';
import type { GitReader } from './reader';
import { runGit } from './run';

export type { DiffFile, DiffResult, DiffStats } from './diff-types';

const EMPTY_TREE: Record<number, string> = {
  40: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  64: '6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321',
};

/** Above this much patch text a diff is listed without its text (GitLab's `compare_timeout`). */
const MAX_PATCH_BYTES = 32 * 1024 * 1024;

/** What a commit changed against its first parent (against nothing for a root commit), renames detected. */
export function commitDiff(git: GitReader, repoPath: string, commit: Commit): Promise<DiffResult> {
  return git.commitDiffs.get(commitKey(repoPath, commit), () => diffTrees(git, repoPath, parentOf(commit), commit.id));
}

/**
 * `commitDiff` when git's output stays within `maxBytes`, else undefined: for callers that want
 * the diff only when it is cheap. What it reads is kept for `commitDiff`.
 */
export async function smallCommitDiff(git: GitReader, repoPath: string, commit: Commit, maxBytes: number): Promise<DiffResult | undefined> {
  const key = commitKey(repoPath, commit);
  const known = git.commitDiffs.peek(key);
  if (known) return known;
  const files = await patchDiff(git, repoPath, baseOf(parentOf(commit), commit.id), commit.id, maxBytes);
  if (files === undefined) return undefined;
  const result = { files, overflow: false };
  git.commitDiffs.set(key, result);
  return result;
}

const commitKey = (repoPath: string, commit: Commit): string => `${repoPath}\0${commit.id}`;
const parentOf = (commit: Commit): string | null => commit.parentIds[0] ?? null;
const baseOf = (from: string | null, to: string): string => from ?? EMPTY_TREE[to.length] ?? EMPTY_TREE[40];

/**
 * The diff between two commits or trees; `from` null means the empty tree. Read from the
 * repository's long-lived `diff-tree`; one git process more when the patch is too large to carry.
 */
export async function diffTrees(git: GitReader, repoPath: string, from: string | null, to: string): Promise<DiffResult> {
  const base = baseOf(from, to);
  const files = await patchDiff(git, repoPath, base, to, MAX_PATCH_BYTES);
  if (files !== undefined) return { files, overflow: false };
  const { stdout } = await runGit(repoPath, [...DIFF_TREE, '--numstat', '--end-of-options', base, to]);
  return { files: parseDiffTree(stdout, false), overflow: true };
}

/**
 * Files with their patch text, or undefined past `maxBytes` of output. Line counts are read from
 * the patch: `--numstat` beside `-p` would make git diff every file twice.
 */
async function patchDiff(git: GitReader, repoPath: string, base: string, to: string, maxBytes: number): Promise<DiffFile[] | undefined> {
  const stdout = await patchOutput(git, repoPath, base, to, maxBytes);
  return stdout && parseDiffTree(stdout, true);
}

/**
 * git's output for `patchDiff`, from the repository's long-lived process: no process started. When
 * that cannot answer (an object it cannot read, a process gone), git is run once, and answers or
 * fails exactly as it always did.
 */
async function patchOutput(git: GitReader, repoPath: string, base: string, to: string, maxBytes: number): Promise<Buffer | undefined> {
  const [baseTree, toTree] = await Promise.all([treeOf(git, repoPath, base), treeOf(git, repoPath, to)]);
  if (baseTree !== undefined && toTree !== undefined) {
    try {
      return await git.patches.diff(repoPath, baseTree, toTree, maxBytes);
    } catch {
      // Run once below, for git's own answer.
    }
  }
  try {
    const { stdout } = await runGit(repoPath, [...DIFF_TREE, '-p', '--end-of-options', base, to], { maxOutput: maxBytes });
    return stdout;
  } catch (error) {
    if (error instanceof GitCommandError && error.stderr === 'output too large') return undefined;
    throw error;
  }
}

/** The tree a commit or tree names (`diff-tree --stdin` reads ids of trees), or undefined. */
function treeOf(git: GitReader, repoPath: string, rev: string): Promise<string | undefined> {
  if (rev === EMPTY_TREE[rev.length]) return Promise.resolve(rev);
  return git.objects.info(repoPath, `${rev}^{tree}`).then(
    (info) => info?.oid,
    () => undefined,
  );
}

export function diffStats(files: readonly DiffFile[]): DiffStats {
  const additions = files.reduce((sum, file) => sum + file.additions, 0);
  const deletions = files.reduce((sum, file) => sum + file.deletions, 0);
  return { additions, deletions, total: additions + deletions };
}

/**
 * `diff-tree -z --raw (-p | --numstat)` output: raw records (`:mode mode oid oid status\0path\0[path\0]`),
 * then either the patch, one `diff --git` section per record in the same order, or as many numstat
 * records (`add\tdel\tpath\0`, or `add\tdel\t\0old\0new\0` for a rename).
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
  if (files.length === 0) return [];
  if (!withPatch) {
    for (const file of files) {
      const [additions, deletions, path] = token().split('\t');
      if (path === '') offset = skipTokens(output, offset, 2);
      // Binary files count `-`: no lines.
      file.additions = Number.parseInt(additions, 10) || 0;
      file.deletions = Number.parseInt(deletions, 10) || 0;
    }
    return files.map(withoutTypeChange);
  }
  if (output[offset] === 0) offset += 1;
  const sections = output
    .toString('utf8', offset)
    .split(/^diff --git /m)
    .slice(1);
  let next = 0;
  for (const file of files) {
    // A change of type (file ⇄ symlink ⇄ submodule) is printed as a deletion and a creation.
    const bodies = sections.slice(next, next + (file.typeChanged ? 2 : 1)).map(patchBody);
    next += bodies.length;
    file.diff = bodies.join('');
    for (const body of bodies) {
      const counted = changedLines(body);
      file.additions += counted.additions;
      file.deletions += counted.deletions;
    }
  }
  return files.map(withoutTypeChange);
}

/** The `+` and `-` lines of a patch's hunks, as `--numstat` counts them (a binary patch has none). */
function changedLines(body: string): { additions: number; deletions: number } {
  let additions = 0;
  let deletions = 0;
  // The `---`/`+++` header comes before the first hunk; every line from there starts with its kind.
  const firstHunk = body.indexOf('\n@@');
  if (firstHunk === -1) return { additions, deletions };
  for (let start = firstHunk + 1; start < body.length; ) {
    const kind = body.charCodeAt(start);
    if (kind === 0x2b /* + */) additions += 1;
    else if (kind === 0x2d /* - */) deletions += 1;
    const end = body.indexOf('\n', start);
    start = end === -1 ? body.length : end + 1;
  }
  return { additions, deletions };
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
