import { Type, type Static } from '@sinclair/typebox';
import type { IssueDetails, IssueRow, MilestoneRow } from '../../../services/issues/types';
import { projectUrls } from '../../../lib/urls';
import { UserBasic, presentUserBasic } from './user';
import { Nullable, Timestamp, type Presenter } from './common';

const DateString = Nullable(Type.String());

/** GitLab 8.12's Milestone entity, as an issue embeds it. */
export const IssueMilestone = Type.Object({
  id: Type.Integer(),
  iid: Type.Integer(),
  project_id: Type.Integer(),
  title: Type.String(),
  description: Nullable(Type.String()),
  state: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
  due_date: DateString,
});

export const Issue = Type.Object({
  id: Type.Integer(),
  iid: Type.Integer(),
  project_id: Type.Integer(),
  title: Type.String(),
  description: Nullable(Type.String()),
  state: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
  labels: Type.Array(Type.String()),
  milestone: Nullable(IssueMilestone),
  assignee: Nullable(UserBasic),
  author: Nullable(UserBasic),
  subscribed: Type.Boolean(),
  user_notes_count: Type.Integer(),
  upvotes: Type.Integer(),
  downvotes: Type.Integer(),
  due_date: DateString,
  confidential: Type.Boolean(),
  web_url: Type.String(),
});

/** The raw record GitLab 8.12 answered a deletion with. */
export const IssueRecord = Type.Object({
  id: Type.Integer(),
  iid: Type.Integer(),
  project_id: Type.Integer(),
  author_id: Nullable(Type.Integer()),
  assignee_id: Nullable(Type.Integer()),
  milestone_id: Nullable(Type.Integer()),
  title: Type.String(),
  description: Nullable(Type.String()),
  state: Type.String(),
  confidential: Type.Boolean(),
  due_date: DateString,
  moved_to_id: Nullable(Type.Integer()),
  created_at: Timestamp,
  updated_at: Timestamp,
});

function presentMilestone(milestone: MilestoneRow): Static<typeof IssueMilestone> {
  return {
    id: milestone.id,
    iid: milestone.iid,
    project_id: milestone.project_id,
    title: milestone.title,
    description: milestone.description,
    state: milestone.state,
    created_at: milestone.created_at,
    updated_at: milestone.updated_at,
    due_date: milestone.due_date,
  };
}

export function presentIssue(details: IssueDetails, presenter: Presenter): Static<typeof Issue> {
  const { issue } = details;
  return {
    id: issue.id,
    iid: issue.iid,
    project_id: issue.project_id,
    title: issue.title,
    description: issue.description,
    state: issue.state,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    labels: details.labels,
    milestone: details.milestone ? presentMilestone(details.milestone) : null,
    assignee: details.assignee ? presentUserBasic(details.assignee, presenter) : null,
    author: details.author ? presentUserBasic(details.author, presenter) : null,
    subscribed: details.subscribed,
    user_notes_count: details.userNotesCount,
    upvotes: details.upvotes,
    downvotes: details.downvotes,
    due_date: issue.due_date,
    confidential: issue.confidential === 1,
    web_url: `${projectUrls(presenter.externalUrl, details.project).web}/issues/${issue.iid}`,
  };
}

export function presentIssueRecord(issue: IssueRow): Static<typeof IssueRecord> {
  return { ...issue, confidential: issue.confidential === 1 };
}
