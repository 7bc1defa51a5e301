import type { FastifyRequest } from 'fastify';

/*
 * What becomes of a request body that is answered before it was read (an error thrown before the
 * route read it, or midway). Closing the connection at once under a client still sending makes the
 * client fail (EPIPE, or a reset that throws away the answer it had not read yet) instead of
 * seeing the 4xx. So a rest up to `limit` bytes is read and dropped first, and the connection
 * kept; past that, or when the client stops sending, the answer says `Connection: close`.
 */

// A client that declared a small body and stopped sending it does not hold its answer longer than this.
const STALLED_MS = 5000;

/** Reads and drops the rest of the request body; whether it was read to its end (the connection may then carry the next request). */
export function dropRefusedBody(request: FastifyRequest, limit: number): Promise<boolean> {
  const raw = request.raw;
  if (raw.complete) return Promise.resolve(true);
  if (raw.destroyed || raw.readableEnded) return Promise.resolve(false);
  const declared = Number(request.headers['content-length']);
  if (Number.isSafeInteger(declared) && declared > limit) return Promise.resolve(false);
  // Whatever was reading it (busboy, a stream into the file store) reads no more.
  raw.unpipe();
  return new Promise((resolve) => {
    let read = 0;
    const finish = (whole: boolean) => {
      clearTimeout(timer);
      raw.off('data', onData).off('end', onEnd).off('error', onFailure).off('close', onFailure);
      if (!whole) raw.pause();
      resolve(whole);
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > limit) finish(false);
    };
    const onEnd = () => finish(true);
    const onFailure = () => finish(raw.complete);
    const timer = setTimeout(() => finish(false), STALLED_MS);
    raw.on('data', onData).on('end', onEnd).on('error', onFailure).on('close', onFailure);
    raw.resume();
  });
}
