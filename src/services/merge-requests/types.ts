import type { Selectable } from 'kysely';
import type { MergeRequestDiffsTable } from '../../db/schema';
import type { Db } from '../../db/index';
import type { MergeRequestRow } from '../issuables/types';
import type { MilestoneRow } from '../milestones/milestones';
import type { Project } from '../projects/types';
import type { User } from '../users/users';
import type { Caller } from '../policy';

export type { MergeRequestRow };
export type MergeRequestVersionRow = Selectable<MergeRequestDiffsTable>;

/** The states in which a merge request is open for review and merging. */
export const OPEN_STATES = ['opened', 'reopened'] as const;

/** A merge request and everything its answer shows, loaded for a whole page at once (`details.ts`). */
export interface MergeRequestDetails {
  mergeRequest: MergeRequestRow;
  /** The target project, which owns the merge request. */
  project: Project;
  /** Label titles, sorted. */
  labels: string[];
  milestone: MilestoneRow | undefined;
  author: User | undefined;
  assignee: User | undefined;
  /** Who closed it and who merged it; undefined for rows from before these were kept. */
  closedBy: User | undefined;
  mergedBy: User | undefined;
  /** The caller's own subscription, or being a participant; false without either. */
  subscribed: boolean;
  userNotesCount: number;
  upvotes: number;
  downvotes: number;
  /** The source branch's head as the latest version recorded it (GitLab's `diff_head_sha`); null without one. */
  sha: string | null;
}

/** What the merge request list filters and orders by (GitLab 8.12's `merge_requests.rb`). */
export interface MergeRequestFilters {
  /** `opened` (opened and reopened), `closed`, `merged`, or every state. */
  state?: 'opened' | 'closed' | 'merged' | 'all';
  iids?: number[];
  /** A milestone's title; `No Milestone` for merge requests without one. */
  milestone?: string;
  /** Merge requests carrying every one of these labels. */
  allLabels?: string[];
  authorId?: number;
  assigneeId?: number;
  sourceBranch?: string;
  targetBranch?: string;
  /** Text in the title or description, ignoring case (the web list's search box). */
  search?: string;
  orderBy: 'created_at' | 'updated_at';
  sort: 'asc' | 'desc';
}

/** What a caller may set on a merge request; undefined leaves a field as it is. */
export interface MergeRequestAttributes {
  title?: string;
  description?: string;
  /** Creation only: the branch of the source project. */
  sourceBranch?: string;
  targetBranch?: string;
  /** Creation only: the project to merge into (the source project itself, or the one it was forked from). */
  targetProjectId?: number;
  /** null unassigns. */
  assigneeId?: number | null;
  /** null removes the milestone. */
  milestoneId?: number | null;
  /** Label titles, already split and validated; [] removes every label. */
  labels?: string[];
  stateEvent?: 'close' | 'reopen';
}

/** The commits a version spans, as git told them when it was recorded. */
export interface VersionShas {
  /** The merge base of source head and target head. */
  base: string;
  /** The source branch's head. */
  head: string;
  /** The target branch's head. */
  start: string;
}

/** What a merge request is about to become, for the checks before it is saved. */
export interface MergeRequestEnds {
  target: Project;
  source: Project;
  sourceBranch: string;
  targetBranch: string;
}

/** A change to a merge request, as the todos it makes see it. */
export interface MergeRequestChange {
  mergeRequest: MergeRequestRow;
  /** Its target project. */
  project: Project;
  /** Who made the change: the author of its todos. */
  actor: Caller;
}

/**
 * What a merge request's changes and its pipelines do to todos, run inside the change's
 * transaction. Todos hang off merge requests: the composition root hands the todos' functions in,
 * so merge requests never import todos.
 */
export interface MergeRequestTodos {
  created(trx: Db, change: MergeRequestChange): Promise<void>;
  updated(trx: Db, change: MergeRequestChange, before: MergeRequestRow): Promise<void>;
  /** Closed or merged: its pending todos are done. */
  finished(trx: Db, mergeRequest: MergeRequestRow): Promise<void>;
  /** Their head pipeline failed. */
  buildFailed(trx: Db, mergeRequests: MergeRequestRow[]): Promise<void>;
  /** Their head pipeline runs again. */
  buildFailedDone(trx: Db, mergeRequests: MergeRequestRow[]): Promise<void>;
}

export type { MilestoneRow, Project, User };
