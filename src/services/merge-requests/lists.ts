import { sql } from 'kysely';
import type { Db } from '../../db/index';
import { preparedShapes } from '../../db/prepared';
import { OPEN_STATES, type MergeRequestFilters } from './types';

type ListValues = { projectId: number; offset: number; limit: number };

function filtered(db: Db, filters: MergeRequestFilters, values: ListValues) {
  let query = db.selectFrom('merge_requests').where('target_project_id', '=', values.projectId);
  if (filters.state === 'opened') query = query.where('state', 'in', [...OPEN_STATES]);
  if (filters.state === 'closed' || filters.state === 'merged') query = query.where('state', '=', filters.state);
  // Lists by iids are not prepared (see `mergeRequestsPage`): the iids are used as they are.
  if (filters.iids) query = query.where('iid', 'in', filters.iids.length ? filters.iids : [-1]);
  return query;
}

function pageQuery(db: Db, filters: MergeRequestFilters, values: ListValues) {
  return filtered(db, filters, values).selectAll().orderBy(sql.ref(filters.orderBy), filters.sort).orderBy('id', filters.sort).offset(values.offset).limit(values.limit);
}

function countQuery(db: Db, filters: MergeRequestFilters, values: ListValues) {
  return filtered(db, filters, values).select((eb) => eb.fn.countAll<number | string>().as('total'));
}

const shapeKey = (filters: MergeRequestFilters) => `${filters.state ?? ''}|${filters.orderBy}|${filters.sort}`;

// A project's merge requests are listed on every page view: each shape is built and compiled once.
const preparedPage = preparedShapes(shapeKey, pageQuery);
const preparedCount = preparedShapes(shapeKey, countQuery);

/** A page of the merge requests whose target is the project, and their total. */
export async function mergeRequestsPage(db: Db, projectId: number, filters: MergeRequestFilters, range: { offset: number; limit: number }) {
  const values: ListValues = { projectId, offset: range.offset, limit: range.limit };
  const [rows, total] = filters.iids
    ? await Promise.all([pageQuery(db, filters, values).execute(), countQuery(db, filters, values).executeTakeFirstOrThrow()])
    : await Promise.all([preparedPage(db, filters, values), preparedCount(db, filters, values).then(([row]) => row)]);
  return { rows, total: Number(total.total) };
}
