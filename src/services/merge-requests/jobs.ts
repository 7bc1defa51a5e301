import type { JobHandlers } from '../../jobs/kinds';
import { checkMergeStatus } from './checks';
import { handlePipelineStatus, type PipelineEventDeps } from './pipeline-events';
import type { VersionContentCache } from './version-contents';
import { refreshMergeRequests } from './refresh';

/** The background work of merge requests: mergeability checks, what pushes and pipelines do to them. */
export function mergeRequestJobs(
  deps: PipelineEventDeps & { contents: VersionContentCache },
): Pick<JobHandlers, 'merge_requests.check' | 'merge_requests.refresh' | 'merge_requests.pipeline' | 'merge_requests.close_issues'> {
  return {
    'merge_requests.check': (job) => checkMergeStatus(deps.ctx, deps.contents, job.mergeRequestIds),
    'merge_requests.refresh': (job) => refreshMergeRequests(deps, job),
    'merge_requests.pipeline': (job) => handlePipelineStatus(deps, job),
    'merge_requests.close_issues': (job) => deps.merging.closeIssues(job.mergeRequestId, job.userId),
  };
}
