// The part of tar-stream 2 (which ships no types) that src/backup/archive.ts uses.
declare module 'tar-stream' {
  import type { Readable, Writable } from 'node:stream';

  export interface Headers {
    name: string;
    size?: number;
    mode?: number;
    mtime?: Date;
    type?: 'file' | 'link' | 'symlink' | 'directory' | 'character-device' | 'block-device' | 'fifo' | 'contiguous-file' | null;
    linkname?: string | null;
  }

  export interface Pack extends Readable {
    entry(headers: Headers, buffer: Buffer | string, callback: (error?: Error | null) => void): Writable;
    entry(headers: Headers, callback: (error?: Error | null) => void): Writable;
    finalize(): void;
  }

  export interface Extract extends Writable {
    on(event: 'entry', listener: (headers: Headers & { size: number }, stream: Readable, next: (error?: unknown) => void) => void): this;
    on(event: 'finish' | 'close', listener: () => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
  }

  export function pack(): Pack;
  export function extract(): Extract;
}

// tar-stream 2's header encoder, used by src/backup/tar-headers.ts.
declare module 'tar-stream/headers.js' {
  interface EncodedHeader {
    name: string;
    size: number;
    mtime: Date;
    mode: number;
    uid: number;
    gid: number;
    type: string;
    linkname?: string;
  }
  /** The 512-byte ustar header, or null when a name does not fit (a pax header is needed). */
  export function encode(header: EncodedHeader): Buffer | null;
  export function encodePax(header: { name?: string; linkname?: string }): Buffer;
  const headers: { encode: typeof encode; encodePax: typeof encodePax };
  export default headers;
}
