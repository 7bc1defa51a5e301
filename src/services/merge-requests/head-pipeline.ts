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

/** The head pipelines of a page of merge requests (by merge request id), in one query. */
export async function headPipelines(
  db: Db,
  items: Array<{ mergeRequest: MergeRequestRow; headSha: string | null }>,
): Promise<Map<number, PipelineRow>> {
  const wanted = items.filter(
    (item): item is { mergeRequest: MergeRequestRow & { source_project_id: number }; headSha: string } =>
      item.headSha !== null && item.mergeRequest.source_project_id !== null,
  );
  const found = new Map<number, PipelineRow>();
  if (wanted.length === 0) return found;
  const rows = await db
    .selectFrom('ci_pipelines')
    .selectAll()
    .where('project_id', 'in', [...new Set(wanted.map((item) => item.mergeRequest.source_project_id))])
    .where('sha', 'in', [...new Set(wanted.map((item) => item.headSha))])
    .orderBy('id', 'desc')
    .execute();
  for (const { mergeRequest, headSha } of wanted) {
    const newest = rows.find(
      (row) => row.project_id === mergeRequest.source_project_id && row.ref === mergeRequest.source_branch && row.sha === headSha,
    );
    if (newest) found.set(mergeRequest.id, newest);
  }
  return found;
}
