import { PassThrough, type Readable } from 'node:stream';
import type { RefUpdate } from './ref-update';

/** git's pkt-line framing: four hex digits of length (themselves included), then the payload. */
export function pktLine(payload: string | Buffer): Buffer {
  const data = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  return Buffer.concat([Buffer.from((data.length + 4).toString(16).padStart(4, '0'), 'ascii'), data]);
}

export const FLUSH = Buffer.from('0000', 'ascii');

export interface PushCommands {
  updates: RefUpdate[];
  /** What the client asked for on its first command (`report-status`, `side-band-64k` …). */
  capabilities: Set<string>;
  /** False when the command list did not end within the size limit. */
  complete: boolean;
  /** True when a length in the command list is not git's (not four hex digits, or 1 to 3): git would only die on it. */
  malformed: boolean;
  /** The whole request body, from its first byte: what was read here is replayed first. */
  body: Readable;
}

const COMMAND = /^([0-9a-f]{40}|[0-9a-f]{64}) ([0-9a-f]{40}|[0-9a-f]{64}) ([^\0\n]+)/;
const MAX_COMMAND_BYTES = 32 * 1024 * 1024;

/**
 * Reads the ref updates at the head of a receive-pack request (pkt-lines up to the first flush)
 * without consuming the pack that follows. Shallow lines and a push certificate's envelope are
 * skipped; their inner commands are the commands.
 */
export function readPushCommands(source: Readable, maxBytes = MAX_COMMAND_BYTES): Promise<PushCommands> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let buffer: Buffer = Buffer.alloc(0);
    let offset = 0;
    const updates: RefUpdate[] = [];
    const capabilities = new Set<string>();
    let settled = false;
    let malformed = false;

    const finish = (complete: boolean) => {
      if (settled) return;
      settled = true;
      source.off('readable', onReadable);
      source.off('end', onEnd);
      source.off('error', onError);
      const body = new PassThrough();
      body.write(Buffer.concat(chunks, size));
      source.on('error', (error) => body.destroy(error));
      source.pipe(body);
      resolve({ updates, capabilities, complete, malformed, body });
    };

    /** Parses whole pkt-lines from `buffer`; true once the flush that ends the commands is read. */
    const parse = (): boolean => {
      while (buffer.length - offset >= 4) {
        const length = pktLength(buffer, offset);
        if (length === undefined) {
          malformed = true;
          return true;
        }
        if (length === 0) return true;
        if (buffer.length - offset < length) return false;
        const line = buffer.subarray(offset + 4, offset + length);
        offset += length;
        const nul = line.indexOf(0);
        if (nul !== -1 && capabilities.size === 0) {
          for (const capability of line
            .toString('utf8', nul + 1)
            .trim()
            .split(' '))
            if (capability) capabilities.add(capability);
        }
        const match = COMMAND.exec(line.toString('utf8', 0, nul === -1 ? line.length : nul));
        if (match) updates.push({ oldId: match[1], newId: match[2], ref: match[3] });
      }
      return false;
    };

    const onReadable = () => {
      let chunk: Buffer | null;
      while (!settled && (chunk = source.read() as Buffer | null) !== null) {
        chunks.push(chunk);
        size += chunk.length;
        buffer = offset === buffer.length ? chunk : Buffer.concat([buffer.subarray(offset), chunk]);
        offset = 0;
        if (parse()) return finish(true);
        if (size > maxBytes) return finish(false);
      }
    };
    const onEnd = () => finish(true);
    const onError = (error: Error) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    source.on('readable', onReadable);
    source.once('end', onEnd);
    source.once('error', onError);
  });
}

/** The length a pkt-line header at `offset` announces: 0 (flush) or at least 4; undefined when it is not one. */
function pktLength(buffer: Buffer, offset: number): number | undefined {
  const digits = buffer.toString('latin1', offset, offset + 4);
  // parseInt alone would take "1x" or " 12" for a number.
  if (!/^[0-9a-fA-F]{4}$/.test(digits)) return undefined;
  const length = Number.parseInt(digits, 16);
  return length === 0 || length >= 4 ? length : undefined;
}

/**
 * Whether a request body starts as git's requests do, with a pkt-line length (an empty body
 * does too: git answers it). Reads the first four bytes and puts them back, so `source` is
 * still the whole body. git would die on anything else, having read next to nothing of it.
 */
export function startsAsPktLine(source: Readable): Promise<boolean> {
  return new Promise((resolve, reject) => {
    let head: Buffer = Buffer.alloc(0);
    const settle = (result: boolean) => {
      source.off('readable', onReadable);
      source.off('end', onEnd);
      source.off('error', onError);
      if (head.length > 0) source.unshift(head);
      resolve(result);
    };
    const onReadable = () => {
      let chunk: Buffer | null;
      while ((chunk = source.read() as Buffer | null) !== null) {
        head = Buffer.concat([head, chunk]);
        if (head.length >= 4) return settle(pktLength(head, 0) !== undefined);
      }
    };
    const onEnd = () => {
      const empty = head.length === 0;
      head = Buffer.alloc(0);
      settle(empty);
    };
    const onError = (error: Error) => {
      source.off('readable', onReadable);
      source.off('end', onEnd);
      reject(error);
    };
    source.on('readable', onReadable);
    source.once('end', onEnd);
    source.once('error', onError);
  });
}

export interface ReportOptions {
  capabilities: Set<string>;
  updates: RefUpdate[];
  /** Reason per refused ref. */
  reasons: Map<string, string>;
  /** Shown to the user as `remote: …` lines when the client reads a side band. */
  messages: string[];
}

/** Why a ref that was not itself refused was not applied either. */
export const DECLINED_WITH_OTHERS = 'declined: another update in this push was refused';

/**
 * The answer receive-pack would give had it refused every update: `unpack ok` and one
 * `ng <ref> <reason>` per update, in the side band when the client asked for one, so that
 * `git push` prints each reason.
 */
export function refusalReport({ capabilities, updates, reasons, messages }: ReportOptions): Buffer {
  const wantsReport = capabilities.has('report-status') || capabilities.has('report-status-v2');
  const report = wantsReport
    ? Buffer.concat([
        pktLine('unpack ok\n'),
        ...updates.map((update) => pktLine(`ng ${update.ref} ${oneLine(reasons.get(update.ref) ?? DECLINED_WITH_OTHERS)}\n`)),
        FLUSH,
      ])
    : Buffer.alloc(0);
  const band = capabilities.has('side-band-64k') ? 65515 : capabilities.has('side-band') ? 995 : 0;
  if (band === 0) return report;
  const parts: Buffer[] = messages.map((message) =>
    pktLine(Buffer.concat([Buffer.from([2]), Buffer.from(`${oneLine(message)}\n`, 'utf8')])),
  );
  for (let start = 0; start < report.length; start += band) {
    parts.push(pktLine(Buffer.concat([Buffer.from([1]), report.subarray(start, start + band)])));
  }
  parts.push(FLUSH);
  return Buffer.concat(parts);
}

const oneLine = (text: string): string => text.replace(/[\r\n]+/g, ' ').trim();
