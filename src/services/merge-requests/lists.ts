import { sql } from 'kysely';
import type { SelectQueryBuilder } from 'kysely';
import type { Db } from '../../db/index';
import type { Database } from '../../db/schema';
import { preparedShapes } from '../../db/prepared';
import { pageLimit } from '../../db/page-limit';
import { containsText } from '../../db/search';
import { OPEN_STATES, type MergeRequestFilters } from './types';

type ListValues = { projectId: number; offset: number };
type MergeRequestsQuery = SelectQueryBuilder<Database, 'merge_requests', object>;

/** A list's filters and page size (see `pageLimit`): its query's shape. */
interface ListShape {
  filters: MergeRequestFilters;
  limit: number;
}

function filtered(db: Db, { filters }: ListShape, values: ListValues) {
  return applyMergeRequestFilters(db.selectFrom('merge_requests').where('target_project_id', '=', values.projectId), filters);
}

/** Whether a list uses only the filters of 8.12's project list (its shapes are prepared; the others' values are used as they are). */
const preparable = (filters: MergeRequestFilters): boolean =>
  [
    filters.iids,
    filters.milestone,
    filters.allLabels,
    filters.authorId,
    filters.assigneeId,
    filters.sourceBranch,
    filters.targetBranch,
    filters.search,
  ].every((value) => value === undefined);

/** The filters of the merge request lists, applied to a query over `merge_requests`. */
export function applyMergeRequestFilters(query: MergeRequestsQuery, filters: MergeRequestFilters): MergeRequestsQuery {
  if (filters.state === 'opened') query = query.where('merge_requests.state', 'in', [...OPEN_STATES]);
  if (filters.state === 'closed' || filters.state === 'merged') query = query.where('merge_requests.state', '=', filters.state);
  if (filters.iids) query = query.where('merge_requests.iid', 'in', filters.iids.length ? filters.iids : [-1]);
  if (filters.authorId !== undefined) query = query.where('merge_requests.author_id', '=', filters.authorId);
  if (filters.assigneeId !== undefined) query = query.where('merge_requests.assignee_id', '=', filters.assigneeId);
  if (filters.sourceBranch !== undefined) query = query.where('merge_requests.source_branch', '=', filters.sourceBranch);
  if (filters.targetBranch !== undefined) query = query.where('merge_requests.target_branch', '=', filters.targetBranch);
  if (filters.search) {
    const search = filters.search;
    query = query.where((eb) => eb.or([containsText('merge_requests.title', search), containsText('merge_requests.description', search)]));
  }
  if (filters.milestone === 'No Milestone') query = query.where('merge_requests.milestone_id', 'is', null);
  else if (filters.milestone !== undefined) {
    const title = filters.milestone;
    query = query.where('merge_requests.milestone_id', 'in', (eb) =>
      eb.selectFrom('milestones').select('milestones.id').where('milestones.title', '=', title),
    );
  }
  // Labels are always their merge request's target project's (`setLabels`).
  for (const title of filters.allLabels ?? []) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('label_links')
          .innerJoin('labels', 'labels.id', 'label_links.label_id')
          .select('label_links.id')
          .where('label_links.target_type', '=', 'MergeRequest')
          .whereRef('label_links.target_id', '=', 'merge_requests.id')
          .whereRef('labels.project_id', '=', 'merge_requests.target_project_id')
          .where('labels.title', '=', title),
      ),
    );
  }
  return query;
}

function pageQuery(db: Db, shape: ListShape, values: ListValues) {
  const { filters } = shape;
  return filtered(db, shape, values)
    .selectAll()
    .orderBy(sql.ref(`merge_requests.${filters.orderBy}`), filters.sort)
    .orderBy('merge_requests.id', filters.sort)
    .limit(pageLimit(shape.limit))
    .offset(values.offset);
}

function countQuery(db: Db, shape: ListShape, values: ListValues) {
  return filtered(db, shape, values).select((eb) => eb.fn.countAll<number | string>().as('total'));
}

const shapeKey = ({ filters, limit }: ListShape) => `${filters.state ?? ''}|${filters.orderBy}|${filters.sort}|${limit}`;

// A project's merge requests are listed on every page view: each shape is built and compiled once.
const preparedPage = preparedShapes(shapeKey, pageQuery);
const preparedCount = preparedShapes(shapeKey, countQuery);

/** A page of the merge requests whose target is the project, and their total. */
export async function mergeRequestsPage(db: Db, projectId: number, filters: MergeRequestFilters, range: { offset: number; limit: number }) {
  const shape: ListShape = { filters, limit: range.limit };
  const values: ListValues = { projectId, offset: range.offset };
  const [rows, total] = !preparable(filters)
    ? await Promise.all([pageQuery(db, shape, values).execute(), countQuery(db, shape, values).executeTakeFirstOrThrow()])
    : await Promise.all([preparedPage(db, shape, values), preparedCount(db, shape, values).then(([row]) => row)]);
  return { rows, total: Number(total.total) };
}
