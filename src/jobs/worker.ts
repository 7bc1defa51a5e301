import { performance } from 'node:perf_hooks';
import type { Logger } from '../lib/logger';
import { runForRequest } from '../lib/request-context';
import type { JobHandlers } from './kinds';
import { REQUEST_ID_KEY, type JobQueue, type JobRow } from './queue';

/** How a job's run ended: done, to be tried again, or given up. */
export type JobOutcome = 'completed' | 'failed' | 'given_up';

/** Told of every run that ends (not of one a shutdown interrupts): for metrics. */
export type JobRunObserver = (kind: string, outcome: JobOutcome, seconds: number) => void;

/** How often idle workers look for jobs of other processes. */
const POLL_MS = 1000;
/** First look again after a wake-up that found nothing; doubled up to POLL_MS. */
const EAGER_MS = 10;

/**
 * Runs queued jobs in the background: a few at a time, woken at once by jobs
 * enqueued in this process, polling for jobs from others. A failed job is tried
 * again after a delay that doubles on each attempt.
 */
export class JobWorker {
  private running = 0;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly shutdown = new AbortController();
  /**
   * A job enqueued inside a transaction is invisible until the commit, which
   * the queue cannot see: after a wake-up, idle workers look again soon, at
   * growing intervals, instead of waiting for the next poll.
   */
  private eagerMs = POLL_MS;
  /** A look for the next due time is under way. */
  private peeking = false;

  constructor(
    private readonly queue: JobQueue,
    private readonly handlers: JobHandlers,
    private readonly log: Logger,
    private readonly options: { retryBaseMs: number; concurrency?: number; onRun?: JobRunObserver },
  ) {}

  start(): void {
    this.unsubscribe = this.queue.onEnqueue(() => {
      this.eagerMs = EAGER_MS;
      this.pump();
    });
    this.pump();
  }

  /** Stops taking jobs, interrupts those under way and waits for them to be handed back. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearTimeout(this.timer);
    this.shutdown.abort();
    await Promise.allSettled([...this.inFlight]);
  }

  /** Starts drainers up to the concurrency; each takes jobs until none is due. */
  private pump(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    while (this.running < (this.options.concurrency ?? 4)) {
      this.running++;
      this.track(this.drain());
    }
  }

  private async drain(): Promise<void> {
    try {
      while (await this.runOne());
    } catch (error) {
      this.log.error({ err: error }, 'job worker failed to claim a job');
    } finally {
      this.running--;
      // Also while other drainers are busy (a slow hook): a retry falling due must not wait for them.
      this.wakeLater();
    }
  }

  /** Sleeps until the next retry falls due, or one poll interval for jobs of other processes. */
  private wakeLater(): void {
    if (this.stopped) return;
    if (this.eagerMs < POLL_MS) return this.arm(this.eagerMs);
    this.arm(POLL_MS);
    if (this.peeking) return;
    this.peeking = true;
    this.track(
      this.queue
        .nextRunAt()
        .then((runAt) => {
          if (runAt && !this.stopped && this.eagerMs >= POLL_MS) this.arm(Math.max(0, Math.min(POLL_MS, Date.parse(runAt) - Date.now())));
        })
        .catch(() => undefined)
        .finally(() => (this.peeking = false)),
    );
  }

  private arm(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.eagerMs = Math.min(POLL_MS, this.eagerMs * 2);
      this.pump();
    }, ms);
    this.timer.unref?.();
  }

  /** Remembers work under way, so that `stop` waits for it before the database closes. */
  private track(task: Promise<void>): void {
    const tracked = task.finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }

  private async runOne(): Promise<boolean> {
    if (this.stopped) return false;
    const job = await this.queue.claim();
    if (!job) return false;
    await this.execute(job);
    return true;
  }

  private async execute(job: JobRow): Promise<void> {
    // A row of a kind this version does not know (written by a newer process) fails like any error.
    const handler = Object.hasOwn(this.handlers, job.kind)
      ? (this.handlers[job.kind as keyof JobHandlers] as (payload: unknown, signal: AbortSignal) => Promise<void>)
      : undefined;
    const started = performance.now();
    let requestId: string | undefined;
    const fields = () => ({
      job: job.id,
      kind: job.kind,
      attempt: job.attempts,
      reqId: requestId,
      durationMs: performance.now() - started,
    });
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      const { payload, requestId: causedBy } = parsePayload(job.payload);
      requestId = causedBy;
      // Jobs this one enqueues carry the same request id.
      await runForRequest(requestId, () => handler(payload, this.shutdown.signal));
      await this.queue.complete(job);
      this.log.info(fields(), 'job completed');
      this.options.onRun?.(job.kind, 'completed', (performance.now() - started) / 1000);
    } catch (error) {
      if (this.shutdown.signal.aborted) {
        await this.queue.release(job);
        return;
      }
      const delay = this.options.retryBaseMs * 2 ** (job.attempts - 1);
      const last = job.attempts >= job.max_attempts;
      this.log.warn({ ...fields(), err: error }, last ? 'job failed; giving up' : 'job failed; will retry');
      await this.queue.fail(job, String((error as Error)?.message ?? error), delay);
      this.options.onRun?.(job.kind, last ? 'given_up' : 'failed', (performance.now() - started) / 1000);
    }
  }
}

/** The handler's payload, and the id of the request that caused the job when it was stored with one. */
function parsePayload(text: string): { payload: unknown; requestId: string | undefined } {
  const payload = JSON.parse(text);
  if (payload === null || typeof payload !== 'object' || !(REQUEST_ID_KEY in payload)) return { payload, requestId: undefined };
  const { [REQUEST_ID_KEY]: requestId, ...rest } = payload;
  return { payload: rest, requestId: typeof requestId === 'string' ? requestId : undefined };
}
