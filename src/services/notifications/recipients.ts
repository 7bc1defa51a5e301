import type { Db } from '../../db/index';
import type { Project } from '../projects/types';
import type { IssueRow } from '../issues/types';
import type { MergeRequestRow } from '../merge-requests/types';
import { issueReaders, mentionedUserIds, mergeRequestReaders } from '../todos/recipients';
import { textOf } from '../notify';
import type { EventName } from './levels';
import { effectiveSettings, labelSubscribers, subscriptionsOf, watcherCandidates, type Setting } from './queries';

/** An issue or a merge request, as its recipients are worked out. */
export type Target = { type: 'Issue'; project: Project; row: IssueRow } | { type: 'MergeRequest'; project: Project; row: MergeRequestRow };

/** What an event asks of the recipients' rules (8.12's `build_recipients` and `new_note`). */
export interface RecipientQuery {
  target: Target;
  /** The `custom` level's event; also says which are `new_*` and `reassign_*`. */
  event: EventName;
  /** Who acted: never mailed. Null for a pipeline's own change. */
  actorId: number | null;
  /** Users mentioned by this very change: they hear of it even at the `mention` level. */
  mentioned: number[];
  /** Of a reassignment: the assignee before. */
  previousAssigneeId?: number | null;
}

export interface Recipient {
  userId: number;
  setting: Setting;
}

/**
 * Who is mailed about a change of an issue or merge request, in 8.12's order: the participants, the
 * project's watchers and the `custom` users who chose the event; less `mention` users (but for those
 * this change mentions); plus both assignees of a reassignment; less `disabled` users; plus
 * subscribers (of a new one, its labels' too), less those who unsubscribed; only those who may read the target; never the actor.
 */
export async function recipientsOf(db: Db, query: RecipientQuery): Promise<Recipient[]> {
  const { target, event, actorId, mentioned } = query;
  const { project, row } = target;
  const owner = project.namespace.kind === 'user' ? project.namespace.owner_id : null;
  const isNew = event === 'new_issue' || event === 'new_merge_request';
  const [participants, candidates, subscriptions, labelWatchers] = await Promise.all([
    participantsOf(db, target),
    watcherCandidates(db, { id: project.id, namespace_id: project.namespace_id, owner_id: owner }),
    subscriptionsOf(db, target.type, row.id),
    isNew ? labelSubscribers(db, target.type, row.id) : [],
  ]);
  const reassigned = event.startsWith('reassign_') ? [query.previousAssigneeId ?? null, row.assignee_id].filter((id) => id !== null) : [];
  const subscribed = [...[...subscriptions].filter(([, yes]) => yes).map(([userId]) => userId), ...labelWatchers];
  const everyone = [...new Set([...participants, ...candidates, ...mentioned, ...reassigned, ...subscribed])];
  const settings = await effectiveSettings(db, everyone, project);
  const levelOf = (userId: number) => settings.get(userId)!.level;

  const chosen = new Set<number>(participants);
  for (const userId of candidates) {
    const setting = settings.get(userId)!;
    if (setting.level === 'watch' || (setting.level === 'custom' && setting.events[event])) chosen.add(userId);
  }
  for (const userId of [...chosen]) if (levelOf(userId) === 'mention') chosen.delete(userId);
  for (const userId of [...mentioned, ...reassigned]) chosen.add(userId);
  for (const userId of [...chosen]) if (levelOf(userId) === 'disabled') chosen.delete(userId);
  for (const userId of subscribed) chosen.add(userId);
  for (const [userId, yes] of subscriptions) if (!yes) chosen.delete(userId);
  if (actorId !== null) chosen.delete(actorId);

  const ids = [...chosen];
  const readers = target.type === 'Issue' ? await issueReaders(db, project, target.row, ids) : await mergeRequestReaders(db, project, ids);
  return readers.map((userId) => ({ userId, setting: settings.get(userId)! }));
}

/** 8.12's `participants`: the author, the assignee, who commented, who the title and description mention. */
async function participantsOf(db: Db, target: Target): Promise<number[]> {
  const { row, project } = target;
  const commenters = await db
    .selectFrom('notes')
    .select('author_id')
    .distinct()
    .where('noteable_type', '=', target.type)
    .where('noteable_id', '=', row.id)
    .where('system', '=', 0)
    .execute();
  const ids = [row.author_id, row.assignee_id, ...commenters.map((note) => note.author_id)].filter((id): id is number => id !== null);
  if (row.author_id !== null) {
    const author = await db.selectFrom('users').select(['id', 'admin', 'external']).where('id', '=', row.author_id).executeTakeFirst();
    if (author) ids.push(...(await mentionedUserIds(db, textOf(row), project, author)));
  }
  return [...new Set(ids)];
}
