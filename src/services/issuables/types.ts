import type { Selectable } from 'kysely';
import type { IssuesTable, MergeRequestsTable } from '../../db/schema';

/*
 * The rows of both kinds of issuable, below issues and merge requests so that what hangs off them
 * (system notes, todos, subscriptions) can name them without importing the domains back.
 */
export type IssueRow = Selectable<IssuesTable>;
export type MergeRequestRow = Selectable<MergeRequestsTable>;
