import type { ServiceContext } from '../context';
import { ONLINE_CONTACT_TIMEOUT_MS } from './runners/admin';

/** How busy CI is right now: builds waiting for a runner and running, and runners online. */
export interface CiActivity {
  pendingBuilds: number;
  runningBuilds: number;
  /**
   * Runners that made contact within GitLab's online window (2 hours). Not a shorter one: a polling
   * runner's `contacted_at` is written only when 40–80 minutes old (`runners/registration.ts`).
   */
  onlineRunners: number;
}

/** Read on each metrics scrape: one statement for the builds (by the status index), one for the runners. */
export async function ciActivity(ctx: Pick<ServiceContext, 'db'>, time = Date.now()): Promise<CiActivity> {
  const [builds, runners] = await Promise.all([
    ctx.db
      .selectFrom('ci_builds')
      .select((eb) => ['status', eb.fn.countAll<number>().as('count')])
      .where('status', 'in', ['pending', 'running'])
      .where('type', '=', 'Build')
      .groupBy('status')
      .execute(),
    ctx.db
      .selectFrom('ci_runners')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('contacted_at', '>', new Date(time - ONLINE_CONTACT_TIMEOUT_MS).toISOString())
      .executeTakeFirstOrThrow(),
  ]);
  const byStatus = (status: string) => Number(builds.find((row) => row.status === status)?.count ?? 0);
  return { pendingBuilds: byStatus('pending'), runningBuilds: byStatus('running'), onlineRunners: Number(runners.count) };
}
