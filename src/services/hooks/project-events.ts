import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import type { HookDelivery } from '../../jobs/kinds';
import type { HookFlag } from './flags';

/** The flags that choose which events a project hook receives. */
export type ProjectEventFlag = Exclude<HookFlag, 'enable_ssl_verification'>;

/** Each project hook event flag and the `X-Gitlab-Event` header GitLab sends with its events. */
export interface ProjectEventHeaders extends Record<ProjectEventFlag, string> {
  push_events: 'Push Hook';
  tag_push_events: 'Tag Push Hook';
  issues_events: 'Issue Hook';
  merge_requests_events: 'Merge Request Hook';
  note_events: 'Note Hook';
  build_events: 'Build Hook';
  pipeline_events: 'Pipeline Hook';
  wiki_page_events: 'Wiki Page Hook';
}

/**
 * Queues the delivery of project events, in order, to each of the project's hooks that has
 * `flag` on, inside the caller's transaction: the events go out if and only if the change commits.
 */
export async function emitProjectEvents<F extends ProjectEventFlag>(
  ctx: ServiceContext,
  executor: Db,
  projectId: number,
  flag: F,
  eventHeader: ProjectEventHeaders[F],
  payloads: unknown[],
): Promise<void> {
  if (payloads.length === 0) return;
  const hooks = await executor
    .selectFrom('hooks')
    .select('id')
    .where('project_id', '=', projectId)
    .where(flag as ProjectEventFlag, '=', 1)
    .orderBy('id')
    .execute();
  const deliveries: HookDelivery[] = payloads.flatMap((payload) => hooks.map((hook) => ({ hookId: hook.id, event: eventHeader, payload })));
  await ctx.jobs.enqueueMany('hook.deliver', deliveries, executor);
}
