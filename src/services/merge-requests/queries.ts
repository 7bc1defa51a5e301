import type { Db } from '../../db/index';
import type { Project } from '../projects/types';
import { recordNotFound } from '../../errors';
import type { MergeRequestRow } from './types';
import { preparedPerHandle } from '../../db/prepared';

/** Every read of one merge request starts here: compiled once. */
const mergeRequestById = preparedPerHandle((db: Db, id: number, projectId: number) =>
  db.selectFrom('merge_requests').selectAll().where('id', '=', id).where('target_project_id', '=', projectId),
);

/** v4's reads name a merge request by its iid: found in the one query, not turned into an id first. */
const mergeRequestByIid = preparedPerHandle((db: Db, iid: number, projectId: number) =>
  db.selectFrom('merge_requests').selectAll().where('target_project_id', '=', projectId).where('iid', '=', iid),
);

/** A merge request as a door names it: by global id (v3, the web) or by `{ iid }` (v4). */
export type MergeRequestRef = number | { iid: number };

/**
 * The project's merge request by its global id, as 8.12 found it (`user_project.merge_requests.find`),
 * or by its iid: `404 Not found` when the project (as target) has none of that id. Whether the caller
 * may read merge requests at all is the route's ability (`read_merge_request`).
 */
export async function findMergeRequest(db: Db, project: Project, ref: MergeRequestRef): Promise<MergeRequestRow> {
  const [row] = typeof ref === 'number' ? await mergeRequestById(db, ref, project.id) : await mergeRequestByIid(db, ref.iid, project.id);
  if (!row) throw recordNotFound();
  return row;
}
