import crypto from 'node:crypto';
import { apiError } from '../../errors';

/** An LFS object id: the SHA-256 of the content in lower-case hex. */
export const isOid = (value: unknown): value is string => typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);

/** An object's size in bytes. */
export const isObjectSize = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** Where an object's content lives in the file store: one file per content, whichever projects link it. */
export const objectKey = (oid: string): string => `lfs/objects/${oid.slice(0, 2)}/${oid.slice(2, 4)}/${oid}`;

/**
 * Passes `source` through while counting and hashing it, and fails (422) once it is longer than
 * `size` (so a `size` within the limit bounds what is read), or at its end when it is shorter or
 * its SHA-256 is not `oid`. Given to `FileStore.put`, a failure leaves nothing stored: the
 * temporary file goes.
 */
export async function* verifiedContent(source: AsyncIterable<Uint8Array>, oid: string, size: number): AsyncIterable<Uint8Array> {
  const hash = crypto.createHash('sha256');
  let total = 0;
  for await (const chunk of source) {
    total += chunk.length;
    if (total > size) throw apiError(422, `The uploaded content is larger than the ${size} bytes announced`);
    hash.update(chunk);
    yield chunk;
  }
  if (total !== size) throw apiError(422, `The uploaded content has ${total} bytes, not the ${size} bytes announced`);
  const digest = hash.digest('hex');
  if (digest !== oid) throw apiError(422, `The uploaded content's SHA-256 is ${digest}, not its id ${oid}`);
}
