import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import { inTransaction } from '../../db/transaction';
import { now } from '../../lib/time';
import { insertSystemNote } from '../issuables/system-notes';
import { notify } from '../notify';
import type { MergeRequestRow, User } from './types';

/*
 * GitLab 8.12's `MergeRequests::MergeWhenBuildSucceedsService`: a merge asked for while the head
 * pipeline runs is remembered (who asked, with which message and branch removal) and made when that
 * pipeline succeeds; a new push to the source branch, or the cancel route, forgets it.
 */

const onMergeRequest = (row: MergeRequestRow) => ({ type: 'MergeRequest' as const, id: row.id, projectId: row.target_project_id });

export async function enableMergeWhenPipelineSucceeds(
  ctx: ServiceContext,
  mergeRequest: MergeRequestRow,
  user: User,
  headSha: string,
  params: { mergeCommitMessage?: string; shouldRemoveSourceBranch?: boolean },
): Promise<MergeRequestRow> {
  return inTransaction(ctx.db, async (trx) => {
    const row = await trx
      .updateTable('merge_requests')
      .set({
        merge_when_build_succeeds: 1,
        merge_user_id: user.id,
        merge_commit_message: params.mergeCommitMessage?.trim() ? params.mergeCommitMessage : null,
        should_remove_source_branch: params.shouldRemoveSourceBranch ? 1 : 0,
        updated_at: now(),
      })
      .where('id', '=', mergeRequest.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    // 8.12 noted it only when it was not already on.
    if (mergeRequest.merge_when_build_succeeds !== 1) {
      await insertSystemNote(trx, onMergeRequest(row), user.id, `Enabled an automatic merge when the build for ${headSha} succeeds`);
      await notify(ctx, trx, { kind: 'merge_request.merge_when_build_succeeds', mergeRequestId: row.id, actorId: user.id });
    }
    return row;
  });
}

/** Forgets an automatic merge (the cancel route, a push to the source branch); notes it when one was on. */
export async function cancelMergeWhenPipelineSucceeds(trx: Db, mergeRequest: MergeRequestRow, actorId: number): Promise<MergeRequestRow> {
  const row = await trx
    .updateTable('merge_requests')
    .set({ merge_when_build_succeeds: 0, merge_user_id: null, merge_commit_message: null, updated_at: now() })
    .where('id', '=', mergeRequest.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (mergeRequest.merge_when_build_succeeds === 1)
    await insertSystemNote(trx, onMergeRequest(row), actorId, 'Canceled the automatic merge');
  return row;
}
