import type { Readable } from 'node:stream';
import type { ServiceContext } from '../../context';
import type { BuildRow, RunnerRow } from '../types';
import { BuildQueue } from './build-queue';
import { BuildPayloads, type BuildPayload } from './payload';
import { updateFromRunner, type RunnerUpdate } from './updates';
import { authorizeBuild, refuseErased } from './build-access';
import type { BuildTraces } from '../builds/traces';
import { artifactsLimitBytes, checkUploadable, readArtifacts, removeArtifacts, storeArtifacts } from './artifacts';
import { parseDuration } from '../yaml/checks';
import { grapeError, invalidParam } from '../../../errors';

/** What the runner API (`/ci/api/v1/builds`) does with builds: hand them out, take their state, traces and artifacts. */
export class BuildRequestsService {
  private readonly queue: BuildQueue;
  private readonly payloads: BuildPayloads;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly traces: BuildTraces,
  ) {
    this.queue = new BuildQueue(ctx);
    this.payloads = new BuildPayloads(ctx);
  }

  /** The next build for this runner, already running on it, with its payload; undefined when there is none. */
  async next(runner: RunnerRow): Promise<BuildPayload | undefined> {
    const build = await this.queue.next(runner);
    return build && this.payloads.of(build, runner);
  }

  update(runner: RunnerRow, id: number | undefined, update: RunnerUpdate): Promise<BuildRow> {
    return updateFromRunner(this.ctx, this.traces, runner, id, update);
  }

  /** The build of the path, when the token is its own or its project's runners token (404, then 403). */
  authorize(id: number | undefined, token: string | undefined): Promise<BuildRow> {
    return authorizeBuild(this.ctx, id, token);
  }

  /** Appends a trace part; resolves to the new length and the build's status (the runner's cancel channel). */
  async appendTrace(build: BuildRow, contentRange: string | undefined, part: Buffer): Promise<{ length: number; status: string }> {
    refuseErased(build);
    if (contentRange === undefined) throw grapeError(400, '400 Missing header Content-Range');
    const length = await this.traces.append(build, rangeStart(contentRange), part);
    return { length, status: build.status };
  }

  checkUploadable(build: BuildRow): void {
    checkUploadable(build);
  }

  /** Archives must be smaller than this (`MAX_ARTIFACTS_SIZE_MB`). */
  get artifactsLimitBytes(): number {
    return artifactsLimitBytes(this.ctx);
  }

  /** `expire_in` in seconds (ChronicDuration's reading); undefined when not given; 400 when it does not parse (8.12 answered 500). */
  expireInSeconds(value: string | undefined): number | undefined {
    if (value === undefined || value === '') return undefined;
    const seconds = parseDuration(value);
    if (seconds === undefined) throw invalidParam('expire_in');
    return seconds;
  }

  /** Stores the archive and answers the build's payload with it, as 8.12's upload did. */
  async storeArtifacts(
    build: BuildRow,
    upload: { filename: string; source: AsyncIterable<Uint8Array>; expireInSeconds: number | undefined },
  ): Promise<BuildPayload> {
    const stored = await storeArtifacts(this.ctx, build, upload);
    const runner =
      stored.runner_id === null
        ? undefined
        : await this.ctx.db.selectFrom('ci_runners').selectAll().where('id', '=', stored.runner_id).executeTakeFirst();
    return this.payloads.of(stored, runner);
  }

  readArtifacts(build: BuildRow): Promise<{ filename: string; size: number | undefined; stream: Readable }> {
    return readArtifacts(this.ctx, build);
  }

  removeArtifacts(build: BuildRow): Promise<void> {
    return removeArtifacts(this.ctx, build);
  }
}

/** The start of the runner's `Content-Range: <start>-<end>`, read as Ruby's `to_i` read it: leading digits, else 0. */
function rangeStart(range: string): number {
  const digits = /^\s*(\d+)/.exec(range.split('-')[0] ?? '');
  return digits ? Number(digits[1]) : 0;
}
