import type crypto from 'node:crypto';
import fs from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';

/* Reading a backup archive (a tar file; `archive-writer.ts` writes it). */

/** Bytes per read of the archive. */
const IO_CHUNK = 1024 * 1024;

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
