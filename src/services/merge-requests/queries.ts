import type { Db } from '../../db/index';
import type { Project } from '../projects/types';
import { recordNotFound } from '../../errors';
import type { MergeRequestRow } from './types';

/**
 * The project's merge request by its global id, as 8.12 found it (`user_project.merge_requests.find`):
 * `404 Not found` when the project (as target) has none of that id. Whether the caller may read merge
 * requests at all is the route's ability (`read_merge_request`).
 */
export async function findMergeRequest(db: Db, project: Project, mergeRequestId: number): Promise<MergeRequestRow> {
  const row = await db
    .selectFrom('merge_requests')
    .selectAll()
    .where('id', '=', mergeRequestId)
    .where('target_project_id', '=', project.id)
    .executeTakeFirst();
  if (!row) throw recordNotFound();
  return row;
}
