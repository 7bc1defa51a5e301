import type { TestApp } from './app';
import { inTransaction } from '../../src/db/transaction';
import { nextInternalId } from '../../src/db/internal-ids';
import { now } from '../../src/lib/time';
import { insertVersion, readVersion } from '../../src/services/merge-requests/versions';
import { queueMergeStatusCheck } from '../../src/services/merge-requests/checks';
import type { MergeRequestRow } from '../../src/services/merge-requests/types';

export interface NewMergeRequest {
  targetProjectId: number;
  /** Default: the target project. */
  sourceProjectId?: number;
  sourceBranch: string;
  targetBranch?: string;
  title?: string;
  description?: string;
  authorId: number;
}

/**
 * A merge request written straight into the database with its first version read from git, and its
 * background mergeability check queued: what POST …/merge_requests does (built on another branch),
 * for the tests of the git side until they can use the route.
 */
export async function createMergeRequest(app: Pick<TestApp, 'services'>, request: NewMergeRequest): Promise<MergeRequestRow> {
  const { projects, ctx } = app.services;
  const target = await projects.find(request.targetProjectId);
  const source = await projects.find(request.sourceProjectId ?? request.targetProjectId);
  if (!target || !source) throw new Error('no such project');
  const ends = { target, source, sourceBranch: request.sourceBranch, targetBranch: request.targetBranch ?? 'master' };
  const reading = await readVersion(ctx, ends);
  return inTransaction(ctx.db, async (trx) => {
    const time = now();
    const row = await trx
      .insertInto('merge_requests')
      .values({
        iid: await nextInternalId(trx, target.id, 'merge_requests'),
        target_project_id: target.id,
        source_project_id: source.id,
        source_branch: ends.sourceBranch,
        target_branch: ends.targetBranch,
        author_id: request.authorId,
        assignee_id: null,
        milestone_id: null,
        title: request.title ?? `Merge ${ends.sourceBranch}`,
        description: request.description ?? null,
        locked_from: null,
        locked_at: null,
        merge_commit_sha: null,
        merge_user_id: null,
        merge_commit_message: null,
        merge_error: null,
        created_at: time,
        updated_at: time,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await insertVersion(trx, row.id, reading);
    await queueMergeStatusCheck(ctx, trx, [row.id]);
    return row;
  });
}

/** The merge request as the database has it now. */
export function mergeRequestRow(app: TestApp, id: number): Promise<MergeRequestRow> {
  return app.services.ctx.db.selectFrom('merge_requests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
