import type { Readable } from 'node:stream';

/** What `stat` knows of a stored file. */
export interface FileStat {
  size: number;
  modifiedAt: Date;
}

/** Bytes [start, end) of a file; either bound may be left out (start of file, end of file). */
export interface ByteRange {
  start?: number;
  end?: number;
}

/**
 * Files Forge keeps beside the database: CI traces, build artifacts, uploads. Keys are relative
 * paths such as `traces/12/345.log`. The disk implementation is `DiskFileStore`; an object store
 * may stand behind the same interface later, so nothing here speaks of paths on disk.
 */
export interface FileStore {
  /** Stores the whole source under `key`, replacing any file there; resolves to the size written. Nothing is left behind when the source fails or the signal aborts. */
  put(key: string, source: AsyncIterable<Uint8Array | string>, options?: { signal?: AbortSignal }): Promise<number>;
  /**
   * Adds bytes at the end of `key` (created when missing); appends to one key land in call order.
   * Durable (fsynced) unless `durable: false`, for writers that can resend a lost tail after a
   * machine crash. With `expectedSize`, nothing is written unless the file (0 when missing) has that
   * size: `SizeMismatchError` tells the size it has. Resolves to the new size.
   */
  append(key: string, bytes: Uint8Array | string, options?: AppendOptions): Promise<number>;
  /** The bytes of `key` in `range` (all of them by default), or undefined when there is no such file. */
  read(key: string, range?: ByteRange): Promise<Readable | undefined>;
  stat(key: string): Promise<FileStat | undefined>;
  /** Removes `key`; removing a missing key is no error. */
  delete(key: string): Promise<void>;
  /** The keys starting with `prefix` (a plain string prefix, so `traces/1` covers `traces/12/…`), sorted. */
  list(prefix: string): Promise<string[]>;
}

export interface AppendOptions {
  durable?: boolean;
  expectedSize?: number;
}

/** An append with `expectedSize` found the file at another size; nothing was written. */
export class SizeMismatchError extends Error {
  constructor(readonly actualSize: number) {
    super(`the file has ${actualSize} bytes`);
    this.name = 'SizeMismatchError';
  }
}

/** A key that is not a plain relative path inside the store. */
export class InvalidKeyError extends Error {
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`invalid file key ${JSON.stringify(key)}: ${reason}`);
    this.name = 'InvalidKeyError';
  }
}
