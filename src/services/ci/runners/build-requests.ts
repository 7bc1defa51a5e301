import type { Readable } from 'node:stream';
import type { ServiceContext } from '../../context';
import type { BuildRow, RunnerRow } from '../types';
import { BuildQueue } from './build-queue';
import { BuildPayloads, type RunnerJob } from './payload';
import { PendingBuildsWatch } from './long-poll';
import { updateFromRunner, updateJob, type JobUpdate, type RunnerUpdate } from './updates';
import { authorizeBuild, authorizeJob, refuseErased, requireRunning } from './build-access';
import type { BuildTraces } from '../builds/traces';
import { artifactsLimitBytes, checkUploadable, readArtifacts, removeArtifacts, storeArtifacts } from './artifacts';
import { parseDuration } from '../yaml/checks';
import { storeJunitReport, type ReportFormat } from '../test-reports/upload';
import { grapeError, invalidParam } from '../../../errors';

/** Whether the variables add GitLab 9's names (`CI_JOB_*` …) beside 8.12's: asked by the runner API v4. */
export interface JobFlavour {
  jobNames?: boolean;
}

/**
 * What the runner APIs (v1's `/ci/api/v1/builds`, v4's `/api/v4/jobs`) do with builds: hand them
 * out, take their state, traces and artifacts. Both hand out the same builds from the same queue.
 */
export class BuildRequestsService {
  private readonly queue: BuildQueue;
  private readonly payloads: BuildPayloads;
  private readonly watch: PendingBuildsWatch;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly traces: BuildTraces,
  ) {
    this.queue = new BuildQueue(ctx);
    this.payloads = new BuildPayloads(ctx);
    this.watch = new PendingBuildsWatch(ctx);
  }

  /** The next build for this runner, already running on it, with its payload; undefined when there is none. */
  async next(runner: RunnerRow, flavour: JobFlavour = {}): Promise<RunnerJob | undefined> {
    const build = await this.queue.next(runner);
    return build && this.payloads.of(build, runner, flavour);
  }

  /**
   * Long polling: the next build for this runner, waiting up to `timeoutMs` for one to become
   * pending. The queue is looked at once, then again only when the build queue signal moves (a
   * build made pending in this process, or seen pending by the periodic look for other processes);
   * a look that finds nothing this runner may take (another runner was faster, tags) waits on.
   * `abort` (the runner hung up, the server closes) ends the wait with nothing, and no build is
   * claimed for a runner that is gone. A runner whose `lastUpdate` is still `lastUpdate(runner)` found
   * nothing when nothing had changed: the first look is skipped, and it waits at once.
   */
  async nextWithin(
    runner: RunnerRow,
    timeoutMs: number,
    abort: AbortSignal,
    flavour: JobFlavour = {},
    lastUpdate?: string,
  ): Promise<RunnerJob | undefined> {
    const signal = this.ctx.buildQueue;
    const deadline = Date.now() + timeoutMs;
    let unchanged = lastUpdate !== undefined && lastUpdate === this.lastUpdate(runner);
    for (;;) {
      const seen = signal.version;
      const job = unchanged ? undefined : await this.next(runner, flavour);
      unchanged = false;
      if (job) return job;
      const left = deadline - Date.now();
      if (left <= 0 || abort.aborted) return undefined;
      this.watch.watch();
      await signal.wait(seen, left, abort);
      // Unmoved: the time is up, or the server closes.
      if (abort.aborted || signal.version === seen) return undefined;
    }
  }

  /**
   * What a runner is told as `X-GitLab-Last-Update`: the build queue signal's version in this process
   * (it moves when a build is made pending here, or seen pending by the periodic look for other
   * processes) and the runner's own `updated_at` (its tags, its pause).
   */
  lastUpdate(runner: RunnerRow): string {
    return `${this.ctx.buildQueue.version}-${new Date(runner.updated_at).getTime()}`;
  }

  /** The build of the path when `token` is its own (v4's job token: 404, then 403; 403 with its status when it is not running). */
  authorizeJob(id: number | undefined, token: string | undefined, opts: { running: boolean }): Promise<BuildRow> {
    return authorizeJob(this.ctx, id, token, opts);
  }

  /** A job's update by its own token (v4's `PUT /jobs/:id`): the full trace, then the state and why it failed. */
  updateJob(build: BuildRow, update: JobUpdate): Promise<BuildRow> {
    return updateJob(this.ctx, this.traces, build, update);
  }

  /** 403 with the build's status unless it is running (what a v4 runner reads as "stop"). */
  requireRunning(build: BuildRow): void {
    requireRunning(build);
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
    flavour: JobFlavour = {},
  ): Promise<RunnerJob> {
    return this.jobOf(await storeArtifacts(this.ctx, build, upload), flavour);
  }

  /** Stores the job's JUnit report (`artifact_type=junit`), bounded as an archive is, and answers its payload. */
  async storeJunitReport(
    build: BuildRow,
    upload: { format: ReportFormat; source: AsyncIterable<Uint8Array>; expireInSeconds: number | undefined },
    flavour: JobFlavour = {},
  ): Promise<RunnerJob> {
    const stored = await storeJunitReport(this.ctx, build, { ...upload, limitBytes: artifactsLimitBytes(this.ctx) });
    return this.jobOf(stored, flavour);
  }

  /** A job's payload as it stands (after an upload that changes nothing of it). */
  async jobOf(build: BuildRow, flavour: JobFlavour = {}): Promise<RunnerJob> {
    const runner =
      build.runner_id === null
        ? undefined
        : await this.ctx.db.selectFrom('ci_runners').selectAll().where('id', '=', build.runner_id).executeTakeFirst();
    return this.payloads.of(build, runner, flavour);
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
