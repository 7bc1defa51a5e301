import type { Services } from '../services/index';
import { JobWorker, type JobHandler } from './worker';
import { deliverHook } from './hook-delivery';
import { importProjectRepository, removeProjectRepository } from './repository-jobs';
import { processPush } from '../services/repository/push-processing';

/** Starts the background workers over the app's services. */
export function startBackgroundWork(services: Services): JobWorker {
  const { ctx } = services;
  const handlers: Record<string, JobHandler> = {
    'hook.deliver': (payload, signal) => deliverHook(ctx, payload, signal),
    'repository.import': (payload) => importProjectRepository(services, payload),
    'repository.remove': (payload) => removeProjectRepository(services, payload),
    'push.process': (payload) => processPush(services, payload),
  };
  const worker = new JobWorker(ctx.jobs, handlers, ctx.log, { retryBaseMs: ctx.config.jobRetryBaseMs });
  worker.start();
  return worker;
}
