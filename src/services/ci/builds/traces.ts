import type { ServiceContext } from '../../context';
import type { BuildRow } from '../types';
import { traceKey } from './files';
import { buildToken } from './tokens';
import { rangeNotSatisfiable } from '../../../errors';
import { PerKeyQueue } from '../../../storage/per-key-queue';
import { RecentCache } from '../../../lib/recent-cache';
import { SizeMismatchError } from '../../../storage/index';

/*
 * Build traces in the file store (reference §4.5). Secrets (the build's token and its project's
 * runners token) are masked with as many `x` as they have bytes before anything is written, so
 * offsets still line up, and again when a trace is read. The length runners resync on is the
 * stored file's byte size.
 */

/**
 * The traces of an app's builds, with what their writers share in the process: one per app, owned
 * by the builds service (`BuildsService.traces`) and handed to the runner API's.
 */
export class BuildTraces {
  // A part's length check and its write are one step per trace within this process, so two parts
  // sent at once cannot both pass the check (a runner sends one at a time; a retry may overlap).
  private readonly writes = new PerKeyQueue();

  /**
   * A running build sends a part every few seconds: its secrets are remembered a while instead of
   * being read and unsealed for each part. Neither changes while it runs (a build keeps its token;
   * no API changes a project's runners token).
   */
  private readonly recentSecrets = new RecentCache<number, Buffer[]>(5 * 60 * 1000, 10_000);

  constructor(private readonly ctx: ServiceContext) {}

  /** The stored trace's length in bytes (0 when there is none). */
  async length(build: BuildRow): Promise<number> {
    return (await this.ctx.files.stat(traceKey(build)))?.size ?? 0;
  }

  /**
   * A runner's incremental part (`PATCH …/trace.txt`): it must start exactly where the stored trace
   * ends (416 with the stored length otherwise, nothing written), and is appended, never rewriting
   * the file. Resolves to the new length.
   */
  async append(build: BuildRow, start: number, part: Buffer): Promise<number> {
    const secrets = part.length === 0 ? [] : await this.secretsOf(build);
    return this.writes.run(traceKey(build), async () => {
      if (part.length === 0) {
        const length = await this.length(build);
        if (start !== length) throw rangeNotSatisfiable(length);
        return length;
      }
      try {
        // Not fsynced part by part (one fsync each capped 100 busy builds near 2,500 parts a second):
        // what the kernel holds survives a crash of Forge, and a tail lost with the machine is resent
        // by the runner, which resyncs from the length answered (416) and sends the whole trace at the end.
        return await this.ctx.files.append(traceKey(build), mask(part, secrets), { durable: false, expectedSize: start });
      } catch (error) {
        if (error instanceof SizeMismatchError) throw rangeNotSatisfiable(error.actualSize);
        throw error;
      }
    });
  }

  /**
   * The full trace of a runner's `PUT`: it replaces the stored one only when there is none yet or it
   * is longer (Forge's rule, not 8.12's, which always replaced: a late or repeated PUT with a shorter
   * trace, or an empty one, no longer wipes what the PATCHes stored).
   */
  async replace(build: BuildRow, text: string): Promise<void> {
    const bytes = Buffer.from(text);
    const masked = mask(bytes, await this.secretsOf(build));
    await this.writes.run(traceKey(build), async () => {
      const stat = await this.ctx.files.stat(traceKey(build));
      if (stat && bytes.length <= stat.size) return;
      await this.ctx.files.put(
        traceKey(build),
        (async function* () {
          yield masked;
        })(),
      );
    });
  }

  /** The whole trace, masked again (a token split across two parts was not masked on the way in), or undefined. */
  async read(build: BuildRow): Promise<Buffer | undefined> {
    const stream = await this.ctx.files.read(traceKey(build));
    if (!stream) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
    return mask(Buffer.concat(chunks), await this.secretsOf(build));
  }

  /** The secrets a build's trace must never show. */
  private secretsOf(build: BuildRow): Promise<Buffer[]> {
    const { ctx } = this;
    return this.recentSecrets.get(build.id, async () => {
      const project = await ctx.db
        .selectFrom('projects')
        .select('runners_token_sealed')
        .where('id', '=', build.project_id)
        .executeTakeFirst();
      const secrets = [buildToken(ctx, build), project ? ctx.secrets.unseal(project.runners_token_sealed) : ''];
      return secrets.filter((secret) => secret !== '').map((secret) => Buffer.from(secret));
    }) as Promise<Buffer[]>;
  }
}

/** `bytes` with every occurrence of each secret replaced by a same-length run of `x`. */
export function mask(bytes: Buffer, secrets: Buffer[]): Buffer {
  let masked = bytes;
  for (const secret of secrets) {
    let at = masked.indexOf(secret);
    if (at === -1) continue;
    if (masked === bytes) masked = Buffer.from(bytes);
    while (at !== -1) {
      masked.fill(0x78, at, at + secret.length);
      at = masked.indexOf(secret, at + secret.length);
    }
  }
  return masked;
}
