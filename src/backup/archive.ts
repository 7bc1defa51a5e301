import crypto from 'node:crypto';
import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';

/*
 * The backup archive is a plain tar file (any tar lists and extracts it), written as a stream:
 * each entry goes to disk as it is made, counted and hashed on the way, so the size and SHA-256
 * are known at the end without reading the file again. Not compressed: repositories' packs
 * already are, and a compressor of the operator's choice can follow.
 */

/** Bytes per read or write of the archive: Node's 64 KiB default made a system call and a turn of the event loop per pack's 64 KiB. */
const IO_CHUNK = 1024 * 1024;
/** Bytes of archive between flushes ahead of the end. */
const FLUSH_AHEAD = 16 * 1024 * 1024;

export class ArchiveWriter {
  private readonly pack = tar.pack();
  private readonly hash = crypto.createHash('sha256');
  private bytes = 0;
  private readonly written: Promise<void>;
  /** Rejects when writing fails, so that no entry waits for ever on a broken stream. */
  private readonly broken: Promise<never>;
  private readonly mtime = new Date();

  /** A flush of what is written so far, running while more is written (`flushAhead`). */
  private flushing: Promise<void> = Promise.resolve();
  private flushRequested = 0;

  constructor(private readonly file: string) {
    const count = new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        this.hash.update(chunk);
        this.bytes += chunk.length;
        done(null, chunk);
        this.flushAhead();
      },
    });
    this.written = pipeline(this.pack, count, fs.createWriteStream(file, { flags: 'wx', mode: 0o600, highWaterMark: IO_CHUNK }));
    this.broken = new Promise<never>((_, reject) => this.written.catch(reject));
    this.broken.catch(() => {});
  }

  /** Bytes written so far. */
  get size(): number {
    return this.bytes;
  }

  addBuffer(name: string, data: Buffer | string): Promise<void> {
    return this.settle((done) => this.pack.entry({ name, mtime: this.mtime, mode: 0o644 }, data, done));
  }

  /**
   * `size` bytes of an open file from its start: a file growing meanwhile (a trace) is saved as it
   * was when measured. `hash`, when given, is fed the same bytes on the way (read once).
   */
  async addFile(name: string, file: FileHandle, size: number, mtime: Date, hash?: crypto.Hash): Promise<void> {
    if (size === 0) return this.addBuffer(name, Buffer.alloc(0));
    let entry: NodeJS.WritableStream | undefined;
    const finished = this.settle((done) => {
      entry = this.pack.entry({ name, size, mtime, mode: 0o644 }, done);
    });
    const read = file.createReadStream({ start: 0, end: size - 1, autoClose: false, highWaterMark: IO_CHUNK });
    const copied = hash ? pipeline(read, hashing(hash), entry!) : pipeline(read, entry!);
    await Promise.race([copied, this.broken]);
    await finished;
  }

  /** A hard link to an entry written before (forks share their object files). */
  addLink(name: string, target: string): Promise<void> {
    return this.settle((done) => this.pack.entry({ name, type: 'link', linkname: target, mtime: this.mtime, mode: 0o644 }, done));
  }

  /** Ends the archive and flushes it to disk; its size and SHA-256. */
  async finish(): Promise<{ size: number; sha256: string }> {
    this.pack.finalize();
    await this.written;
    await this.flushing;
    const handle = await fs.promises.open(this.file, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    return { size: this.bytes, sha256: this.hash.digest('hex') };
  }

  /**
   * Every FLUSH_AHEAD bytes, the disk is told to write what it holds of the archive (on a worker
   * thread, not waited for): the flush that ends a backup then waits for its last part only,
   * instead of the whole archive written out at once after all the work (seconds on a busy disk).
   */
  private flushAhead(): void {
    if (this.bytes - this.flushRequested < FLUSH_AHEAD) return;
    this.flushRequested = this.bytes;
    this.flushing = this.flushing.then(async () => {
      const handle = await fs.promises.open(this.file, 'r');
      try {
        await handle.datasync();
      } finally {
        await handle.close();
      }
    });
    // A failing flush is said by the one at the end.
    this.flushing = this.flushing.catch(() => {});
  }

  /** Stops writing after a failure. */
  abandon(): void {
    this.pack.destroy();
  }

  private settle(start: (done: (error?: Error | null) => void) => void): Promise<void> {
    const entry = new Promise<void>((resolve, reject) => start((error) => (error ? reject(error) : resolve())));
    return Promise.race([entry, this.broken]);
  }
}

export interface ArchiveEntry {
  name: string;
  type: 'file' | 'link';
  /** The earlier entry a link names. */
  linkname?: string;
  size: number;
  body: Readable;
}

/** Hands each entry of a tar file to `onEntry`, in order; an entry's body is read by it or skipped. */
export async function readArchive(file: string, onEntry: (entry: ArchiveEntry) => Promise<void>): Promise<void> {
  const extract = tar.extract();
  let failure: unknown;
  extract.on('entry', (header, body, next) => {
    // tar-stream's streams are readable-stream's, which may not say `readableEnded`: the end is watched from the start.
    let ended = false;
    const end = new Promise<void>((resolve) => body.once('end', resolve)).then(() => (ended = true));
    const type = header.type === 'link' ? 'link' : header.type === 'file' || !header.type ? 'file' : undefined;
    const handled =
      type === undefined
        ? Promise.reject(new Error(`unexpected ${header.type} entry ${header.name} in the archive`))
        : onEntry({ name: header.name, type, linkname: header.linkname ?? undefined, size: header.size, body });
    handled.then(
      () => {
        if (!ended) body.resume();
        void end.then(() => next());
      },
      (error) => {
        failure = error;
        extract.destroy(error);
      },
    );
  });
  try {
    await pipeline(fs.createReadStream(file, { highWaterMark: IO_CHUNK }), extract);
  } catch (error) {
    throw failure ?? error;
  }
}

/** A stream passing its bytes on unchanged, fed to `hash` on the way. */
export function hashing(hash: crypto.Hash): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
}

/** An entry's body, whole (small entries: the manifest, a chunk of rows). */
export async function readBody(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
