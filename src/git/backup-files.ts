import fs from 'node:fs/promises';
import path from 'node:path';
import { gitText } from './run';

/*
 * A repository as `forge backup` saves it: its refs read at one moment, then the object files as
 * they are on disk (whole packs with their index, loose objects), then the refs written back as a
 * `packed-refs` file. Objects are never removed before the refs that need them, and a pack is
 * used by git only once its index is in place, so the copy holds every object its refs reach and
 * no half-written pack. Objects that arrived after the refs were read come along, unreferenced.
 * Copying the files keeps a backup as fast as copying the directory: packing the objects anew
 * (`git bundle`) took as long as a clone.
 */

export interface RepositoryRefs {
  /** The HEAD file as it was (`ref: refs/heads/master`). */
  head: string;
  /** Every ref under refs/, by name. */
  refs: Array<{ name: string; oid: string }>;
}

/** The refs and HEAD of a repository; undefined when there is no repository there. */
export async function readRepositoryRefs(repoPath: string): Promise<RepositoryRefs | undefined> {
  let head: string;
  try {
    head = (await fs.readFile(path.join(repoPath, 'HEAD'), 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const output = await gitText(repoPath, ['for-each-ref', '--format=%(objectname) %(refname)']);
  const refs = output
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const space = line.indexOf(' ');
      return { oid: line.slice(0, space), name: line.slice(space + 1) };
    });
  return { head, refs };
}

export function sameRefs(a: RepositoryRefs | undefined, b: RepositoryRefs | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return (
    a.head === b.head &&
    a.refs.length === b.refs.length &&
    a.refs.every((ref, i) => ref.name === b.refs[i].name && ref.oid === b.refs[i].oid)
  );
}

/** `packed-refs` holding exactly these refs (sorted, as git writes it; peeled on demand by git). */
export function packedRefs(refs: RepositoryRefs['refs']): string {
  const sorted = [...refs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return `# pack-refs with: sorted \n${sorted.map((ref) => `${ref.oid} ${ref.name}\n`).join('')}`;
}

/**
 * The object files to copy, relative to the repository: each pack whose index exists (with the
 * index, listed after it so a reader of the copy meets the pack first), and loose objects.
 * Quarantined pushes (`incoming-*`) and temporary files are not objects yet.
 */
export async function objectFiles(repoPath: string): Promise<string[]> {
  const objects = path.join(repoPath, 'objects');
  const files: string[] = [];
  const packDir = path.join(objects, 'pack');
  const packNames = new Set(await entries(packDir));
  for (const name of [...packNames].sort()) {
    if (!name.endsWith('.pack') || name.startsWith('tmp_')) continue;
    const index = `${name.slice(0, -'.pack'.length)}.idx`;
    if (packNames.has(index)) files.push(`objects/pack/${name}`, `objects/pack/${index}`);
  }
  for (const fanout of (await entries(objects)).sort()) {
    if (!/^[0-9a-f]{2}$/.test(fanout)) continue;
    for (const name of (await entries(path.join(objects, fanout))).sort()) {
      if (/^[0-9a-f]{38}([0-9a-f]{24})?$/.test(name)) files.push(`objects/${fanout}/${name}`);
    }
  }
  return files;
}

async function entries(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
