import { Type, type Static } from '@sinclair/typebox';
import type { IssueDetails, IssueRow } from '../../../services/issues/types';
import { projectUrls } from '../../../lib/urls';
import { UserBasic, presentUserBasic } from '../../shared/entities/user';
import { Milestone, PROJECT_ENTITY_FIELDS, presentMilestone } from '../../shared/entities/milestone';
import { Nullable, Timestamp, type Presenter } from './common';

const DateString = Nullable(Type.String());

export const Issue = Type.Object({
  ...PROJECT_ENTITY_FIELDS,
  labels: Type.Array(Type.String()),
  milestone: Nullable(Milestone),
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
    web_url: `${projectUrls(presenter, details.project).web}/issues/${issue.iid}`,
  };
}

export function presentIssueRecord(issue: IssueRow): Static<typeof IssueRecord> {
  return { ...issue, confidential: issue.confidential === 1 };
}
