import { Type, type Static } from '@sinclair/typebox';
import type { MergeRequestDetails } from '../../../services/merge-requests/types';
import { isWorkInProgress } from '../../../services/issuables/work-in-progress';
import { projectUrls } from '../../../lib/urls';
import { UserBasic, presentUserBasic } from '../../shared/entities/user';
import { Milestone, PROJECT_ENTITY_FIELDS, presentMilestone } from '../../shared/entities/milestone';
import { Nullable, NullableTimestamp } from '../../shared/schemas';
import type { Presenter } from '../../shared/types';
import { TimeStats, presentTimeStats } from './time-stats';

/**
 * GitLab v4's `Entities::MergeRequestBasic` (lists): `merge_when_pipeline_succeeds`, `assignees`
 * beside `assignee`, no `subscribed`. Forge keeps no merge or closing times, locks or squash: those read as nothing.
 */
export const MergeRequestBasic = Type.Object({
  ...PROJECT_ENTITY_FIELDS,
  merged_by: Nullable(UserBasic),
  merged_at: NullableTimestamp,
  closed_by: Nullable(UserBasic),
  closed_at: NullableTimestamp,
  target_branch: Type.String(),
  source_branch: Type.String(),
  upvotes: Type.Integer(),
  downvotes: Type.Integer(),
  author: Nullable(UserBasic),
  assignee: Nullable(UserBasic),
  assignees: Type.Array(UserBasic),
  source_project_id: Nullable(Type.Integer()),
  target_project_id: Type.Integer(),
  labels: Type.Array(Type.String()),
  work_in_progress: Type.Boolean(),
  milestone: Nullable(Milestone),
  merge_when_pipeline_succeeds: Type.Boolean(),
  merge_status: Type.String(),
  sha: Nullable(Type.String()),
  merge_commit_sha: Nullable(Type.String()),
  user_notes_count: Type.Integer(),
  discussion_locked: Type.Null(),
  should_remove_source_branch: Type.Boolean(),
  force_remove_source_branch: Type.Boolean(),
  web_url: Type.String(),
  time_stats: TimeStats,
  squash: Type.Boolean(),
});

/** `Entities::MergeRequest`: one merge request, with the caller's subscription. */
export const MergeRequest = Type.Object({ ...MergeRequestBasic.properties, subscribed: Type.Boolean() });

export function presentMergeRequestBasic(details: MergeRequestDetails, presenter: Presenter): Static<typeof MergeRequestBasic> {
  const { mergeRequest } = details;
  const assignee = details.assignee ? presentUserBasic(details.assignee, presenter) : null;
  return {
    id: mergeRequest.id,
    iid: mergeRequest.iid,
    project_id: mergeRequest.target_project_id,
    title: mergeRequest.title,
    description: mergeRequest.description,
    state: mergeRequest.state,
    created_at: mergeRequest.created_at,
    updated_at: mergeRequest.updated_at,
    merged_by: details.mergedBy ? presentUserBasic(details.mergedBy, presenter) : null,
    merged_at: null,
    closed_by: details.closedBy ? presentUserBasic(details.closedBy, presenter) : null,
    closed_at: null,
    target_branch: mergeRequest.target_branch,
    source_branch: mergeRequest.source_branch,
    upvotes: details.upvotes,
    downvotes: details.downvotes,
    author: details.author ? presentUserBasic(details.author, presenter) : null,
    assignee,
    assignees: assignee ? [assignee] : [],
    source_project_id: mergeRequest.source_project_id,
    target_project_id: mergeRequest.target_project_id,
    labels: details.labels,
    work_in_progress: isWorkInProgress(mergeRequest.title),
    milestone: details.milestone ? presentMilestone(details.milestone) : null,
    merge_when_pipeline_succeeds: mergeRequest.merge_when_build_succeeds === 1,
    merge_status: mergeRequest.merge_status,
    sha: details.sha,
    merge_commit_sha: mergeRequest.merge_commit_sha,
    user_notes_count: details.userNotesCount,
    discussion_locked: null,
    should_remove_source_branch: mergeRequest.should_remove_source_branch === 1,
    force_remove_source_branch: mergeRequest.force_remove_source_branch === 1,
    web_url: `${projectUrls(presenter, details.project).web}/merge_requests/${mergeRequest.iid}`,
    time_stats: presentTimeStats(mergeRequest.time_estimate, mergeRequest.total_time_spent),
    squash: false,
  };
}

export function presentMergeRequest(details: MergeRequestDetails, presenter: Presenter): Static<typeof MergeRequest> {
  // Object.assign: a spread followed by more properties is slow in Node 20.
  return Object.assign(presentMergeRequestBasic(details, presenter), { subscribed: details.subscribed });
}
