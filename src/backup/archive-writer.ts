import fs, { type FileHandle } from 'node:fs/promises';
import { HashWorker } from './hash-worker';
import { END_OF_ARCHIVE, entryHeader, padding } from './tar-headers';

/*
 * The backup archive is a plain tar file (any tar lists and extracts it), written as it is made:
 * each entry goes to disk in turn, counted and hashed on the way, so the size and SHA-256 are known
 * at the end without reading the file again. Not compressed: repositories' packs already are, and a
 * compressor of the operator's choice can follow.
 *
 * Every byte goes through a few buffers of IO_CHUNK in shared memory, allocated once and used in
 * turn: one is filled (headers, small entries, a file's bytes read straight into it) while those
 * before it are written to the file and hashed on a thread of its own (`hash-worker.ts`), so that
 * reading, writing and hashing overlap. A buffer is filled again once both are done with it.
 * Through streams, each chunk was a new buffer (memory's first touch costs more than a copy on a
 * virtual machine), passed four streams and was hashed on the main thread. One entry at a time:
 * each call is awaited before the next.
 */

/** Bytes per read or write of the archive. */
const IO_CHUNK = 1024 * 1024;
const SLOTS = 4;
/** Bytes of archive between flushes ahead of the end. */
const FLUSH_AHEAD = 16 * 1024 * 1024;

interface Slot {
  shared: SharedArrayBuffer;
  bytes: Buffer;
  /** Settles once the slot's last bytes are written and hashed. */
  free: Promise<void>;
}

export class ArchiveWriter {
  private readonly opened: Promise<FileHandle>;
  private readonly hasher = new HashWorker();
  private readonly mtime = new Date();
  private readonly slots: Slot[] = Array.from({ length: SLOTS }, () => {
    const shared = new SharedArrayBuffer(IO_CHUNK);
    return { shared, bytes: Buffer.from(shared), free: Promise.resolve() };
  });
  /** The slot being filled, and how far. */
  private current = 0;
  private filled = 0;
  /** Bytes of archive made so far (written, or in a slot). */
  private bytes = 0;
  /** Where in the archive the slot being filled starts. */
  private slotStart = 0;
  /** Where the bytes of the entry whose own SHA-256 is asked for lie in the archive (`to` unset: up to now). */
  private digested: { from: number; to?: number } | undefined;
  /** The writes, one after the other. */
  private writing: Promise<void> = Promise.resolve();
  /** A flush of what is written so far, running while more is written (`flushAhead`). */
  private flushing: Promise<void> = Promise.resolve();
  private written = 0;
  private flushRequested = 0;

  constructor(file: string) {
    this.opened = fs.open(file, 'wx', 0o600);
    // Said by the first write that needs the file.
    this.opened.catch(() => {});
  }

  /** Bytes of archive so far. */
  get size(): number {
    return this.bytes;
  }

  /** An entry of these bytes. */
  async addBuffer(name: string, data: Buffer | string): Promise<void> {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    await this.append(entryHeader({ name, type: 'file', size: bytes.length, mtime: this.mtime }));
    await this.append([bytes, padding(bytes.length)]);
  }

  /** `addBuffer`, and the SHA-256 of `data` as hex, worked out with the archive's. */
  async addBufferWithDigest(name: string, data: Buffer): Promise<string> {
    await this.append(entryHeader({ name, type: 'file', size: data.length, mtime: this.mtime }));
    const digest = await this.digesting(() => this.append([data]));
    await this.append([padding(data.length)]);
    return digest;
  }

  /**
   * `size` bytes of an open file from its start: a file growing meanwhile (a trace) is saved as it
   * was when measured.
   */
  async addFile(name: string, file: FileHandle, size: number, mtime: Date): Promise<void> {
    await this.append(entryHeader({ name, type: 'file', size, mtime }));
    await this.copy(name, file, size);
    await this.append([padding(size)]);
  }

  /** `addFile`, and the SHA-256 of the bytes saved as hex (the file is read once). */
  async addFileWithDigest(name: string, file: FileHandle, size: number, mtime: Date): Promise<string> {
    await this.append(entryHeader({ name, type: 'file', size, mtime }));
    const digest = await this.digesting(() => this.copy(name, file, size));
    await this.append([padding(size)]);
    return digest;
  }

