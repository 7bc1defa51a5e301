import headers from 'tar-stream/headers.js';

/*
 * The 512-byte headers of a tar entry, as tar-stream's own packer writes them (its encoder, and a
 * pax header before an entry whose name does not fit ustar's fields), so that the archive reads
 * the same to tar-stream's extractor and to any tar. The entries' bytes are written by
 * `ArchiveWriter` itself.
 */

export interface EntryHeader {
  name: string;
  type: 'file' | 'link';
  size: number;
  mtime: Date;
  linkname?: string;
}

const MODE = 0o644;
/** Two zero blocks end a tar archive. */
export const END_OF_ARCHIVE = Buffer.alloc(1024);
export const BLOCK = 512;

/** The header blocks of one entry (one, or three with a pax header). */
export function entryHeader(entry: EntryHeader): Buffer[] {
  const header = {
    name: entry.name,
    size: entry.size,
    mtime: entry.mtime,
    mode: MODE,
    uid: 0,
    gid: 0,
    type: entry.type,
    linkname: entry.linkname,
  };
  const plain = headers.encode(header);
  if (plain) return [plain];
  const pax = headers.encodePax({ name: entry.name, linkname: entry.linkname });
  const paxHeader = { ...header, name: 'PaxHeader', linkname: entry.linkname && 'PaxHeader' };
  return [headers.encode({ ...paxHeader, size: pax.length, type: 'pax-header' })!, pax, padding(pax.length), headers.encode(paxHeader)!];
}

/** Zeros up to the next block after `size` bytes of an entry. */
export function padding(size: number): Buffer {
  const rest = size % BLOCK;
  return rest === 0 ? EMPTY : ZEROS.subarray(0, BLOCK - rest);
}

const EMPTY = Buffer.alloc(0);
const ZEROS = Buffer.alloc(BLOCK);
