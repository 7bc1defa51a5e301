import fs from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';
import { objectFiles, packedRefs, type RepositoryRefs } from '../git/backup-files';
import { repositoryPath } from '../git/paths';
import type { ArchiveWriter } from './archive-writer';
import { BackupError, DATA_PREFIX } from './format';
import { mebibytes, type Progress } from './progress';

/*
 * Each repository goes into the archive as a bare repository without its config: HEAD and a
 * packed-refs file holding the refs of the snapshot, then its object files (`git/backup-files.ts`).
 * The object files are all opened (small loose objects read) before the first is written: a
 * `git gc` that removes one meanwhile is seen at once and the repository listed again, never
 * saved without an object its refs need. A file shared by a fork (a hard link) is saved once and
 * linked, as on disk.
 */

const LISTING_ATTEMPTS = 5;
/** Loose objects up to this size are read at listing time; bigger ones stay open instead. */
const READ_WHOLE_BYTES = 1024 * 1024;

interface OpenedObject {
  name: string;
  stats: Stats;
  handle?: FileHandle;
  content?: Buffer;
}

export async function saveRepositories(
  writer: ArchiveWriter,
  dataDir: string,
  repositories: Map<number, RepositoryRefs | undefined>,
  progress: Progress,
): Promise<number> {
  const linked = new Map<string, string>();
  let saved = 0;
  for (const [id, refs] of repositories) {
    if (refs === undefined) continue;
    const repoPath = repositoryPath(dataDir, id);
    const prefix = `${DATA_PREFIX}${path.relative(dataDir, repoPath)}`;
    const objects = await openObjects(repoPath, id);
    try {
      await writer.addBuffer(`${prefix}/HEAD`, `${refs.head}\n`);
      await writer.addBuffer(`${prefix}/packed-refs`, packedRefs(refs.refs));
      for (const object of objects) {
        const name = `${prefix}/${object.name}`;
        const inode = `${object.stats.dev}:${object.stats.ino}`;
        const first = object.stats.nlink > 1 ? linked.get(inode) : undefined;
        if (first !== undefined) await writer.addLink(name, first);
        else if (object.content) await writer.addBuffer(name, object.content);
        else await writer.addFile(name, object.handle!, object.stats.size, object.stats.mtime);
        if (first === undefined && object.stats.nlink > 1) linked.set(inode, name);
      }
    } finally {
      await Promise.all(objects.map((object) => object.handle?.close()));
    }
    saved++;
    progress.tick(() => `repositories: ${saved}/${repositories.size} (archive ${mebibytes(writer.size)})`);
  }
  progress.say(`repositories: ${saved} saved`);
  return saved;
}

async function openObjects(repoPath: string, projectId: number): Promise<OpenedObject[]> {
  for (let attempt = 1; attempt <= LISTING_ATTEMPTS; attempt++) {
    const opened: OpenedObject[] = [];
    let vanished = false;
    for (const name of await objectFiles(repoPath)) {
      try {
        const handle = await fs.open(path.join(repoPath, name), 'r');
        const stats = await handle.stat();
        if (name.endsWith('.pack') || name.endsWith('.idx') || stats.size > READ_WHOLE_BYTES) {
          opened.push({ name, stats, handle });
        } else {
          opened.push({ name, stats, content: await handle.readFile().finally(() => handle.close()) });
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
          await Promise.all(opened.map((object) => object.handle?.close()));
          throw error;
        }
        vanished = true;
        break;
      }
    }
    if (!vanished) return opened;
    await Promise.all(opened.map((object) => object.handle?.close()));
  }
  throw new BackupError(`the repository of project ${projectId} kept changing under the backup (git gc?): try again`);
}