  /** A hard link to an entry written before (forks share their object files). */
  addLink(name: string, target: string): Promise<void> {
    return this.append(entryHeader({ name, type: 'link', size: 0, mtime: this.mtime, linkname: target }));
  }

  /** Ends the archive and flushes it to disk; its size and SHA-256. */
  async finish(): Promise<{ size: number; sha256: string }> {
    await this.append([END_OF_ARCHIVE]);
    await this.submit();
    await Promise.all(this.slots.map((slot) => slot.free));
    const sha256 = await this.hasher.digest();
    await this.hasher.stop();
    await this.flushing;
    const handle = await this.opened;
    await handle.sync();
    await handle.close();
    return { size: this.bytes, sha256 };
  }

  /** Stops writing after a failure. */
  async abandon(): Promise<void> {
    await this.hasher.stop();
    await this.writing.catch(() => {});
    await this.flushing;
    await (await this.opened.catch(() => undefined))?.close().catch(() => {});
  }

  /** Bytes at the end of the archive, copied into the slots. */
  private async append(parts: Buffer[]): Promise<void> {
    for (const part of parts) {
      this.bytes += part.length;
      let offset = 0;
      while (offset < part.length) {
        const copied = part.copy(this.slots[this.current].bytes, this.filled, offset);
        this.filled += copied;
        offset += copied;
        if (this.filled === IO_CHUNK) await this.submit();
      }
    }
  }

  /** `size` bytes of `file`, read straight into the slots. */
  private async copy(name: string, file: FileHandle, size: number): Promise<void> {
    let position = 0;
    while (position < size) {
      const wanted = Math.min(IO_CHUNK - this.filled, size - position);
      const { bytesRead } = await file.read(this.slots[this.current].bytes, this.filled, wanted, position);
      if (bytesRead === 0) throw new Error(`${name} ended at ${position} of its ${size} bytes while it was saved`);
      this.bytes += bytesRead;
      this.filled += bytesRead;
      position += bytesRead;
      if (this.filled === IO_CHUNK) await this.submit();
    }
  }

  /** The SHA-256 of what `add` appends. */
  private async digesting(add: () => Promise<void>): Promise<string> {
    this.digested = { from: this.bytes };
    await add();
    this.digested.to = this.bytes;
    // The entry's last bytes go to the hashing thread before its digest is asked for.
    await this.submit();
    this.digested = undefined;
    return this.hasher.entryDigest();
  }

  /** Hands the slot being filled to be written and hashed; the next one is filled once it is free. */
  private async submit(): Promise<void> {
    if (this.filled === 0) return;
    const slot = this.slots[this.current];
    const length = this.filled;
    const start = this.slotStart;
    let [from, to] = [0, 0];
    if (this.digested !== undefined) {
      from = Math.max(this.digested.from, start) - start;
      to = Math.max(from, Math.min(this.digested.to ?? Number.POSITIVE_INFINITY, start + length) - start);
    }
    const hashed = this.hasher.update(slot.shared, length, from, to);
    const written = this.writing.then(() => this.write(slot.bytes.subarray(0, length)));
    this.writing = watched(written);
    slot.free = watched(Promise.all([hashed, written]).then(() => {}));
    this.slotStart += length;
    this.filled = 0;
    this.current = (this.current + 1) % SLOTS;
    await this.slots[this.current].free;
  }

  private async write(data: Buffer): Promise<void> {
    const handle = await this.opened;
    let offset = 0;
    while (offset < data.length) offset += (await handle.write(data, offset, data.length - offset)).bytesWritten;
    this.written += data.length;
    this.flushAhead(handle);
  }

  /**
   * Every FLUSH_AHEAD bytes, the disk is told to write what it holds of the archive (on a worker
   * thread, not waited for): the flush that ends a backup then waits for its last part only,
   * instead of the whole archive written out at once after all the work (seconds on a busy disk).
   */
  private flushAhead(handle: FileHandle): void {
    if (this.written - this.flushRequested < FLUSH_AHEAD) return;
    this.flushRequested = this.written;
    // A failing flush is said by the one at the end.
    this.flushing = this.flushing.then(() => handle.datasync()).catch(() => {});
  }
}

/** A failure is said by whatever waits for the promise next, not as an unhandled rejection meanwhile. */
function watched<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}
