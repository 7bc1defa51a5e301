import type { JobHandlers } from '../../jobs/kinds';
import type { ServiceContext } from '../context';
import { deliverHook } from './delivery';

/** The background work of hooks: delivering queued events. */
export function hookJobs(ctx: ServiceContext): Pick<JobHandlers, 'hook.deliver'> {
  return {
    'hook.deliver': (delivery, signal) => deliverHook(ctx, delivery, signal),
  };
}
