import type { Selectable } from 'kysely';
import type { JobsTable } from '../../db/schema';
import type { ServiceContext } from '../context';
import type { JobCounts } from '../../jobs/queue';
import { now } from '../../lib/time';

/** A job as the administrator sees it: no payload (it may carry a hook's secret token or a user's e-mail). */
export type JobSummary = Pick<Selectable<JobsTable>, 'id' | 'kind' | 'run_at' | 'attempts' | 'max_attempts' | 'last_error' | 'created_at'>;

/** How many of the newest jobs of a state the page lists. */
const SHOWN = 50;

/** The queue's `fail` parks a job it gave up on with this worker name (`src/jobs/queue.ts`). */
const GAVE_UP = 'failed';

const SUMMARY = ['id', 'kind', 'run_at', 'attempts', 'max_attempts', 'last_error', 'created_at'] as const;

/**
 * The background work as administrators see it (GitLab 8.12's `/admin/background_jobs`): counts by
 * kind and state, the jobs waiting (with the error of their last try, if any), the jobs given up
 * after their last attempt with their errors, and retrying one of those.
 */
export class BackgroundJobsService {
  constructor(private readonly ctx: ServiceContext) {}

  counts(): Promise<JobCounts[]> {
    return this.ctx.jobs.counts();
  }

  /** The jobs not given up and not running: due or waiting for a retry, oldest due first. */
  pending(): Promise<JobSummary[]> {
    return this.ctx.db
      .selectFrom('jobs')
      .select(SUMMARY)
      .where('locked_at', 'is', null)
      .orderBy('run_at')
      .orderBy('id')
      .limit(SHOWN)
      .execute();
  }

  /** The jobs given up after their last attempt, newest first. */
  failed(): Promise<JobSummary[]> {
    return this.ctx.db.selectFrom('jobs').select(SUMMARY).where('locked_by', '=', GAVE_UP).orderBy('id', 'desc').limit(SHOWN).execute();
  }

  /** Queues a given-up job again, due now with all its attempts; false when there is no such job (it ran, or was purged). */
  async retry(id: number): Promise<boolean> {
    const result = await this.ctx.db
      .updateTable('jobs')
      .set({ locked_at: null, locked_by: null, attempts: 0, run_at: now() })
      .where('id', '=', id)
      .where('locked_by', '=', GAVE_UP)
      .executeTakeFirst();
    const retried = Number(result.numUpdatedRows) > 0;
    // Wake this process's idle workers, as a new job would.
    if (retried) this.ctx.jobs.wake();
    return retried;
  }
}
