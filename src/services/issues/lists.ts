import { sql, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema';
import { containsText } from '../../db/search';
import type { IssueFilters } from './types';

type IssuesQuery = SelectQueryBuilder<Database, 'issues', object>;

/**
 * Issues carrying a label of one of these titles. An issue's labels are always its project's
 * (`setLabels`, and a move relinks the target's), so only the labels of the issues' own
 * projects are looked at: every project's labels of that title, and their links, grew with the whole table.
 */
const labelled = (query: IssuesQuery, titles: string[]) =>
  query.where((eb) =>
    eb.exists(
      eb
        .selectFrom('label_links')
        .innerJoin('labels', 'labels.id', 'label_links.label_id')
        .select('label_links.id')
        .where('label_links.target_type', '=', 'Issue')
        .whereRef('label_links.target_id', '=', 'issues.id')
        .whereRef('labels.project_id', '=', 'issues.project_id')
        .where('labels.title', 'in', titles),
    ),
  );

/** The filters of GitLab 8.12's issue lists, applied to a query over `issues`. */
export function applyIssueFilters(query: IssuesQuery, filters: IssueFilters): IssuesQuery {
  if (filters.state === 'opened') query = query.where('issues.state', 'in', ['opened', 'reopened']);
  if (filters.state === 'closed') query = query.where('issues.state', '=', 'closed');
  if (filters.anyLabels?.length) query = labelled(query, filters.anyLabels);
  for (const title of filters.allLabels ?? []) query = labelled(query, [title]);
  if (filters.milestone === 'No Milestone') query = query.where('issues.milestone_id', 'is', null);
  else if (filters.milestone !== undefined) {
    const title = filters.milestone;
    query = query.where('issues.milestone_id', 'in', (eb) =>
      eb.selectFrom('milestones').select('milestones.id').where('milestones.title', '=', title),
    );
  }
  if (filters.iid !== undefined) query = query.where('issues.iid', '=', filters.iid);
  if (filters.iids) query = query.where('issues.iid', 'in', filters.iids.length ? filters.iids : [-1]);
  if (filters.authorId !== undefined) query = query.where('issues.author_id', '=', filters.authorId);
  if (filters.assigneeId !== undefined) query = query.where('issues.assignee_id', '=', filters.assigneeId);
  if (filters.search) {
    const search = filters.search;
    query = query.where((eb) => eb.or([containsText('issues.title', search), containsText('issues.description', search)]));
  }
  return query;
}

/** The order of a list, ties broken by id in the same direction. */
export function orderIssues<O>(
  query: SelectQueryBuilder<Database, 'issues', O>,
  filters: IssueFilters,
): SelectQueryBuilder<Database, 'issues', O> {
  return query.orderBy(sql.ref(`issues.${filters.orderBy}`), filters.sort).orderBy('issues.id', filters.sort);
}
