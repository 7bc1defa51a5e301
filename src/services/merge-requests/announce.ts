import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import type { EventsService } from '../events/events';
import type { Caller } from '../policy';
import type { MergeRequestRow, Project } from './types';

/** The `object_attributes.action` of a Merge Request Hook. */
export type MergeRequestHookAction = 'open' | 'close' | 'reopen' | 'update' | 'merge';

/** A change to a merge request, told to the project's activity and its Merge Request Hooks in its transaction. */
export interface MergeRequestAnnouncement {
  /** The merge request as it ends up after the change. */
  mergeRequest: MergeRequestRow;
  /** Its target project. */
  project: Project;
  hookAction: MergeRequestHookAction;
  /** The event's action name: `opened` (also for a reopening, as 8.12 showed it), `closed`, or `accepted` for a merge. */
  eventAction?: 'opened' | 'closed' | 'accepted';
}

/**
 * Records the events and queues the Merge Request Hooks of the changes, in order, in their
 * transaction. Every change of a merge request's state goes through here.
 */
export async function announceMergeRequests(
  ctx: ServiceContext,
  events: EventsService,
  trx: Db,
  actor: Caller,
  announcements: MergeRequestAnnouncement[],
): Promise<void> {
  for (const { mergeRequest, project, eventAction } of announcements) {
    if (eventAction) {
      await events.record(trx, {
        projectId: project.id,
        authorId: actor.id,
        action: eventAction,
        targetId: mergeRequest.id,
        targetType: 'MergeRequest',
        targetTitle: mergeRequest.title,
      });
    }
    // TODO(mr-core): queue the Merge Request Hook (8.12's payload) with `emitProjectEvents(…, 'merge_requests_events', 'Merge Request Hook', …)`.
    void ctx;
  }
}
