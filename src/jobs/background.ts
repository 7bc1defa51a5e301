import type { Logger } from '../lib/logger';
import type { JobHandlers } from './kinds';
import type { JobQueue } from './queue';
import { JobWorker, type JobRunObserver } from './worker';
import { runPeriodically } from './periodic';

/** A task run now and then every `intervalMs` (expired memberships, old failed jobs). */
export interface Sweep {
  name: string;
  intervalMs: number;
  run: () => Promise<unknown>;
}

export interface BackgroundWork {
  /** Stops taking jobs, interrupts those under way and waits for them and for sweeps under way. */
  stop(): Promise<void>;
}

/** Starts the queue's worker with a handler for every job kind, and the sweeps. */
export function startBackgroundWork(options: {
  queue: JobQueue;
  handlers: JobHandlers;
  sweeps: Sweep[];
  log: Logger;
  retryBaseMs: number;
  /** Told how each job's run ended, and how long it took (metrics). */
  onJobRun?: JobRunObserver;
}): BackgroundWork {
  const worker = new JobWorker(options.queue, options.handlers, options.log, { retryBaseMs: options.retryBaseMs, onRun: options.onJobRun });
  worker.start();
  const periodic = options.sweeps.map((sweep) => runPeriodically(sweep.name, sweep.intervalMs, sweep.run, options.log));
  return {
    async stop() {
      await Promise.all([worker.stop(), ...periodic.map((task) => task.stop())]);
    },
  };
}
