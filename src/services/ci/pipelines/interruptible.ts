import type { Db } from '../../../db/index';
import type { ServiceContext } from '../../context';
import { transitionBuild } from '../builds/transitions';
import type { BuildRow } from '../types';

const ACTIVE: readonly string[] = ['created', 'pending', 'running'];

/**
 * GitLab's auto-cancel of redundant pipelines (`interruptible`, its default `conservative` mode):
 * a new pipeline on a branch cancels each older unfinished pipeline of the branch in which no job
 * that is not `interruptible` has started, so pushing again stops the work the push made useless
 * without cutting short a deployment. In the new pipeline's transaction.
 *
 * Departure: GitLab also cancels older pipelines that have no interruptible job at all (when
 * nothing has started); here only pipelines whose file asks for it with `interruptible: true` are,
 * so a file of 8.12's keywords runs as it always did.
 */
export async function cancelRedundantPipelines(
  ctx: ServiceContext,
  trx: Db,
  pipeline: { id: number; projectId: number; ref: string; tag: boolean },
): Promise<void> {
  if (pipeline.tag) return;
  const builds = await trx
    .selectFrom('ci_builds as b')
    .innerJoin('ci_pipelines as p', 'p.id', 'b.pipeline_id')
    .selectAll('b')
    .where('p.project_id', '=', pipeline.projectId)
    .where('p.ref', '=', pipeline.ref)
    .where('p.tag', '=', 0)
    .where('p.id', '<', pipeline.id)
    .where('p.status', 'in', [...ACTIVE])
    .where('b.type', '=', 'Build')
    .orderBy('b.id')
    .execute();
  const byPipeline = new Map<number, BuildRow[]>();
  for (const build of builds) byPipeline.set(build.pipeline_id, [...(byPipeline.get(build.pipeline_id) ?? []), build]);
  // One build at a time, as a user's cancel does, so that each fires its build hook; the last first,
  // so that a waiting build is canceled before an earlier build's cancel skips it.
  for (const own of byPipeline.values()) {
    if (!own.some(interruptible) || own.some((build) => build.started_at !== null && !interruptible(build))) continue;
    for (const build of own.filter((b) => ACTIVE.includes(b.status)).reverse()) await transitionBuild(ctx, trx, build, 'cancel');
  }
}

function interruptible(build: BuildRow): boolean {
  try {
    return (JSON.parse(build.options || '{}') as { interruptible?: unknown }).interruptible === true;
  } catch {
    return false;
  }
}
