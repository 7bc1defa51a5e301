import type { Updateable } from 'kysely';
import type { Db } from '../../../db/index';
import type { CiPipelinesTable } from '../../../db/schema';
import type { ServiceContext } from '../../context';
import { now } from '../../../lib/time';
import { pipelineDuration, type TimedBuild } from './duration';

/** Statuses of builds, commit statuses and pipelines. */
export type CiStatus = 'created' | 'pending' | 'running' | 'success' | 'failed' | 'canceled' | 'skipped' | 'scheduled';

const FINISHED_STATUSES: readonly string[] = ['success', 'failed', 'canceled'];

/** The events of GitLab 8.12's `CommitStatus` state machine (builds and external statuses alike). */
export type StatusEvent = 'enqueue' | 'process' | 'run' | 'skip' | 'drop' | 'success' | 'cancel';

const TRANSITIONS: Record<StatusEvent, { from: readonly string[]; to: CiStatus }> = {
  enqueue: { from: ['created', 'skipped', 'scheduled'], to: 'pending' },
  process: { from: ['skipped'], to: 'created' },
  run: { from: ['pending'], to: 'running' },
  skip: { from: ['created', 'pending'], to: 'skipped' },
  drop: { from: ['created', 'pending', 'running', 'scheduled'], to: 'failed' },
  success: { from: ['created', 'pending', 'running'], to: 'success' },
  cancel: { from: ['created', 'pending', 'running', 'scheduled'], to: 'canceled' },
};

export interface StatusTimes {
  status: string;
  queued_at: string | null;
  started_at: string | null;
  finished_at: string | null;
}

/**
 * The record after `event`, with the times GitLab stamps on the way (queued when leaving
 * `created` for pending or running, started when reaching running, finished when reaching an
 * end); undefined when the event does not apply to the record's status.
 */
export function fire<T extends StatusTimes>(record: T, event: StatusEvent, time = now()): T | undefined {
  const { from, to } = TRANSITIONS[event];
  if (!from.includes(record.status)) return undefined;
  const next = { ...record, status: to };
  if ((record.status === 'created' || record.status === 'scheduled') && (to === 'pending' || to === 'running')) next.queued_at = time;
  if ((record.status === 'created' || record.status === 'pending') && to === 'running') next.started_at = time;
  if (FINISHED_STATUSES.includes(to)) next.finished_at = time;
  return next;
}

/** The message of the `StateMachines::InvalidTransition` GitLab answers with. */
export function invalidTransition(event: StatusEvent, from: string): string {
  return `Cannot transition status via :${event} from :${from} (Reason(s): Status cannot transition via "${event}")`;
}

export interface StatusOfBuild {
  status: string;
  allow_failure: number | boolean;
}

/**
 * GitLab's combined status of a set of builds: all created → created; all skipped → skipped;
 * only successes, allowed failures and skips → success; only created, pending and skipped →
 * pending; only canceled, successes, allowed failures and skips → canceled; anything still to
 * run → running; otherwise failed. An empty set is created. Allowed failures (failed or canceled
 * with `allow_failure`) count once, as ignored (GitLab's SQL also counts such a cancel as
 * canceled, which turns "canceled plus an ignored cancel" into failed).
 */
export function combinedStatus(builds: readonly StatusOfBuild[]): CiStatus {
  const count: Record<string, number> = {};
  let ignored = 0;
  for (const build of builds) {
    if (build.allow_failure && (build.status === 'failed' || build.status === 'canceled')) ignored += 1;
    else count[build.status] = (count[build.status] ?? 0) + 1;
  }
  const n = builds.length;
  const [created, pending, running, success, canceled, skipped, scheduled] = [
    'created',
    'pending',
    'running',
    'success',
    'canceled',
    'skipped',
    'scheduled',
  ].map((s) => count[s] ?? 0);
  if (created === n) return 'created';
  if (skipped === n) return 'skipped';
  if (success + ignored + skipped === n) return 'success';
  if (created + pending + skipped === n) return 'pending';
  if (canceled + success + ignored + skipped === n) return 'canceled';
  if (running + pending > 0) return 'running';
  // GitLab 11.4: delayed builds waiting, nothing running, is `scheduled`.
  if (scheduled > 0) return 'scheduled';
  if (created > 0) return 'running';
  return 'failed';
}

