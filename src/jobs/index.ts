import type { Services } from '../services/index';
import { JobWorker, type JobHandler } from './worker';
import { deliverHook } from './hook-delivery';
import { importProjectRepository, removeProjectRepository } from './repository-jobs';
import { processPush } from '../services/repository/push-processing';
import { runPeriodically } from './periodic';

const HOUR_MS = 60 * 60 * 1000;
/** How long a job that used up its attempts stays in the table for inspection. */
const GIVEN_UP_KEPT_MS = 7 * 24 * HOUR_MS;

export interface BackgroundWork {
  stop(): Promise<void>;
}

/** Starts the background workers over the app's services, and the hourly sweeps (expired memberships, given-up jobs). */
export function startBackgroundWork(services: Services): BackgroundWork {
  const { ctx } = services;
  const handlers: Record<string, JobHandler> = {
    'hook.deliver': (payload, signal) => deliverHook(ctx, payload, signal),
    'repository.import': (payload) => importProjectRepository(services, payload),
    'repository.remove': (payload) => removeProjectRepository(services, payload),
    'push.process': (payload) => processPush(services, payload),
  };
  const worker = new JobWorker(ctx.jobs, handlers, ctx.log, { retryBaseMs: ctx.config.jobRetryBaseMs });
  worker.start();
  const periodic = [
    runPeriodically('members.remove_expired', HOUR_MS, () => services.members.removeExpired(), ctx.log),
    runPeriodically('jobs.purge_given_up', HOUR_MS, () => ctx.jobs.purgeGivenUp(GIVEN_UP_KEPT_MS), ctx.log),
  ];
  return {
    async stop() {
      await Promise.all([worker.stop(), ...periodic.map((task) => task.stop())]);
    },
  };
}
