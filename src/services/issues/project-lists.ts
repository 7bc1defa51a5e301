import type { Db } from '../../db/index';
import { preparedShapes } from '../../db/prepared';
import { pageLimit } from '../../db/page-limit';
import { applyIssueFilters, orderIssues } from './lists';
import { notConfidentialOrOwn } from '../policy-reads';
import type { IssueFilters } from './types';

/** A project's issue list as far as its query's shape goes: which filters, which order, whether the caller sees confidential issues. */
export interface ProjectIssuesShape {
  filters: IssueFilters;
  seesConfidential: boolean;
  /** The page size (see `pageLimit`). */
  limit: number;
}

type ProjectIssuesValues = {
  projectId: number;
  callerId: number;
  iid: number;
  authorId: number;
  assigneeId: number;
  milestone: string;
  offset: number;
};

/** Lists filtered by labels or iids or searched are built each time: their values are lists or become patterns. */
const preparable = (filters: IssueFilters): boolean =>
  !filters.search && !filters.anyLabels?.length && !filters.allLabels?.length && !filters.iids;

function pageQuery(db: Db, shape: ProjectIssuesShape, values: ProjectIssuesValues) {
  return orderIssues(projectIssues(db, shape, values).selectAll('issues'), shape.filters)
    .limit(pageLimit(shape.limit))
    .offset(values.offset);
}

function countQuery(db: Db, shape: ProjectIssuesShape, values: ProjectIssuesValues) {
  return projectIssues(db, shape, values).select((eb) => eb.fn.countAll<number | string>().as('total'));
}

function projectIssues(db: Db, { filters, seesConfidential }: ProjectIssuesShape, values: ProjectIssuesValues) {
  let query = db.selectFrom('issues').where('issues.project_id', '=', values.projectId);
  // The project's part of `readableIssuesIn` (the route has checked `read_issue`), with the caller's id a value of the prepared query.
  if (!seesConfidential) query = query.where((eb) => notConfidentialOrOwn(eb, values.callerId));
  // The given filters' values from `values` (stand-ins while prepared); `No Milestone` is a shape of its own.
  return applyIssueFilters(query, {
    ...filters,
    iid: filters.iid === undefined ? undefined : values.iid,
    authorId: filters.authorId === undefined ? undefined : values.authorId,
    assigneeId: filters.assigneeId === undefined ? undefined : values.assigneeId,
    milestone: filters.milestone === undefined || filters.milestone === 'No Milestone' ? filters.milestone : values.milestone,
  });
}

function shapeKey({ filters, seesConfidential, limit }: ProjectIssuesShape): string {
  const milestone = filters.milestone === undefined ? '' : filters.milestone === 'No Milestone' ? 'none' : 'title';
  return [
    seesConfidential,
    filters.state ?? '',
    milestone,
    filters.iid !== undefined,
    filters.authorId !== undefined,
    filters.assigneeId !== undefined,
    filters.orderBy,
    filters.sort,
    limit,
  ].join('|');
}

// A project's issue list is asked for on every page view: each shape is built and compiled once.
const preparedPage = preparedShapes(shapeKey, pageQuery);
const preparedCount = preparedShapes(shapeKey, countQuery);

/** A page of a project's issues, confidential ones only where the caller may see them, and their total. */
export async function projectIssuesPage(db: Db, shape: ProjectIssuesShape, projectId: number, callerId: number, offset: number) {
  const { filters } = shape;
  const values: ProjectIssuesValues = {
    projectId,
    callerId,
    iid: filters.iid ?? 0,
    authorId: filters.authorId ?? 0,
    assigneeId: filters.assigneeId ?? 0,
    milestone: filters.milestone ?? '',
    offset,
  };
  const [rows, total] = preparable(filters)
    ? await Promise.all([preparedPage(db, shape, values), preparedCount(db, shape, values).then(([row]) => row)])
    : await Promise.all([pageQuery(db, shape, values).execute(), countQuery(db, shape, values).executeTakeFirstOrThrow()]);
  return { rows, total: Number(total.total) };
}
