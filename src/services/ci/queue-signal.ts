import type { Db } from '../../db/index';
import { afterCommit } from '../../db/transaction';
import type { ServiceContext } from '../context';

/**
 * Called where builds become `pending` (a stage opens, a build is retried or played), inside the
 * transaction that makes them so: once it commits, runners long-polling in this process look at the
 * queue again. Other processes see the change by their own periodic look (`runners/long-poll.ts`).
 */
export function announcePendingBuilds(ctx: ServiceContext, trx: Db): void {
  afterCommit(trx, () => ctx.buildQueue.bump());
}
