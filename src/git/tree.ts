import type { Readable } from 'node:stream';
import { normalizeRepoPath } from './paths';
import { isFullOid } from './ref-names';
import { gitText, spawnGit } from './run';
import type { GitReader } from './reader';

export interface TreeEntry {
  id: string;
  name: string;
  /** `tree`, `blob`, or `commit` for a submodule. */
  type: 'tree' | 'blob' | 'commit';
  /** Octal mode left-padded to 6 characters (`040000`, `100644`). */
  mode: string;
  /** Path from the repository root. */
  path: string;
}

export interface Blob {
  id: string;
  size: number;
  content: Buffer;
}

/**
 * The entries of a directory at a commit: directories, then files, then submodules, each group in
 * tree order (as GitLab lists them). Undefined when the path is not a directory there.
 */
export async function listTree(git: GitReader, repoPath: string, commitId: string, path = ''): Promise<TreeEntry[] | undefined> {
  const dir = normalizeRepoPath(path);
  if (dir === undefined) return undefined;
  if (!isFullOid(commitId)) return readTree(git, repoPath, commitId, dir);
  // At a commit id a listing never changes (callers share it, and must not modify it). Only one
  // found is kept: a commit not pushed yet may come.
  const key = `${repoPath}\0${commitId}\0${dir}`;
  const known = git.trees.peek(key);
  if (known) return known;
  const entries = await readTree(git, repoPath, commitId, dir);
  if (entries !== undefined) git.trees.set(key, entries);
  return entries;
}

async function readTree(git: GitReader, repoPath: string, commitId: string, dir: string): Promise<TreeEntry[] | undefined> {
  const object = await git.objects.read(repoPath, dir === '' ? `${commitId}^{tree}` : `${commitId}:${dir}`);
  if (object?.type !== 'tree') return undefined;
  const entries = parseTree(object.content, object.oid.length / 2, dir);
  const order = { tree: 0, blob: 1, commit: 2 };
  return entries.sort((a, b) => order[a.type] - order[b.type] || a.index - b.index).map(({ index: _, ...entry }) => entry);
}

/**
 * Every entry under a directory at a commit, directories included, in git's order (each directory
 * before what it holds). Undefined when the path is not a directory there.
 */
export async function listTreeRecursive(git: GitReader, repoPath: string, commitId: string, path = ''): Promise<TreeEntry[] | undefined> {
  const dir = normalizeRepoPath(path);
  if (dir === undefined) return undefined;
  const rev = dir === '' ? `${commitId}^{tree}` : `${commitId}:${dir}`;
  if ((await git.objects.info(repoPath, rev))?.type !== 'tree') return undefined;
  const output = await gitText(repoPath, ['ls-tree', '-r', '-t', '-z', '--end-of-options', rev]);
  return output
    .split('\0')
    .filter((line) => line !== '')
    .map((line) => {
      const tab = line.indexOf('\t');
      const [mode, type, id] = line.slice(0, tab).split(' ');
      const relative = line.slice(tab + 1);
      const name = relative.slice(relative.lastIndexOf('/') + 1);
      return { id, name, type: type as TreeEntry['type'], mode: mode.padStart(6, '0'), path: dir === '' ? relative : `${dir}/${relative}` };
    });
}

/** The file at a path in a commit, or undefined when there is none (or it is a directory). */
export async function blobAtPath(git: GitReader, repoPath: string, commitId: string, path: string): Promise<Blob | undefined> {
  const file = normalizeRepoPath(path);
  if (!file) return undefined;
  // As a tree, a file at a commit id never changes: one found is kept (shared, not to be modified).
  const key = `${repoPath}\0${commitId}\0${file}`;
  const known = isFullOid(commitId) ? git.files.peek(key) : undefined;
  if (known) return known;
  const object = await git.objects.read(repoPath, `${commitId}:${file}`);
  if (object?.type !== 'blob') return undefined;
  const blob = { id: object.oid, size: object.size, content: object.content };
  if (isFullOid(commitId)) git.files.set(key, blob);
  return blob;
}

/** A blob's bytes as a stream, for files too large to hold in memory; the caller checked it exists. */
export function blobStream(repoPath: string, blobId: string): Readable {
  if (!/^[0-9a-f]{4,64}$/.test(blobId)) throw new RangeError(`not an object id: ${blobId}`);
  const child = spawnGit(repoPath, ['cat-file', 'blob', blobId]);
  child.stdin.end();
  child.stderr.resume();
  return child.stdout;
}

/** Binary tree format: `<mode> <name>\0<raw oid>` repeated. */
function parseTree(content: Buffer, oidBytes: number, dir: string): Array<TreeEntry & { index: number }> {
  const entries: Array<TreeEntry & { index: number }> = [];
  let offset = 0;
  while (offset < content.length) {
    const space = content.indexOf(0x20, offset);
    const nul = content.indexOf(0, space);
    if (space === -1 || nul === -1) break;
    const mode = content.toString('latin1', offset, space);
    const name = content.toString('utf8', space + 1, nul);
    const id = content.toString('hex', nul + 1, nul + 1 + oidBytes);
    offset = nul + 1 + oidBytes;
    const type = mode === '40000' ? 'tree' : mode === '160000' ? 'commit' : 'blob';
    entries.push({ id, name, type, mode: mode.padStart(6, '0'), path: dir === '' ? name : `${dir}/${name}`, index: entries.length });
  }
  return entries;
}
