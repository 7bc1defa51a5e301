import type { ServiceContext } from '../context';
import type { HookDelivery } from '../../jobs/kinds';
import { postForStatus } from './http-post';

/**
 * POSTs one event to one hook, as it is at delivery time (a deleted hook gets
 * nothing more). A non-2xx answer, a network error or a timeout fails the job,
 * to be retried.
 */
export async function deliverHook(ctx: ServiceContext, delivery: HookDelivery, signal: AbortSignal): Promise<void> {
  const hook = await ctx.db.selectFrom('hooks').selectAll().where('id', '=', delivery.hookId).executeTakeFirst();
  if (!hook) return;
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Gitlab-Event': delivery.event };
  if (hook.token) headers['X-Gitlab-Token'] = hook.token;
  const status = await postForStatus(new URL(hook.url), {
    headers,
    body: JSON.stringify(delivery.payload),
    verifyTls: hook.enable_ssl_verification === 1,
    signal: AbortSignal.any([signal, AbortSignal.timeout(ctx.config.hookTimeoutMs)]),
  });
  if (status < 200 || status >= 300) throw new Error(`hook ${hook.id} answered ${status}`);
}
