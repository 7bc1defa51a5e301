import type { Db } from '../../db/index';
import type { IssueRow } from '../issuables/types';
import type { MilestoneRow } from '../milestones/milestones';
import type { Project } from '../projects/types';
import type { User } from '../users/users';
import type { Caller } from '../policy';

export type { IssueRow };
export type { MilestoneRow };

/** An issue and everything its answer shows, loaded for a whole page at once (`details.ts`). */
export interface IssueDetails {
  issue: IssueRow;
  project: Project;
  /** Label titles, sorted. */
  labels: string[];
  milestone: MilestoneRow | undefined;
  author: User | undefined;
  assignee: User | undefined;
  /** Who closed it; undefined for issues closed before this was kept, and open ones. */
  closedBy: User | undefined;
  /** The caller's own subscription; false without one. */
  subscribed: boolean;
  userNotesCount: number;
  upvotes: number;
  downvotes: number;
}

/** What the issue lists filter and order by (GitLab 8.12's `IssuesFinder` and the API's helpers). */
export interface IssueFilters {
  /** `opened` (opened and reopened), `closed`, or every state. */
  state?: 'opened' | 'closed' | 'all';
  /** Issues carrying at least one of these labels. */
  anyLabels?: string[];
  /** Issues carrying every one of these labels. */
  allLabels?: string[];
  /** A milestone's title; `No Milestone` for issues without one. */
  milestone?: string;
  iid?: number;
  /** Issues numbered by any of these iids. */
  iids?: number[];
  search?: string;
  authorId?: number;
  assigneeId?: number;
  orderBy: 'id' | 'created_at' | 'updated_at';
  sort: 'asc' | 'desc';
}

/** What a caller may set on an issue; undefined leaves a field as it is. */
export interface IssueAttributes {
  title?: string;
  description?: string;
  /** null unassigns. */
  assigneeId?: number | null;
  /** null removes the milestone. */
  milestoneId?: number | null;
  /** Label titles, already split and validated (`label-names.ts`); [] removes every label. */
  labels?: string[];
  /** null removes the due date. */
  dueDate?: string | null;
  confidential?: boolean;
  stateEvent?: 'close' | 'reopen';
  /** Honoured for administrators and owners only. */
  createdAt?: string;
  updatedAt?: string;
}

/** A change to an issue, as the todos it makes see it. */
export interface IssueChange {
  issue: IssueRow;
  project: Project;
  /** Who made the change: the author of its todos. */
  actor: Caller;
}

/**
 * What an issue's changes do to todos, run inside the change's transaction. Todos hang off issues:
 * the composition root hands the todos' functions in, so issues never import todos.
 */
export interface IssueTodos {
  created(trx: Db, change: IssueChange): Promise<void>;
  updated(trx: Db, change: IssueChange, before: IssueRow): Promise<void>;
}
