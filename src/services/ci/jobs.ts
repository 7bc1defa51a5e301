import type { JobHandlers } from '../../jobs/kinds';
import type { ServiceContext } from '../context';

/** The background work of CI: build and pipeline hook payloads. */
export function ciJobs(ctx: ServiceContext): Pick<JobHandlers, 'ci.hook'> {
  return {
    // TODO(hooks): build GitLab 8.12's Build Hook / Pipeline Hook payloads and queue deliveries.
    'ci.hook': async () => void ctx,
  };
}
