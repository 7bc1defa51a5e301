import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import yauzl from 'yauzl';

/*
 * Zips a build's artifacts (streamed to a file, never held in memory) and unzips a dependency's
 * into the working copy, as the runner's artifact helper does (reference §8.8). Paths are relative to
 * the working copy and never leave it.
 */

const SYMLINK = 0o120000;
const TYPE_MASK = 0o170000;

/** Writes the given files and folders (relative to `root`; folders as themselves only) to a zip at `target`. */
export async function writeZip(root: string, entries: string[], target: string): Promise<void> {
  const zip = new yazl.ZipFile();
  const written = pipeline(zip.outputStream, fs.createWriteStream(target));
  for (const entry of entries) {
    const full = path.join(root, entry);
    const stat = fs.lstatSync(full);
    if (stat.isSymbolicLink()) zip.addBuffer(Buffer.from(fs.readlinkSync(full)), entry, { mode: SYMLINK | 0o777, mtime: stat.mtime });
    else if (stat.isDirectory()) zip.addEmptyDirectory(entry, { mode: stat.mode, mtime: stat.mtime });
    else if (stat.isFile()) zip.addFile(full, entry, { mode: stat.mode, mtime: stat.mtime });
  }
  zip.end();
  await written;
}

/** Unpacks the zip at `source` into `root`: folders, files with their modes, symbolic links. Entries that would leave `root` are refused. */
export async function extractZip(source: string, root: string): Promise<number> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(source, { lazyEntries: true, strictFileNames: false }, (error, file) => (error ? reject(error) : resolve(file))),
  );
  let count = 0;
  try {
    for (;;) {
      const entry = await new Promise<yauzl.Entry | undefined>((resolve, reject) => {
        zip.once('entry', resolve);
        zip.once('end', () => resolve(undefined));
        zip.once('error', reject);
        zip.readEntry();
      });
      zip.removeAllListeners('entry').removeAllListeners('end').removeAllListeners('error');
      if (!entry) return count;
      const target = path.resolve(root, entry.fileName);
      if (target !== root && !target.startsWith(root + path.sep))
        throw new Error(`the archive's entry ${entry.fileName} is outside the project folder`);
      const mode = (entry.externalFileAttributes >>> 16) & 0xffff;
      if (entry.fileName.endsWith('/')) {
        fs.mkdirSync(target, { recursive: true });
        continue;
      }
      fs.mkdirSync(path.dirname(target), { recursive: true });
      const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
        zip.openReadStream(entry, (error, s) => (error ? reject(error) : resolve(s))),
      );
      fs.rmSync(target, { force: true });
      if ((mode & TYPE_MASK) === SYMLINK) {
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        fs.symlinkSync(Buffer.concat(chunks).toString('utf8'), target);
      } else {
        await pipeline(stream, fs.createWriteStream(target, { mode: mode & 0o777 || 0o644 }));
      }
      count++;
    }
  } finally {
    zip.close();
  }
}
