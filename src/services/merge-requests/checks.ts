import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';

/**
 * Asks for the merge requests' `merge_status` to be worked out again in the background (after a
 * creation, a change of target branch, a push to either branch): they show `unchecked` until then.
 * Called inside the transaction of the change, so the check never runs before the change is saved.
 */
export async function queueMergeStatusCheck(ctx: ServiceContext, trx: Db, mergeRequestIds: number[]): Promise<void> {
  // TODO(mr-git): enqueue the background check (a job kind of its own) and set merge_status to 'unchecked'.
  void ctx;
  void trx;
  void mergeRequestIds;
}
