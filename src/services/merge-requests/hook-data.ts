import type { UrlBase } from '../../lib/urls';
import type { Commit } from '../../git/objects';
import type { Project } from '../projects/types';
import type { User } from '../users/users';
import { commitHookAttributes, hookTime, projectHookAttributes, userHookAttributes } from '../hooks/hook-attributes';
import { isWorkInProgress } from '../issuables/work-in-progress';
import type { MergeRequestRow } from './types';

/** The `object_attributes.action` of a Merge Request Hook. */
export type MergeRequestHookAction = 'open' | 'close' | 'reopen' | 'update' | 'merge';

/** What a Merge Request Hook shows besides the merge request and its target project. */
export interface MergeRequestHookParts {
  /** The source project; undefined once the fork it came from is gone (8.12's `source_project.try(:hook_attrs)`). */
  source: Project | undefined;
  /** The latest version's head commit, read from the target repository; undefined without one. */
  lastCommit: Commit | undefined;
  assignee: User | undefined;
}

/**
 * GitLab 8.12's Merge Request Hook payload (`Issuable#to_hook_data` with `MergeRequest#hook_attrs`
 * and `MergeRequests::BaseService#hook_data`): the merge request's columns (times as Sidekiq wrote
 * them), then `source`, `target`, `last_commit`, `work_in_progress`, its URL and the action;
 * `assignee` only when it has one. Columns Forge does not keep are shown with the values 8.12 had.
 */
export function buildMergeRequestHookData(
  mergeRequest: MergeRequestRow,
  actor: User,
  target: Project,
  parts: MergeRequestHookParts,
  urls: UrlBase,
  action: MergeRequestHookAction,
) {
  const hookTarget = projectHookAttributes(target, urls);
  const data = {
    object_kind: 'merge_request',
    user: userHookAttributes(actor),
    project: hookTarget,
    object_attributes: {
      id: mergeRequest.id,
      target_branch: mergeRequest.target_branch,
      source_branch: mergeRequest.source_branch,
      source_project_id: mergeRequest.source_project_id,
      author_id: mergeRequest.author_id,
      assignee_id: mergeRequest.assignee_id,
      title: mergeRequest.title,
      created_at: hookTime(mergeRequest.created_at),
      updated_at: hookTime(mergeRequest.updated_at),
      milestone_id: mergeRequest.milestone_id,
      state: mergeRequest.state,
      merge_status: mergeRequest.merge_status,
      target_project_id: mergeRequest.target_project_id,
      iid: mergeRequest.iid,
      description: mergeRequest.description,
      position: 0,
      locked_at: mergeRequest.locked_at === null ? null : hookTime(mergeRequest.locked_at),
      updated_by_id: null,
      merge_error: mergeRequest.merge_error,
      merge_params: { force_remove_source_branch: mergeRequest.force_remove_source_branch === 1 ? '1' : null },
      merge_when_build_succeeds: mergeRequest.merge_when_build_succeeds === 1,
      merge_user_id: mergeRequest.merge_user_id,
      merge_commit_sha: mergeRequest.merge_commit_sha,
      deleted_at: null,
      source: parts.source ? projectHookAttributes(parts.source, urls) : null,
      target: hookTarget,
      last_commit: parts.lastCommit ? commitHookAttributes(parts.lastCommit, hookTarget.web_url) : null,
      work_in_progress: isWorkInProgress(mergeRequest.title),
      url: `${hookTarget.web_url}/merge_requests/${mergeRequest.iid}`,
      action,
    },
    repository: { name: hookTarget.name, url: hookTarget.url, description: hookTarget.description, homepage: hookTarget.homepage },
  };
  return parts.assignee ? { ...data, assignee: userHookAttributes(parts.assignee) } : data;
}
