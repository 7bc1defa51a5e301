import { Worker } from 'node:worker_threads';

/*
 * SHA-256 on a thread of its own: the archive's bytes (and, on request, one entry's) are hashed
 * there while the main thread reads and writes the next ones, on a second core. The bytes are not
 * copied: they are in shared memory, and the caller leaves a buffer alone until its hash is
 * acknowledged. Hashing on the main thread was a fixed 8 ms per MiB of archive, in series with
 * all the rest.
 */

const CODE = `
const { parentPort } = require('node:worker_threads');
const crypto = require('node:crypto');
const archive = crypto.createHash('sha256');
let entry;
parentPort.on('message', (message) => {
  if (message.type === 'data') {
    const bytes = new Uint8Array(message.buffer, 0, message.length);
    archive.update(bytes);
    if (message.entryFrom < message.entryTo) {
      entry ??= crypto.createHash('sha256');
      entry.update(bytes.subarray(message.entryFrom, message.entryTo));
    }
    parentPort.postMessage({ id: message.id });
  } else if (message.type === 'entry') {
    parentPort.postMessage({ id: message.id, digest: (entry ?? crypto.createHash('sha256')).digest('hex') });
    entry = undefined;
  } else {
    parentPort.postMessage({ id: message.id, digest: archive.digest('hex') });
  }
});
`;

type Pending = { resolve: (digest: string | undefined) => void; reject: (error: unknown) => void };

export class HashWorker {
  private readonly worker = new Worker(CODE, { eval: true });
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  private failure: unknown;

  constructor() {
    this.worker.on('message', (message: { id: number; digest?: string }) => {
      this.pending.get(message.id)?.resolve(message.digest);
      this.pending.delete(message.id);
    });
    const fail = (error: unknown) => {
      this.failure ??= error;
      for (const waiting of this.pending.values()) waiting.reject(this.failure);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', () => fail(new Error('the hashing thread ended')));
  }

  /** The first `length` bytes of `buffer` are the archive's next; those in [entryFrom, entryTo) also the current entry's. */
  update(buffer: SharedArrayBuffer, length: number, entryFrom = 0, entryTo = 0): Promise<void> {
    return this.ask({ type: 'data', buffer, length, entryFrom, entryTo }).then(() => {});
  }

  /** The SHA-256 of the entry bytes given so far, as hex; the next entry starts anew. */
  async entryDigest(): Promise<string> {
    return (await this.ask({ type: 'entry' }))!;
  }

  /** The SHA-256 of all the bytes given, as hex. */
  async digest(): Promise<string> {
    return (await this.ask({ type: 'end' }))!;
  }

  async stop(): Promise<void> {
    this.failure ??= new Error('the hashing thread was stopped');
    await this.worker.terminate();
  }

  private ask(message: Record<string, unknown>): Promise<string | undefined> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const id = this.next++;
    const answer = new Promise<string | undefined>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.worker.postMessage({ ...message, id });
    return answer;
  }
}
