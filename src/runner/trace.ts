import type { JobCredentials, PatchResult, RunnerApi, UpdateResult } from './api';
import { retrying } from './api';

/*
 * A job's trace on the runner's side, sent as gitlab-runner's `clientJobTrace` sends it: every
 * update interval (3 s, or what the server's `X-GitLab-Trace-Update-Interval` says) the bytes the
 * server has not acknowledged go as one PATCH; a 416 moves the offset to the end of the server's
 * `Range` (resending from there, or sending nothing when the server holds more). When the trace
 * has not grown the tick sends `PUT {state: running}` instead (gitlab-runner's "touch", which it
 * sends only every 30 s): so a silent job learns of a cancel within one interval. `Job-Status:
 * canceled`, a 403 or a 404 aborts the job. At the end the rest of the trace is flushed, then the
 * final state goes with the trace's checksum and size, again while the server answers 202.
 */

const DEFAULT_INTERVAL_MS = 3000;
// Past a minute a cancel would go unseen too long, whatever the server asks.
const MAX_INTERVAL_MS = 60_000;
// The runner's default output limit: past it, the trace says so and the rest is dropped.
const TRACE_LIMIT_BYTES = 4 * 1024 * 1024;
// Retried this often while the server cannot take the final update.
const FINAL_RETRY_MS = 3000;
// How many PATCHes the final flush tries before the state goes anyway.
const FLUSH_TRIES = 5;

export interface FinalState {
  state: 'success' | 'failed';
  failureReason?: string;
  exitCode?: number;
}

export class TraceUploader {
  private chunks: Buffer[] = [];
  private length = 0;
  private full = false;
  private sent = 0;
  private intervalMs = DEFAULT_INTERVAL_MS;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly api: RunnerApi,
    private readonly job: JobCredentials,
    /** Called once when the server says the job is no longer ours to run. */
    private readonly onAbort: (reason: string) => void,
  ) {}

  start(): void {
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.ticking = this.tick().finally(() => {
        this.ticking = undefined;
        this.schedule();
      });
    }, this.intervalMs);
  }

  write(data: Buffer | string): void {
    if (this.full) return;
    let bytes = typeof data === 'string' ? Buffer.from(data) : data;
    if (this.length + bytes.length > TRACE_LIMIT_BYTES) {
      bytes = Buffer.concat([
        bytes.subarray(0, TRACE_LIMIT_BYTES - this.length),
        Buffer.from(`\nJob's log exceeded limit of ${TRACE_LIMIT_BYTES} bytes.\n`),
      ]);
      this.full = true;
    }
    this.chunks.push(bytes);
    this.length += bytes.length;
  }

  line(text: string): void {
    this.write(`${text}\n`);
  }

  private bytes(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0] ?? Buffer.alloc(0);
  }

  text(): string {
    return this.bytes().toString('utf8');
  }

  private async tick(): Promise<void> {
    if (this.sent < this.length) {
      this.react(await this.patch());
      return;
    }
    this.react(await this.api.updateJob(this.job, { state: 'running', trace: this.bytes() }));
  }

  /** One PATCH of what the server lacks; after a 416, one more from the server's offset. */
  private async patch(): Promise<PatchResult> {
    let result = await this.api.patchTrace(this.job, this.bytes().subarray(this.sent), this.sent);
    if (result.state === 'range-mismatch') {
      this.sent = result.offset!;
      if (this.sent >= this.length) return result;
      result = await this.api.patchTrace(this.job, this.bytes().subarray(this.sent), this.sent);
    }
    if (result.state === 'sent' || result.state === 'range-mismatch') this.sent = result.offset!;
    return result;
  }

  private react(result: PatchResult | UpdateResult): void {
    if (result.updateIntervalMs !== undefined) this.intervalMs = Math.min(result.updateIntervalMs, MAX_INTERVAL_MS);
    if (result.cancelRequested) return this.onAbort('the job was canceled on the server');
    if (result.state === 'abort') this.onAbort('the server refused the job');
  }

  /** Stops ticking (waiting for a tick in flight). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
  }

  /**
   * Sends the rest of the trace, then the final `PUT {state, failure_reason, exit_code, output}`,
   * retried while the server cannot take it or answers 202 (not yet), or until `signal` aborts.
   * The status the update ended with.
   */
  async finish(final: FinalState, signal?: AbortSignal): Promise<UpdateResult['state']> {
    await this.stop();
    for (let tries = 0; this.sent < this.length && tries < FLUSH_TRIES && !signal?.aborted; tries++) {
      const result = await this.patch();
      if (result.state === 'abort') break;
    }
    const answer = await retrying(
      () => this.api.updateJob(this.job, { ...final, trace: this.bytes() }),
      (result) => result.state === 'succeeded' || result.state === 'abort',
      (result) => result.updateIntervalMs ?? FINAL_RETRY_MS,
      Infinity,
      signal,
    );
    return answer.state;
  }
}
