import { Type, type Static } from '@sinclair/typebox';
import type { MergeRequestDetails, MergeRequestRow } from '../../../services/merge-requests/types';
import type { NoteRow } from '../../../services/notes/types';
import type { User } from '../../../services/users/users';
import { isWorkInProgress } from '../../../services/issuables/work-in-progress';
import { projectUrls } from '../../../lib/urls';
import { UserBasic, presentUserBasic } from '../../shared/entities/user';
import { Milestone, PROJECT_ENTITY_FIELDS, presentMilestone } from '../../shared/entities/milestone';
import { Nullable, Timestamp, type Presenter } from './common';

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

/**
 * The raw record GitLab 8.12 answered a deletion with: the merge request's columns as 8.12 named
 * them (Forge's own `locked_from` and `merge_commit_message` left out), times as the API writes them.
 */
export const MergeRequestRecord = Type.Object({
  id: Type.Integer(),
  target_branch: Type.String(),
  source_branch: Type.String(),
  source_project_id: Nullable(Type.Integer()),
  author_id: Nullable(Type.Integer()),
  assignee_id: Nullable(Type.Integer()),
  title: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
  milestone_id: Nullable(Type.Integer()),
  state: Type.String(),
  merge_status: Type.String(),
  target_project_id: Type.Integer(),
  iid: Type.Integer(),
  description: Nullable(Type.String()),
  locked_at: Nullable(Timestamp),
  merge_error: Nullable(Type.String()),
  merge_when_build_succeeds: Type.Boolean(),
  merge_user_id: Nullable(Type.Integer()),
  merge_commit_sha: Nullable(Type.String()),
});

export function presentMergeRequestRecord(row: MergeRequestRow): Static<typeof MergeRequestRecord> {
  return {
    id: row.id,
    target_branch: row.target_branch,
    source_branch: row.source_branch,
    source_project_id: row.source_project_id,
    author_id: row.author_id,
    assignee_id: row.assignee_id,
    title: row.title,
    created_at: row.created_at,
    updated_at: row.updated_at,
    milestone_id: row.milestone_id,
    state: row.state,
    merge_status: row.merge_status,
    target_project_id: row.target_project_id,
    iid: row.iid,
    description: row.description,
    locked_at: row.locked_at,
    merge_error: row.merge_error,
    merge_when_build_succeeds: row.merge_when_build_succeeds === 1,
    merge_user_id: row.merge_user_id,
    merge_commit_sha: row.merge_commit_sha,
  };
}

/** GitLab 8.12's `Entities::MRNote`: a comment of the legacy `…/comments` routes. */
export const MRNote = Type.Object({
  note: Type.String(),
  author: Nullable(UserBasic),
});

export function presentMRNote(note: NoteRow, author: User | undefined, presenter: Presenter): Static<typeof MRNote> {
  return { note: note.note, author: author ? presentUserBasic(author, presenter) : null };
}
