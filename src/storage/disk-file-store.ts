import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { SizeMismatchError, type AppendOptions, type ByteRange, type FileStat, type FileStore } from './file-store';
import { folderOfPrefix, pathOfKey, TEMP_DIR } from './keys';
import { PerKeyQueue } from './per-key-queue';

/**
 * A `FileStore` in a folder (`DATA_DIR/files`). Whole files are written to `.tmp/`, fsynced and
 * renamed into place, then the folder is fsynced: after a crash a key holds the old file or the new
 * one, never half of one. Leftovers of a crash stay in `.tmp/`, out of sight of `list`.
 */
export class DiskFileStore implements FileStore {
  private readonly root: string;
  private readonly queue = new PerKeyQueue();

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  async put(key: string, source: AsyncIterable<Uint8Array | string>, options: { signal?: AbortSignal } = {}): Promise<number> {
    const target = pathOfKey(this.root, key);
    // A stream that fails before it is read (while the temporary file opens) rejects this put when
    // read, instead of crashing the process with an unhandled 'error' now.
    if (source instanceof Readable) source.on('error', ignore);
    // A source is let go of when the put fails. An abort destroys a stream with the abort's reason,
    // so that one which sends nothing more does not hold the put, and the put rejects as aborted.
    const release = (reason?: unknown) => void (source instanceof Readable && source.destroy(reason as Error | undefined));
    const onAbort = () => release(options.signal!.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const temp = path.join(this.root, TEMP_DIR, randomUUID());
    let size = 0;
    try {
      options.signal?.throwIfAborted();
      await makeDirectory(path.dirname(temp));
      const file = await fs.open(temp, 'wx');
      try {
        for await (const chunk of source) {
          options.signal?.throwIfAborted();
          const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          await writeAll(file, bytes);
          size += bytes.length;
        }
        options.signal?.throwIfAborted();
        await file.sync();
      } finally {
        await file.close();
      }
      await makeDirectory(path.dirname(target));
      // Ordered with appends and deletes of the same key, so none of them is lost under the rename.
      await this.queue.run(key, async () => {
        await fs.rename(temp, target);
        await syncDirectory(path.dirname(target));
      });
    } catch (error) {
      release(error);
      await fs.rm(temp, { force: true });
      throw error;
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
    }
    return size;
  }

  async append(key: string, bytes: Uint8Array | string, options: AppendOptions = {}): Promise<number> {
    const durable = options.durable ?? true;
    const target = pathOfKey(this.root, key);
    const data = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
    return this.queue.run(key, async () => {
      // Few system calls: appends are a hot path (every part of every running build's trace).
      const file = await openForAppend(target);
      try {
        const before = (await file.stat()).size;
        if (options.expectedSize !== undefined && before !== options.expectedSize) throw new SizeMismatchError(before);
        await writeAll(file, data);
        if (durable) await file.sync();
        // A new file's name lives in its folder: without this a crash could lose the whole trace.
        // (An empty file that was already there gets its folder synced once more: harmless.)
        if (before === 0 && data.length > 0) await syncDirectory(path.dirname(target));
        return before + data.length;
      } finally {
        await file.close();
      }
    });
  }

  async read(key: string, range: ByteRange = {}): Promise<Readable | undefined> {
    const target = pathOfKey(this.root, key);
    const start = range.start ?? 0;
    if (!Number.isSafeInteger(start) || start < 0 || (range.end !== undefined && (!Number.isSafeInteger(range.end) || range.end < 0))) {
      throw new RangeError(`invalid byte range ${JSON.stringify(range)}`);
    }
    let file: fs.FileHandle;
    try {
      file = await fs.open(target, 'r');
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    if ((await file.stat()).isDirectory()) {
      await file.close();
      return undefined;
    }
    if (range.end !== undefined && range.end <= start) {
      await file.close();
      return Readable.from([]);
    }
    // createReadStream's `end` is inclusive; ours is exclusive, like HTTP's Content-Range arithmetic.
    return file.createReadStream({ start, end: range.end === undefined ? undefined : range.end - 1 });
  }

  async stat(key: string): Promise<FileStat | undefined> {
    const stats = await statOrUndefined(pathOfKey(this.root, key));
    return stats?.isFile() ? { size: stats.size, modifiedAt: stats.mtime } : undefined;
  }

  async delete(key: string): Promise<void> {
    const target = pathOfKey(this.root, key);
    return this.queue.run(key, async () => {
      try {
        await fs.unlink(target);
      } catch (error) {
        // Missing, or a folder of other keys (`traces/12` when asked for it): either way no file `key`.
        if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'EISDIR') return;
        throw error;
      }
      await syncDirectory(path.dirname(target));
    });
  }

  async list(prefix: string): Promise<string[]> {
    const folder = folderOfPrefix(this.root, prefix);
    const keys: string[] = [];
    await walk(this.root, folder, keys);
    return keys.filter((key) => key.startsWith(prefix) && key.split('/')[0] !== TEMP_DIR).sort();
  }
}

async function walk(root: string, folder: string, into: string[]): Promise<void> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(folder, { withFileTypes: true });
  } catch (error) {
    if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return;
    throw error;
  }
  for (const entry of entries) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) await walk(root, full, into);
    else if (entry.isFile()) into.push(path.relative(root, full).split(path.sep).join('/'));
  }
}

async function writeAll(file: fs.FileHandle, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await file.write(bytes, offset, bytes.length - offset);
    offset += bytesWritten;
  }
}

/** Creates `dir` and its missing parents, and makes each new name durable in the folder above it. */
async function makeDirectory(dir: string): Promise<void> {
  const first = await fs.mkdir(dir, { recursive: true });
  if (first === undefined) return;
  for (let created = dir; ; created = path.dirname(created)) {
    await syncDirectory(path.dirname(created));
    if (created === first) break;
  }
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Opens a file for appending, making its folder when missing (only the first append of a key pays for that). */
async function openForAppend(target: string): Promise<fs.FileHandle> {
  try {
    return await fs.open(target, 'a');
  } catch (error) {
    if (!isMissing(error)) throw error;
    await makeDirectory(path.dirname(target));
    return fs.open(target, 'a');
  }
}

async function statOrUndefined(target: string) {
  try {
    return await fs.stat(target);
  } catch (error) {
    if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

function ignore(): void {}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}
