import type { ServiceContext } from '../context';
import type { HookDelivery } from '../../jobs/kinds';
import { sendToHook } from './hook-logs';

/**
 * POSTs one event to one hook, as it is at delivery time (a deleted hook gets
 * nothing more), and records the delivery. A non-2xx answer, a network error or a
 * timeout fails the job, to be retried.
 */
export async function deliverHook(ctx: ServiceContext, delivery: HookDelivery, signal: AbortSignal): Promise<void> {
  const hook = await ctx.db.selectFrom('hooks').selectAll().where('id', '=', delivery.hookId).executeTakeFirst();
  if (!hook) return;
  const outcome = await sendToHook(ctx, { hook, event: delivery.event, payload: delivery.payload, test: delivery.test === true, signal });
  if (!outcome.delivered) throw new Error(`hook ${hook.id}: ${outcome.reason}`);
  if (outcome.status < 200 || outcome.status >= 300) throw new Error(`hook ${hook.id} answered ${outcome.status}`);
}
