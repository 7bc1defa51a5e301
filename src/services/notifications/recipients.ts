import type { Db } from '../../db/index';
import type { Project } from '../projects/types';
import type { IssueRow } from '../issues/types';
import type { MergeRequestRow } from '../merge-requests/types';
import { issueReaders, mentionedUserIds, mergeRequestReaders } from '../todos/recipients';
import { textOf } from '../notify';
import type { EventName } from './levels';
import { effectiveSettings, labelSubscribers, subscribersOfLabels, subscriptionsOf, watcherCandidates, type Setting } from './queries';

/** An issue or a merge request, as its recipients are worked out. */
export type Target = { type: 'Issue'; project: Project; row: IssueRow } | { type: 'MergeRequest'; project: Project; row: MergeRequestRow };

/** What an event asks of the recipients' rules (8.12's `build_recipients` and `new_note`). */
export interface RecipientQuery {
  target: Target;
  /** The `custom` level's event; also says which are `new_*` and `reassign_*`. Null for a change no `custom` level chooses (a move, an automatic merge set). */
  event: EventName | null;
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
  const isReassign = event?.startsWith('reassign_') ?? false;
  const [participants, candidates, subscriptions, labelWatchers] = await Promise.all([
    participantsOf(db, target),
    watcherCandidates(db, { id: project.id, namespace_id: project.namespace_id, owner_id: owner }),
    subscriptionsOf(db, target.type, row.id),
    isNew ? labelSubscribers(db, target.type, row.id) : [],
  ]);
  const reassigned = isReassign ? [query.previousAssigneeId ?? null, row.assignee_id].filter((id) => id !== null) : [];
  const subscribed = [...[...subscriptions].filter(([, yes]) => yes).map(([userId]) => userId), ...labelWatchers];
  const everyone = [...new Set([...participants, ...candidates, ...mentioned, ...reassigned, ...subscribed])];
  const settings = await effectiveSettings(db, everyone, project);
  const levelOf = (userId: number) => settings.get(userId)!.level;

  const chosen = new Set<number>(participants);
  for (const userId of candidates) {
    const setting = settings.get(userId)!;
    if (setting.level === 'watch' || (setting.level === 'custom' && event !== null && setting.events[event])) chosen.add(userId);
  }
  for (const userId of [...chosen]) if (levelOf(userId) === 'mention') chosen.delete(userId);
  for (const userId of [...mentioned, ...reassigned]) chosen.add(userId);
  for (const userId of [...chosen]) if (levelOf(userId) === 'disabled') chosen.delete(userId);
  for (const userId of subscribed) chosen.add(userId);
  for (const [userId, yes] of subscriptions) if (!yes) chosen.delete(userId);
  if (actorId !== null) chosen.delete(actorId);

  const readers = await readersOf(db, target, [...chosen]);
  return readers.map((userId) => ({ userId, setting: settings.get(userId)! }));
}

/**
 * 8.12's `participants`: the author, the assignee, who commented, and who the title, the
 * description and the comments mention (each text read as its author wrote it: `Participable`).
 */
async function participantsOf(db: Db, target: Target): Promise<number[]> {
  const { row, project } = target;
  const notes = await db
    .selectFrom('notes')
    .select(['author_id', 'note'])
    .where('noteable_type', '=', target.type)
    .where('noteable_id', '=', row.id)
    .where('system', '=', 0)
    .execute();
  const ids = [row.author_id, row.assignee_id, ...notes.map((note) => note.author_id)].filter((id): id is number => id !== null);
  // Each writer's texts together: one look-up of mentions per writer, however many comments.
  const textsBy = new Map<number, string[]>();
  const write = (authorId: number | null, text: string | null) => {
    if (authorId !== null && text) textsBy.set(authorId, [...(textsBy.get(authorId) ?? []), text]);
  };
  write(row.author_id, textOf(row));
  for (const note of notes) write(note.author_id, note.note);
  if (textsBy.size > 0) {
    const writers = await db
      .selectFrom('users')
      .select(['id', 'admin', 'external'])
      .where('id', 'in', [...textsBy.keys()])
      .execute();
    for (const writer of writers) ids.push(...(await mentionedUserIds(db, textsBy.get(writer.id)!.join('\n\n'), project, writer)));
  }
  return [...new Set(ids)];
}

/**
 * Who hears that labels were added (8.12's `build_relabeled_recipients`): those subscribed to one
 * of them, less those who unsubscribed from the target, only those who may read it, never the actor.
 */
export async function relabelRecipients(db: Db, target: Target, labelIds: number[], actorId: number): Promise<Recipient[]> {
  const [fans, subscriptions] = await Promise.all([subscribersOfLabels(db, labelIds), subscriptionsOf(db, target.type, target.row.id)]);
  const chosen = fans.filter((userId) => subscriptions.get(userId) !== false && userId !== actorId);
  const readers = await readersOf(db, target, chosen);
  const settings = await effectiveSettings(db, readers, target.project);
  return readers.map((userId) => ({ userId, setting: settings.get(userId)! }));
}

/** Those of the users who may read the target. */
export function readersOf(db: Db, target: Target, userIds: number[]): Promise<number[]> {
  return target.type === 'Issue' ? issueReaders(db, target.project, target.row, userIds) : mergeRequestReaders(db, target.project, userIds);
}
