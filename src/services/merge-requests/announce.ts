import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import type { EventsService } from '../events/events';
import type { Caller } from '../policy';
import type { MergeRequestRow, Project } from './types';
import { readCommits } from '../../git/commits';
import { repoPathOf } from '../repository/repositories';
import { attachNamespaces } from '../projects/queries';
import { emitProjectEvents } from '../hooks/project-events';
import { buildMergeRequestHookData, type MergeRequestHookAction, type MergeRequestHookParts } from './hook-data';
import { latestVersions } from './versions';

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
  if (announcements.length === 0) return;
  // Only projects with a Merge Request Hook pay for the payload (users, projects, commits read).
  const projectIds = [...new Set(announcements.map(({ project }) => project.id))];
  const hooks = await trx
    .selectFrom('hooks')
    .select('project_id')
    .where('project_id', 'in', projectIds)
    .where('merge_requests_events', '=', 1)
    .execute();
  const hooked = new Set(hooks.map((hook) => hook.project_id));
  const parts = hooked.size ? await hookParts(ctx, trx, actor, announcements) : undefined;
  for (const { mergeRequest, project, hookAction, eventAction } of announcements) {
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
    if (!parts?.actor || !hooked.has(project.id)) continue;
    const payload = buildMergeRequestHookData(
      mergeRequest,
      parts.actor,
      project,
      {
        source: mergeRequest.source_project_id === project.id ? project : parts.sources.get(mergeRequest.source_project_id ?? -1),
        lastCommit: parts.lastCommits.get(mergeRequest.id),
        assignee: mergeRequest.assignee_id === null ? undefined : parts.assignees.get(mergeRequest.assignee_id),
      },
      ctx.config,
      hookAction,
    );
    await emitProjectEvents(ctx, trx, project.id, 'merge_requests_events', 'Merge Request Hook', [payload]);
  }
}

/** The actor, assignees, source projects and last commits the payloads show, read once for all the announcements. */
async function hookParts(ctx: ServiceContext, trx: Db, actor: Caller, announcements: MergeRequestAnnouncement[]) {
  const rows = announcements.map(({ mergeRequest }) => mergeRequest);
  const userIds = [actor.id, ...rows.flatMap((row) => (row.assignee_id === null ? [] : [row.assignee_id]))];
  const sourceIds = [
    ...new Set(
      rows.flatMap((row) =>
        row.source_project_id === null || row.source_project_id === row.target_project_id ? [] : [row.source_project_id],
      ),
    ),
  ];
  const [users, sourceRows, versions] = await Promise.all([
    trx
      .selectFrom('users')
      .selectAll()
      .where('id', 'in', [...new Set(userIds)])
      .execute(),
    sourceIds.length ? trx.selectFrom('projects').selectAll().where('id', 'in', sourceIds).execute() : [],
    latestVersions(
      trx,
      rows.map((row) => row.id),
    ),
  ]);
  const userById = new Map(users.map((user) => [user.id, user]));
  const sources = new Map((await attachNamespaces(trx, sourceRows)).map((project) => [project.id, project]));
  const lastCommits = new Map<number, Awaited<ReturnType<typeof readCommits>>[number]>();
  for (const { mergeRequest, project } of announcements) {
    const head = versions.get(mergeRequest.id)?.head_commit_sha;
    if (!head || lastCommits.has(mergeRequest.id)) continue;
    // The source head is kept in the target repository (`versions.ts`), so it is read there.
    const [commit] = await readCommits(ctx.git, repoPathOf(ctx, project.id), [head]);
    if (commit) lastCommits.set(mergeRequest.id, commit);
  }
  return { actor: userById.get(actor.id), assignees: userById, sources, lastCommits };
}

/** What one merge request's `hook_attrs` show besides its columns (for the `merge_request` of a Note Hook). */
export async function mergeRequestHookParts(
  ctx: ServiceContext,
  trx: Db,
  actor: Caller,
  mergeRequest: MergeRequestRow,
  project: Project,
): Promise<MergeRequestHookParts> {
  const parts = await hookParts(ctx, trx, actor, [{ mergeRequest, project, hookAction: 'update' }]);
  return {
    source: mergeRequest.source_project_id === project.id ? project : parts.sources.get(mergeRequest.source_project_id ?? -1),
    lastCommit: parts.lastCommits.get(mergeRequest.id),
    assignee: mergeRequest.assignee_id === null ? undefined : parts.assignees.get(mergeRequest.assignee_id),
  };
}
