import { sql } from 'kysely';
import type { Db } from '../../db/index';
import { preparedShapes } from '../../db/prepared';
import { pageLimit } from '../../db/page-limit';
import { OPEN_STATES, type MergeRequestFilters } from './types';

type ListValues = { projectId: number; offset: number };

/** A list's filters and page size (see `pageLimit`): its query's shape. */
interface ListShape {
  filters: MergeRequestFilters;
  limit: number;
}

function filtered(db: Db, { filters }: ListShape, values: ListValues) {
  let query = db.selectFrom('merge_requests').where('target_project_id', '=', values.projectId);
  if (filters.state === 'opened') query = query.where('state', 'in', [...OPEN_STATES]);
  if (filters.state === 'closed' || filters.state === 'merged') query = query.where('state', '=', filters.state);
  // Lists by iids are not prepared (see `mergeRequestsPage`): the iids are used as they are.
  if (filters.iids) query = query.where('iid', 'in', filters.iids.length ? filters.iids : [-1]);
  return query;
}

function pageQuery(db: Db, shape: ListShape, values: ListValues) {
  const { filters } = shape;
  return filtered(db, shape, values)
    .selectAll()
    .orderBy(sql.ref(filters.orderBy), filters.sort)
    .orderBy('id', filters.sort)
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
  const [rows, total] = filters.iids
    ? await Promise.all([pageQuery(db, shape, values).execute(), countQuery(db, shape, values).executeTakeFirstOrThrow()])
    : await Promise.all([preparedPage(db, shape, values), preparedCount(db, shape, values).then(([row]) => row)]);
  return { rows, total: Number(total.total) };
}
