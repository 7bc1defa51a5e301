import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue, JobRow } from './queue';

export type JobHandler = (payload: any) => Promise<void>;

const POLL_MS = 1000;

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

  constructor(
    private readonly queue: JobQueue,
    private readonly handlers: Record<string, JobHandler>,
    private readonly log: FastifyBaseLogger,
    private readonly options: { retryBaseMs: number; concurrency?: number },
  ) {}

  start(): void {
    this.unsubscribe = this.queue.onEnqueue(() => this.pump());
    this.pump();
  }

  /** Stops taking jobs and waits for those under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearTimeout(this.timer);
    await Promise.allSettled([...this.inFlight]);
  }

  /** Starts drainers up to the concurrency; each takes jobs until none is due. */
  private pump(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    while (this.running < (this.options.concurrency ?? 4)) {
      this.running++;
      const task = this.drain().finally(() => this.inFlight.delete(task));
      this.inFlight.add(task);
    }
  }

  private async drain(): Promise<void> {
    try {
      while (await this.runOne());
    } catch (error) {
      this.log.error({ err: error }, 'job worker failed to claim a job');
    } finally {
      this.running--;
      if (this.running === 0) this.wakeLater();
    }
  }

  /** Sleeps until the next retry falls due, or one poll interval for jobs of other processes. */
  private wakeLater(): void {
    if (this.stopped) return;
    const arm = (ms: number) => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.pump(), ms);
      this.timer.unref?.();
    };
    arm(POLL_MS);
    this.queue
      .nextRunAt()
      .then((runAt) => {
        if (runAt && !this.stopped && this.running === 0) arm(Math.max(0, Math.min(POLL_MS, Date.parse(runAt) - Date.now())));
      })
      .catch(() => undefined);
  }

  private async runOne(): Promise<boolean> {
    if (this.stopped) return false;
    const job = await this.queue.claim();
    if (!job) return false;
    await this.execute(job);
    return true;
  }

  private async execute(job: JobRow): Promise<void> {
    const handler = this.handlers[job.kind];
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await handler(JSON.parse(job.payload));
      await this.queue.complete(job);
    } catch (error) {
      const delay = this.options.retryBaseMs * 2 ** (job.attempts - 1);
      this.log.warn({ job: job.id, kind: job.kind, attempt: job.attempts, err: error }, 'job failed; will retry');
      await this.queue.fail(job, String((error as Error)?.message ?? error), delay);
    }
  }
}
