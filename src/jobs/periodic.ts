import type { Logger } from '../lib/logger';

export interface PeriodicTask {
  /** Stops the schedule and waits for a run under way. */
  stop(): Promise<void>;
}

/** Runs `task` now and then every `intervalMs`; a failed run is logged and the next one still comes. */
export function runPeriodically(name: string, intervalMs: number, task: () => Promise<unknown>, log: Logger): PeriodicTask {
  let current: Promise<void> = Promise.resolve();
  const run = () => {
    current = current.then(task).then(
      () => undefined,
      (error) => log.error({ err: error, task: name }, 'periodic task failed'),
    );
  };
  const timer = setInterval(run, intervalMs);
  // Background work alone never keeps the process alive.
  timer.unref();
  run();
  return {
    async stop() {
      clearInterval(timer);
      await current;
    },
  };
}
