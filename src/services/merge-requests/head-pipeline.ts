import type { Selectable } from 'kysely';
import type { Db } from '../../db/index';
import type { CiPipelinesTable } from '../../db/schema';
import type { MergeRequestRow } from './types';

export type PipelineRow = Selectable<CiPipelinesTable>;

/** Statuses of a pipeline that has not finished yet (8.12's `active?`). */
export const ACTIVE_PIPELINE = ['created', 'pending', 'running'];

/**
 * The merge request's head pipeline: the newest of its source project for its source branch at the
 * head it shows (8.12's `MergeRequest#pipeline`); undefined without one.
 */
export async function headPipeline(db: Db, mergeRequest: MergeRequestRow, headSha: string | null): Promise<PipelineRow | undefined> {
  if (headSha === null || mergeRequest.source_project_id === null) return undefined;
  return db
    .selectFrom('ci_pipelines')
    .selectAll()
    .where('project_id', '=', mergeRequest.source_project_id)
    .where('ref', '=', mergeRequest.source_branch)
    .where('sha', '=', headSha)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}