/**
 * Reads a pipeline's status (and what its duration needs), locking its row until the transaction
 * ends on PostgreSQL (SQLite runs one writing transaction at a time), so that changes to its builds
 * are counted in turn.
 */
export async function lockPipeline(
  ctx: ServiceContext,
  trx: Db,
  pipelineId: number,
): Promise<{ status: string; started_at: string | null; duration: number | null } | undefined> {
  let lookup = trx.selectFrom('ci_pipelines').select(['status', 'started_at', 'duration']).where('id', '=', pipelineId);
  if (ctx.dialect === 'postgres') lookup = lookup.forUpdate();
  return lookup.executeTakeFirst();
}

/**
 * The status GitLab 8.12's pipeline event for `target` moves a pipeline in `from` to, or undefined
 * when no event applies: `created` fires nothing, and `enqueue` (for `pending`) only leaves
 * `created` (for pending) or an end (a finished pipeline runs again). The other events apply from
 * any state, the pipeline's own included (a loopback: no hook, but the duration is refreshed).
 */
export function pipelineEventTarget(from: string, target: CiStatus): string | undefined {
  if (target === 'created') return undefined;
  if (target !== 'pending') return target;
  if (from === 'created' || from === 'scheduled') return 'pending';
  // A finished pipeline whose builds are queued again (a retry, a play) is `pending`, as the spec's
  // Pipeline status table says; 8.12's `enqueue` event reopened it as `running`.
  return [...FINISHED_STATUSES, 'skipped'].includes(from) ? 'pending' : undefined;
}

type LatestStatus = StatusOfBuild & TimedBuild & { type: string };

/** The latest status of each name in a pipeline (a retried build hides behind its retry), of `type` only when given. */
function latestStatuses(trx: Db, pipelineId: number, type?: string): Promise<LatestStatus[]> {
  return trx
    .selectFrom('ci_builds')
    .select(['status', 'allow_failure', 'type', 'started_at', 'finished_at'])
    .where('id', 'in', (eb) => {
      let ids = eb
        .selectFrom('ci_builds')
        .select((inner) => inner.fn.max('id').as('id'))
        .where('pipeline_id', '=', pipelineId);
      if (type) ids = ids.where('type', '=', type);
      return ids.groupBy('name');
    })
    .execute();
}

/**
 * Sets a pipeline's status from the latest status of each name, through GitLab 8.12's pipeline
 * events (`update_status`, see `pipelineEventTarget`): started_at is stamped when leaving created
 * or pending for running, finished_at when reaching an end, and once started the duration is
 * recomputed on every event, loopbacks included (so a running pipeline's duration keeps up with
 * its builds). Call it inside the transaction that changed the builds. Returns the status after.
 */
export async function updatePipelineStatus(ctx: ServiceContext, trx: Db, pipelineId: number): Promise<CiStatus | undefined> {
  const pipeline = await lockPipeline(ctx, trx, pipelineId);
  if (!pipeline) return undefined;
  const latest = await latestStatuses(trx, pipelineId);
  const from = pipeline.status;
  const to = pipelineEventTarget(from, combinedStatus(latest));
  if (to === undefined) return from as CiStatus;
  const time = now();
  const changes: Updateable<CiPipelinesTable> = {};
  if (to !== from) {
    changes.status = to;
    // A pipeline run again keeps the time it first started.
    if ((from === 'created' || from === 'pending') && to === 'running' && pipeline.started_at === null) changes.started_at = time;
    if (FINISHED_STATUSES.includes(to)) changes.finished_at = time;
    else if (FINISHED_STATUSES.includes(from)) changes.finished_at = null;
  }
  if ((changes.started_at ?? pipeline.started_at) !== null) {
    // Duration counts builds only; external statuses have no run time (one sharing a build's name
    // would hide it in `latest`, so then the builds are asked for on their own).
    const builds = latest.every((status) => status.type === 'Build') ? latest : await latestStatuses(trx, pipelineId, 'Build');
    const duration = pipelineDuration(
      builds.filter((status) => status.type === 'Build'),
      time,
    );
    if (duration !== pipeline.duration) changes.duration = duration;
  }
  if (Object.keys(changes).length > 0)
    await trx
      .updateTable('ci_pipelines')
      .set({ ...changes, updated_at: time })
      .where('id', '=', pipelineId)
      .execute();
  return to as CiStatus;
}
