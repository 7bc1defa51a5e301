import type { Db } from '../db/index';
import type { NotificationEvent } from '../jobs/kinds';
import type { ServiceContext } from './context';

/*
 * How a flow (issues, merge requests, notes, keys, pipelines) says "this may send e-mail": it queues
 * the event in its own transaction, and the notifications domain works out the recipients in the
 * background. Here, beside the policy, so that the flows never import the notifications domain
 * (which reads them) and the request path stays fast. Nothing is queued while e-mail is off.
 */

export async function notify(ctx: ServiceContext, executor: Db, events: NotificationEvent | NotificationEvent[]): Promise<void> {
  if (!ctx.config.smtpUrl) return;
  await ctx.jobs.enqueueMany('notifications.notify', Array.isArray(events) ? events : [events], executor);
}

/** The fields of an issue or a merge request whose change may send e-mail. */
export interface Notified {
  id: number;
  state: string;
  assignee_id: number | null;
  title: string;
  description: string | null;
}

/**
 * What an update of an issue or a merge request tells (8.12's `Issues::UpdateService#handle_changes`):
 * closed, reopened, reassigned, new mentions in the text, labels added. A merge is told by the merge itself.
 */
export function changeEvents(
  type: 'issue' | 'merge_request',
  before: Notified,
  after: Notified,
  actorId: number,
  addedLabelIds: number[] = [],
): NotificationEvent[] {
  const events: NotificationEvent[] = [];
  const target = type === 'issue' ? { issueId: after.id } : { mergeRequestId: after.id };
  const of = (kind: string) => ({ kind: `${type}.${kind}`, ...target, actorId }) as NotificationEvent;
  if (after.state === 'closed' && before.state !== 'closed') events.push(of('close'));
  if (after.state === 'reopened' && before.state === 'closed') events.push(of('reopen'));
  if (after.assignee_id !== before.assignee_id)
    events.push({ ...of('reassign'), previousAssigneeId: before.assignee_id } as NotificationEvent);
  if (after.title !== before.title || after.description !== before.description)
    events.push({ ...of('mentions'), previousText: textOf(before) } as NotificationEvent);
  if (addedLabelIds.length > 0) events.push({ ...of('relabel'), labelIds: addedLabelIds } as NotificationEvent);
  return events;
}

/** The text whose mentions count: the title and the description. */
export const textOf = (target: Pick<Notified, 'title' | 'description'>): string => `${target.title}\n\n${target.description ?? ''}`;
