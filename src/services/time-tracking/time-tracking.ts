import { MAX_DURATION_SECONDS } from '../../lib/durations';
import type { ServiceContext } from '../context';
import type { ProjectStanding } from '../policy';
import { can } from '../policy';
import { forbidden, validationFailed } from '../../errors';
import { now } from '../../lib/time';

/** The records that track time, by table. */
export type TimeTracked = 'issues' | 'merge_requests';

export interface TimeStats {
  /** Seconds. */
  timeEstimate: number;
  totalTimeSpent: number;
}

const ADMIN_ABILITY = { issues: 'admin_issue', merge_requests: 'admin_merge_request' } as const;

/**
 * Time tracking of issues and merge requests (GitLab's `TimeTrackingEndpoints`): an estimate and the
 * total time spent, in seconds. Reading needs what reading the record needs (the door has found it);
 * changing needs the ability to administer it (reporters and above), as GitLab asks.
 */
export class TimeTrackingService {
  constructor(private readonly ctx: ServiceContext) {}

  async stats(kind: TimeTracked, id: number): Promise<TimeStats> {
    const row = await this.ctx.db
      .selectFrom(kind)
      .select(['time_estimate', 'total_time_spent'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return { timeEstimate: row.time_estimate, totalTimeSpent: row.total_time_spent };
  }

  /** Sets the estimate (0 resets it); a negative one is refused as GitLab's validation does. */
  async setEstimate(standing: ProjectStanding, kind: TimeTracked, id: number, seconds: number): Promise<TimeStats> {
    this.authorize(standing, kind);
    if (seconds < 0) throw validationFailed({ time_estimate: ['must have a valid format and be greater than or equal to zero'] });
    await this.ctx.db.updateTable(kind).set({ time_estimate: seconds, updated_at: now() }).where('id', '=', id).execute();
    return this.stats(kind, id);
  }

  /** Adds to the time spent (a negative duration subtracts), never below zero, in one statement so that concurrent additions all count. */
  async addSpent(standing: ProjectStanding, kind: TimeTracked, id: number, seconds: number): Promise<TimeStats> {
    this.authorize(standing, kind);
    const updated = await this.ctx.db
      .updateTable(kind)
      .set((eb) => ({ total_time_spent: eb('total_time_spent', '+', seconds), updated_at: now() }))
      .where('id', '=', id)
      .where((eb) =>
        // Compared without adding when adding: the sum itself would overflow PostgreSQL's integer.
        seconds >= 0 ? eb('total_time_spent', '<=', MAX_DURATION_SECONDS - seconds) : eb(eb('total_time_spent', '+', seconds), '>=', 0),
      )
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0)
      throw validationFailed({ time_spent: [seconds >= 0 ? 'is too large' : 'Time to subtract exceeds the total time spent'] });
    return this.stats(kind, id);
  }

  async resetSpent(standing: ProjectStanding, kind: TimeTracked, id: number): Promise<TimeStats> {
    this.authorize(standing, kind);
    await this.ctx.db.updateTable(kind).set({ total_time_spent: 0, updated_at: now() }).where('id', '=', id).execute();
    return this.stats(kind, id);
  }

  private authorize(standing: ProjectStanding, kind: TimeTracked): void {
    if (!can(standing, ADMIN_ABILITY[kind])) throw forbidden();
  }
}
