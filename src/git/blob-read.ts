import { Readable } from 'node:stream';
import { normalizeRepoPath } from './paths';
import { blobStream } from './tree';
import type { GitReader } from './reader';

export interface BlobInfo {
  id: string;
  size: number;
}

export interface OpenBlob extends BlobInfo {
  /** The first bytes (up to 8000, what git looks at to call a file binary), for sniffing the type. */
  head: Buffer;
  /** The whole content, or a stream of it for a large blob. */
  body: Buffer | Readable;
}

/** Blobs up to this size are read whole through the cat-file pool; larger ones stream from a process of their own. */
const IN_MEMORY_LIMIT = 1024 * 1024;
const SNIFF_BYTES = 8000;

/** The blob at a path in a commit (a symlink is the blob of its target text); undefined for a directory, a submodule or nothing. */
export async function blobInfoAtPath(git: GitReader, repoPath: string, commitId: string, path: string): Promise<BlobInfo | undefined> {
  const file = normalizeRepoPath(path);
  if (!file) return undefined;
  const info = await git.objects.info(repoPath, `${commitId}:${file}`);
  return info?.type === 'blob' ? { id: info.oid, size: info.size } : undefined;
}

/** A blob by (possibly abbreviated) sha; undefined when no blob has it or the abbreviation is ambiguous. */
export async function blobInfo(git: GitReader, repoPath: string, blobId: string): Promise<BlobInfo | undefined> {
  if (!/^[0-9a-f]{4,64}$/i.test(blobId)) return undefined;
  const info = await git.objects.info(repoPath, blobId.toLowerCase());
  return info?.type === 'blob' ? { id: info.oid, size: info.size } : undefined;
}

/** A blob's content: read whole when small, streamed when large (without holding it in memory). */
export async function openBlob(git: GitReader, repoPath: string, blob: BlobInfo): Promise<OpenBlob> {
  if (blob.size <= IN_MEMORY_LIMIT) {
    const object = await git.objects.read(repoPath, blob.id);
    const content = object?.content ?? Buffer.alloc(0);
    return { ...blob, head: content.subarray(0, SNIFF_BYTES), body: content };
  }
  const iterator = (blobStream(repoPath, blob.id) as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const taken: Buffer[] = [];
  let length = 0;
  while (length < SNIFF_BYTES) {
    const next = await iterator.next();
    if (next.done) break;
    taken.push(next.value);
    length += next.value.length;
  }
  async function* rest(): AsyncGenerator<Buffer> {
    try {
      yield* taken;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    } finally {
      // A client that hangs up ends git too.
      await iterator.return?.();
    }
  }
  return { ...blob, head: Buffer.concat(taken).subarray(0, SNIFF_BYTES), body: Readable.from(rest(), { objectMode: false }) };
}
