import type { ServiceContext } from '../services/context';

export interface HookDelivery {
  hookId: number;
  /** The `X-Gitlab-Event` header: `System Hook`, `Push Hook`, … */
  event: string;
  payload: unknown;
}

/** POSTs one event to one hook; a non-2xx answer or a network error fails the job, to be retried. */
export async function deliverHook(ctx: ServiceContext, delivery: HookDelivery): Promise<void> {
  const hook = await ctx.db.selectFrom('hooks').selectAll().where('id', '=', delivery.hookId).executeTakeFirst();
  if (!hook) return; // deleted since: nothing to deliver
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Gitlab-Event': delivery.event };
  if (hook.token) headers['X-Gitlab-Token'] = hook.token;
  const response = await fetch(hook.url, {
    method: 'POST',
    headers,
    body: JSON.stringify(delivery.payload),
    signal: AbortSignal.timeout(ctx.config.hookTimeoutMs),
  });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`hook ${hook.id} answered ${response.status}`);
}
