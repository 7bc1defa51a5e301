import { sql } from 'kysely';
import type { ServiceContext } from '../../context';

/** How often a process with runners waiting looks for builds another process made pending. */
const RECHECK_MS = 2000;

interface QueueMark {
  count: number;
  top: number;
  latest: string;
}

/**
 * Builds made pending by another Forge process (several behind one address) bump no signal here:
 * while runners wait in this process, one query every two seconds looks at the queue as a whole
 * and wakes them when it holds something new (more builds, a newer one, a later queuing). No
 * waiter, no timer and no query. The last look's mark is kept while no one waits: a runner whose
 * `last_update` skipped its first look is woken by the first look after builds appeared meanwhile.
 */
export class PendingBuildsWatch {
  private timer: NodeJS.Timeout | undefined;
  private last: QueueMark | undefined;

  constructor(private readonly ctx: ServiceContext) {}

  /** Called when a runner starts waiting. */
  watch(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.look(), RECHECK_MS);
    this.timer.unref();
  }

  private async look(): Promise<void> {
    if (this.ctx.buildQueue.waiting === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    try {
      const row = await this.ctx.db
        .selectFrom('ci_builds')
        .select([
          sql<number | string>`count(*)`.as('count'),
          sql<number | null>`max(id)`.as('top'),
          sql<string | null>`max(queued_at)`.as('latest'),
        ])
        .where('status', '=', 'pending')
        .where('runner_id', 'is', null)
        .where('type', '=', 'Build')
        .executeTakeFirstOrThrow();
      const mark = { count: Number(row.count), top: Number(row.top ?? 0), latest: row.latest ?? '' };
      const before = this.last;
      this.last = mark;
      // The first look has nothing to compare with: builds already pending wake the runners, which
      // may have skipped their own look (`last_update`) and would otherwise wait for ever for them.
      const news = before ? mark.count > before.count || mark.top > before.top || mark.latest > before.latest : mark.count > 0;
      if (news) this.ctx.buildQueue.bump();
    } catch (error) {
      // The next look tries again; the runners' own timeout bounds what a failed look delays.
      this.ctx.log.warn({ err: error }, 'looking at the build queue failed');
    }
  }
}
