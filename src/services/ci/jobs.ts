import type { JobHandlers } from '../../jobs/kinds';
import type { ServiceContext } from '../context';
import { runCiHook } from './hooks/job';

/** The background work of CI: build and pipeline hook payloads. */
export function ciJobs(ctx: ServiceContext): Pick<JobHandlers, 'ci.hook'> {
  return {
    'ci.hook': (job) => runCiHook(ctx, job),
  };
}
