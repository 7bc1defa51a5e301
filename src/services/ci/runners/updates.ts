import type { ServiceContext } from '../../context';
import type { BuildRow, RunnerRow } from '../types';
import { transitionBuild } from '../builds/transitions';
import { retryIfConfigured } from '../builds/auto-retry';
import { refuseErased } from './build-access';
import type { BuildTraces } from '../builds/traces';
import { recordNotFound } from '../../../errors';
import { inTransaction } from '../../../db/transaction';

export interface RunnerUpdate {
  /** `success` and `failed` end the build; anything else (`running`) changes nothing. */
  state?: string;
  /** The full trace, when the runner sends it. */
  trace?: string;
}

/**
 * A runner's `PUT /builds/:id`: only a build this runner is running can be updated; anything else
 * (an unknown id, `-1`, another runner's build, a build canceled meanwhile) is 404, which tells
 * the runner to stop. Then the full trace, then the state.
 */
export async function updateFromRunner(
  ctx: ServiceContext,
  traces: BuildTraces,
  runner: RunnerRow,
  id: number | undefined,
  update: RunnerUpdate,
): Promise<BuildRow> {
  const build =
    id === undefined
      ? undefined
      : await ctx.db
          .selectFrom('ci_builds')
          .selectAll()
          .where('id', '=', id)
          .where('runner_id', '=', runner.id)
          .where('status', '=', 'running')
          .where('type', '=', 'Build')
          .executeTakeFirst();
  if (!build) throw recordNotFound();
  refuseErased(build);
  if (update.trace !== undefined) await traces.replace(build, update.trace);
  const event = update.state === 'success' ? 'success' : update.state === 'failed' ? 'drop' : undefined;
  if (!event) return build;
  const updated = await inTransaction(ctx.db, async (trx) => {
    const changed = await transitionBuild(ctx, trx, build, event);
    if (changed) await retryIfConfigured(ctx, trx, changed);
    return changed;
  });
  return updated ?? build;
}

export interface JobUpdate {
  /** `success` and `failed` end the job; `running` (and anything else) changes nothing. */
  state?: string;
  /** The full trace (runners before 11 send it with the final update). */
  trace?: string;
  /** Why a failed job failed, as the runner says (`script_failure` …); `unknown_failure` when not said. */
  failureReason?: string;
}

/** Why a job failed, as GitLab knows them; anything else a runner says is recorded as `unknown_failure`. */
export const FAILURE_REASONS = [
  'unknown_failure',
  'script_failure',
  'api_failure',
  'stuck_or_timeout_failure',
  'runner_system_failure',
  'missing_dependency_failure',
  'runner_unsupported',
  'job_execution_timeout',
  'archived_failure',
  'unmet_prerequisites',
  'scheduler_failure',
  'data_integrity_failure',
] as const;

/**
 * A runner's update of a running job it holds the token of (the runner API v4's `PUT /jobs/:id`,
 * authorized by the caller): the full trace when sent, then the state. A job canceled meanwhile is
 * left as it is.
 */
export async function updateJob(ctx: ServiceContext, traces: BuildTraces, build: BuildRow, update: JobUpdate): Promise<BuildRow> {
  if (update.trace !== undefined) await traces.replace(build, update.trace);
  if (update.state === 'success') return (await inTransaction(ctx.db, (trx) => transitionBuild(ctx, trx, build, 'success'))) ?? build;
  if (update.state !== 'failed') return build;
  const reason = (FAILURE_REASONS as readonly string[]).includes(update.failureReason ?? '') ? update.failureReason! : 'unknown_failure';
  const failed = await inTransaction(ctx.db, async (trx) => {
    const dropped = await transitionBuild(ctx, trx, build, 'drop', { failure_reason: reason });
    if (dropped) await retryIfConfigured(ctx, trx, dropped);
    return dropped;
  });
  return failed ?? build;
}
