import type { Db } from '../../db/index';
import type { Project } from '../projects/types';
import { recordNotFound } from '../../errors';
import type { MergeRequestRow } from './types';
import { preparedPerHandle } from '../../db/prepared';

/** Every read of one merge request starts here: compiled once. */
const mergeRequestById = preparedPerHandle((db: Db, id: number, projectId: number) =>
  db.selectFrom('merge_requests').selectAll().where('id', '=', id).where('target_project_id', '=', projectId),
);

/**
 * The project's merge request by its global id, as 8.12 found it (`user_project.merge_requests.find`):
 * `404 Not found` when the project (as target) has none of that id. Whether the caller may read merge
 * requests at all is the route's ability (`read_merge_request`).
 */
export async function findMergeRequest(db: Db, project: Project, mergeRequestId: number): Promise<MergeRequestRow> {
  const [row] = await mergeRequestById(db, mergeRequestId, project.id);
  if (!row) throw recordNotFound();
  return row;
}
