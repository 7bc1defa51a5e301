import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';

/** GitLab formats times in hook payloads with Ruby's `xmlschema`: seconds, `Z`. */
export const xmlschema = (iso: string | null | undefined): string | null => (iso ? iso.replace(/\.\d{3}Z$/, 'Z') : null);

export function userEventData(user: { id: number; name: string; email: string; username: string; created_at: string; updated_at: string }) {
  return {
    created_at: xmlschema(user.created_at),
    updated_at: xmlschema(user.updated_at),
    name: user.name,
    email: user.email,
    user_id: user.id,
    username: user.username,
  };
}

/**
 * Queues the delivery of a system event to every system hook, inside the
 * caller's transaction: the event goes out if and only if the change commits.
 */
export async function emitSystemEvent(ctx: ServiceContext, executor: Db, eventName: string, data: Record<string, unknown>): Promise<void> {
  const hooks = await executor.selectFrom('hooks').select('id').where('project_id', 'is', null).execute();
  const payload = { event_name: eventName, ...data };
  for (const hook of hooks) {
    await ctx.jobs.enqueue('hook.deliver', { hookId: hook.id, event: 'System Hook', payload }, executor);
  }
}
