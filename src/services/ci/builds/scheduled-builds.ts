import type { ServiceContext } from '../../context';
import { inTransaction } from '../../../db/transaction';
import { transitionBuild } from './transitions';

/** Builds queued per round: bounded statements, bounded memory. */
const BATCH = 100;

/**
 * GitLab 11.4's `Ci::BuildScheduleWorker`: a delayed build (`when: delayed`) waits in `scheduled`
 * until its `scheduled_at`, then is queued (`pending`) for runners, its pipeline following through
 * `transitionBuild`. A build canceled meanwhile is left as it is. Returns how many were queued.
 */
export async function enqueueScheduledBuilds(ctx: ServiceContext, time = Date.now()): Promise<number> {
  const due = new Date(time).toISOString();
  let queued = 0;
  for (;;) {
    const builds = await ctx.db
      .selectFrom('ci_builds')
      .selectAll()
      .where('status', '=', 'scheduled')
      .where('scheduled_at', '<=', due)
      .orderBy('scheduled_at')
      .orderBy('id')
      .limit(BATCH)
      .execute();
    let moved = 0;
    for (const build of builds) {
      if (await inTransaction(ctx.db, (trx) => transitionBuild(ctx, trx, build, 'enqueue'))) moved += 1;
    }
    queued += moved;
    // Builds that could not move (changed meanwhile) would be read again: stop with a short batch or no progress.
    if (builds.length < BATCH || moved === 0) return queued;
  }
}
