import { Type, type Static } from '@sinclair/typebox';
import type { MergeRequestDetails } from '../../../services/merge-requests/types';
import { isWorkInProgress } from '../../../services/merge-requests/work-in-progress';
import { projectUrls } from '../../../lib/urls';
import { UserBasic, presentUserBasic } from './user';
import { Milestone, PROJECT_ENTITY_FIELDS, presentMilestone } from './milestone';
import { Nullable, type Presenter } from './common';

/** GitLab 8.12's `Entities::MergeRequest`, in its order; `project_id` is the target project. */
export const MergeRequest = Type.Object({
  ...PROJECT_ENTITY_FIELDS,
  target_branch: Type.String(),
  source_branch: Type.String(),
  upvotes: Type.Integer(),
  downvotes: Type.Integer(),
  author: Nullable(UserBasic),
  assignee: Nullable(UserBasic),
  source_project_id: Nullable(Type.Integer()),
  target_project_id: Type.Integer(),
  labels: Type.Array(Type.String()),
  work_in_progress: Type.Boolean(),
  milestone: Nullable(Milestone),
  merge_when_build_succeeds: Type.Boolean(),
  merge_status: Type.String(),
  sha: Nullable(Type.String()),
  merge_commit_sha: Nullable(Type.String()),
  subscribed: Type.Boolean(),
  user_notes_count: Type.Integer(),
  should_remove_source_branch: Type.Boolean(),
  force_remove_source_branch: Type.Boolean(),
  web_url: Type.String(),
});

export const mergeRequestUrl = (presenter: Presenter, details: Pick<MergeRequestDetails, 'project' | 'mergeRequest'>): string =>
  `${projectUrls(presenter, details.project).web}/merge_requests/${details.mergeRequest.iid}`;

export function presentMergeRequest(details: MergeRequestDetails, presenter: Presenter): Static<typeof MergeRequest> {
  const { mergeRequest } = details;
  return {
    id: mergeRequest.id,
    iid: mergeRequest.iid,
    project_id: mergeRequest.target_project_id,
    title: mergeRequest.title,
    description: mergeRequest.description,
    state: mergeRequest.state,
    created_at: mergeRequest.created_at,
    updated_at: mergeRequest.updated_at,
    target_branch: mergeRequest.target_branch,
    source_branch: mergeRequest.source_branch,
    upvotes: details.upvotes,
    downvotes: details.downvotes,
    author: details.author ? presentUserBasic(details.author, presenter) : null,
    assignee: details.assignee ? presentUserBasic(details.assignee, presenter) : null,
    source_project_id: mergeRequest.source_project_id,
    target_project_id: mergeRequest.target_project_id,
    labels: details.labels,
    work_in_progress: isWorkInProgress(mergeRequest.title),
    milestone: details.milestone ? presentMilestone(details.milestone) : null,
    merge_when_build_succeeds: mergeRequest.merge_when_build_succeeds === 1,
    merge_status: mergeRequest.merge_status,
    sha: details.sha,
    merge_commit_sha: mergeRequest.merge_commit_sha,
    subscribed: details.subscribed,
    user_notes_count: details.userNotesCount,
    should_remove_source_branch: mergeRequest.should_remove_source_branch === 1,
    force_remove_source_branch: mergeRequest.force_remove_source_branch === 1,
    web_url: mergeRequestUrl(presenter, details),
  };
}
