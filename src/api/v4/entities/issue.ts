import { Type, type Static } from '@sinclair/typebox';
import type { IssueDetails } from '../../../services/issues/types';
import { projectUrls } from '../../../lib/urls';
import { UserBasic, presentUserBasic } from '../../shared/entities/user';
import { Milestone, PROJECT_ENTITY_FIELDS, presentMilestone } from '../../shared/entities/milestone';
import { Nullable, NullableTimestamp } from '../../shared/schemas';
import type { Presenter } from '../../shared/types';
import { TimeStats, presentTimeStats } from './time-stats';

/**
 * GitLab v4's `Entities::IssueBasic` (lists): one assignee becomes `assignees` (with `assignee`
 * kept), and no `subscribed`. Forge keeps no closing time or locks: those read as nothing.
 */
export const IssueBasic = Type.Object({
  ...PROJECT_ENTITY_FIELDS,
  closed_at: NullableTimestamp,
  closed_by: Nullable(UserBasic),
  labels: Type.Array(Type.String()),
  milestone: Nullable(Milestone),
  assignees: Type.Array(UserBasic),
  author: Nullable(UserBasic),
  assignee: Nullable(UserBasic),
  user_notes_count: Type.Integer(),
  upvotes: Type.Integer(),
  downvotes: Type.Integer(),
  due_date: Nullable(Type.String()),
  confidential: Type.Boolean(),
  discussion_locked: Type.Null(),
  web_url: Type.String(),
  time_stats: TimeStats,
});

/** `Entities::Issue`: one issue, with the caller's subscription. */
export const Issue = Type.Object({ ...IssueBasic.properties, subscribed: Type.Boolean() });

export function presentIssueBasic(details: IssueDetails, presenter: Presenter): Static<typeof IssueBasic> {
  const { issue } = details;
  const assignee = details.assignee ? presentUserBasic(details.assignee, presenter) : null;
  return {
    id: issue.id,
    iid: issue.iid,
    project_id: issue.project_id,
    title: issue.title,
    description: issue.description,
    state: issue.state,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    closed_at: null,
    closed_by: details.closedBy ? presentUserBasic(details.closedBy, presenter) : null,
    labels: details.labels,
    milestone: details.milestone ? presentMilestone(details.milestone) : null,
    assignees: assignee ? [assignee] : [],
    author: details.author ? presentUserBasic(details.author, presenter) : null,
    assignee,
    user_notes_count: details.userNotesCount,
    upvotes: details.upvotes,
    downvotes: details.downvotes,
    due_date: issue.due_date,
    confidential: issue.confidential === 1,
    discussion_locked: null,
    web_url: `${projectUrls(presenter, details.project).web}/issues/${issue.iid}`,
    time_stats: presentTimeStats(issue.time_estimate, issue.total_time_spent),
  };
}

export function presentIssue(details: IssueDetails, presenter: Presenter): Static<typeof Issue> {
  // Object.assign: a spread followed by more properties is slow in Node 20.
  return Object.assign(presentIssueBasic(details, presenter), { subscribed: details.subscribed });
}
