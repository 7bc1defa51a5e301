import type { ServiceContext } from '../../context';
import type { BuildRow, RunnerRow } from '../types';
import { transitionBuild } from '../builds/transitions';
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
  return (await inTransaction(ctx.db, (trx) => transitionBuild(ctx, trx, build, event))) ?? build;
}
