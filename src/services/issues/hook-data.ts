import type { Project } from '../projects/types';
import type { User } from '../users/users';
import { hookTime, projectHookAttributes, userHookAttributes } from '../hooks/hook-attributes';
import type { IssueRow } from './types';
import type { UrlBase } from '../../lib/urls';

/** The `object_attributes.action` of an Issue Hook. */
export type IssueHookAction = 'open' | 'close' | 'reopen' | 'update';

/**
 * GitLab 8.12's Issue Hook payload (`Issuable#to_hook_data` with `Issues::BaseService#hook_data`):
 * the issue's columns (times as Sidekiq wrote them), its URL and the action; `assignee` only when
 * the issue has one. Columns Forge does not keep are shown with the values 8.12 had for them.
 */
export function buildIssueHookData(
  issue: IssueRow,
  actor: User,
  assignee: User | undefined,
  project: Project,
  urls: UrlBase,
  action: IssueHookAction,
) {
  const hookProject = projectHookAttributes(project, urls);
  const data = {
    object_kind: 'issue',
    user: userHookAttributes(actor),
    project: hookProject,
    object_attributes: {
      id: issue.id,
      title: issue.title,
      assignee_id: issue.assignee_id,
      author_id: issue.author_id,
      project_id: issue.project_id,
      created_at: hookTime(issue.created_at),
      updated_at: hookTime(issue.updated_at),
      position: 0,
      branch_name: null,
      description: issue.description,
      milestone_id: issue.milestone_id,
      state: issue.state,
      iid: issue.iid,
      updated_by_id: null,
      confidential: issue.confidential === 1,
      deleted_at: null,
      due_date: issue.due_date,
      moved_to_id: issue.moved_to_id,
      url: `${hookProject.web_url}/issues/${issue.iid}`,
      action,
    },
    repository: { name: hookProject.name, url: hookProject.url, description: hookProject.description, homepage: hookProject.homepage },
  };
  return assignee ? { ...data, assignee: userHookAttributes(assignee) } : data;
}
