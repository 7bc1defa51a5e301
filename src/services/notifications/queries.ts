import type { SelectQueryBuilder } from 'kysely';
import type { Db } from '../../db/index';
import type { Database } from '../../db/schema';
import { DEFAULT_GLOBAL_LEVEL, parseEvents, type Events, type Level } from './levels';

export type SourceType = 'Global' | 'Project' | 'Namespace';

export interface Setting {
  level: Level;
  events: Events;
  notification_email: string | null;
}

/** A user's setting for a source; a missing one is `global` (for a project or group) or `participating` (globally). */
export async function readSetting(db: Db, userId: number, sourceType: SourceType, sourceId: number): Promise<Setting> {
  const row = await db
    .selectFrom('notification_settings')
    .select(['level', 'events', 'notification_email'])
    .where('user_id', '=', userId)
    .where('source_type', '=', sourceType)
    .where('source_id', '=', sourceId)
    .executeTakeFirst();
  if (!row)
    return { level: sourceType === 'Global' ? DEFAULT_GLOBAL_LEVEL : 'global', events: parseEvents('{}'), notification_email: null };
  return { level: row.level as Level, events: parseEvents(row.events), notification_email: row.notification_email };
}

/** Creates or changes the row (one per user and source: the unique index; a racing insert is retried as an update). */
export async function writeSetting(db: Db, userId: number, sourceType: SourceType, sourceId: number, setting: Setting): Promise<void> {
  const time = new Date().toISOString();
  const values = { level: setting.level, events: JSON.stringify(setting.events), notification_email: setting.notification_email };
  await db
    .insertInto('notification_settings')
    .values({ user_id: userId, source_type: sourceType, source_id: sourceId, ...values, created_at: time, updated_at: time })
    .onConflict((oc) => oc.columns(['user_id', 'source_type', 'source_id']).doUpdateSet({ ...values, updated_at: time }))
    .execute();
}

/** Every user's effective setting for a project, for many users in one query: project, then group, then global. */
export async function effectiveSettings(
  db: Db,
  userIds: number[],
  project: { id: number; namespace_id: number },
): Promise<Map<number, Setting>> {
  const result = new Map<number, Setting>();
  if (userIds.length === 0) return result;
  const rows = await db
    .selectFrom('notification_settings')
    .select(['user_id', 'source_type', 'level', 'events', 'notification_email'])
    .where('user_id', 'in', [...new Set(userIds)])
    .where((eb) =>
      eb.or([
        eb('source_type', '=', 'Global'),
        eb.and([eb('source_type', '=', 'Project'), eb('source_id', '=', project.id)]),
        eb.and([eb('source_type', '=', 'Namespace'), eb('source_id', '=', project.namespace_id)]),
      ]),
    )
    .execute();
  const bySource = new Map<string, (typeof rows)[number]>(rows.map((row) => [`${row.user_id}:${row.source_type}`, row]));
  for (const userId of new Set(userIds)) {
    const chosen = ['Project', 'Namespace']
      .map((type) => bySource.get(`${userId}:${type}`))
      .find((row) => row !== undefined && row.level !== 'global');
    const global = bySource.get(`${userId}:Global`);
    const row = chosen ?? global;
    result.set(userId, {
      level: (row?.level as Level) ?? DEFAULT_GLOBAL_LEVEL,
      events: parseEvents(row?.events ?? '{}'),
      notification_email: global?.notification_email ?? null,
    });
  }
  return result;
}

/**
 * Who may watch a project: its team (its members, its group's, the owner of a personal project)
 * and whoever chose a level for it or its group (8.12 kept a setting row for each of those).
 */
export async function watcherCandidates(db: Db, project: { id: number; namespace_id: number; owner_id: number | null }): Promise<number[]> {
  const [members, settings] = await Promise.all([
    db
      .selectFrom('members')
      .select('user_id')
      .where('requested_at', 'is', null)
      .where((eb) =>
        eb.or([
          eb.and([eb('source_type', '=', 'Project'), eb('source_id', '=', project.id)]),
          eb.and([eb('source_type', '=', 'Namespace'), eb('source_id', '=', project.namespace_id)]),
        ]),
      )
      .execute(),
    db
      .selectFrom('notification_settings')
      .select('user_id')
      .where((eb) =>
        eb.or([
          eb.and([eb('source_type', '=', 'Project'), eb('source_id', '=', project.id)]),
          eb.and([eb('source_type', '=', 'Namespace'), eb('source_id', '=', project.namespace_id)]),
        ]),
      )
      .execute(),
  ]);
  const ids = [...members, ...settings].map((row) => row.user_id);
  if (project.owner_id !== null) ids.push(project.owner_id);
  return [...new Set(ids)];
}

/** The users' explicit subscriptions to a target: true subscribed, false unsubscribed. */
export async function subscriptionsOf(db: Db, type: 'Issue' | 'MergeRequest', id: number): Promise<Map<number, boolean>> {
  const rows = await db
    .selectFrom('subscriptions')
    .select(['user_id', 'subscribed'])
    .where('subscribable_type', '=', type)
    .where('subscribable_id', '=', id)
    .execute();
  return new Map(rows.map((row) => [row.user_id, row.subscribed === 1]));
}

/** Where each user's mail goes: their notification e-mail, else their primary address (active users only). */
export async function addressesOf(db: Db, userIds: number[], chosen: Map<number, Setting>): Promise<Map<number, string>> {
  if (userIds.length === 0) return new Map();
  const users = await db.selectFrom('users').select(['id', 'email']).where('id', 'in', userIds).where('state', '=', 'active').execute();
  return new Map(users.map((user) => [user.id, chosen.get(user.id)?.notification_email || user.email]));
}

/** Who subscribed to a label of the target (8.12's `add_labels_subscribers`, for new issues and merge requests). */
export async function labelSubscribers(db: Db, type: 'Issue' | 'MergeRequest', id: number): Promise<number[]> {
  const labels = db.selectFrom('label_links').select('label_id').where('target_type', '=', type).where('target_id', '=', id);
  return subscribersOf(db, labels);
}

/** Who subscribed to one of these labels (those just added to a target). */
export async function subscribersOfLabels(db: Db, labelIds: number[]): Promise<number[]> {
  return labelIds.length === 0 ? [] : subscribersOf(db, labelIds);
}

async function subscribersOf(
  db: Db,
  labels: number[] | SelectQueryBuilder<Database, 'label_links', { label_id: number }>,
): Promise<number[]> {
  const rows = await db
    .selectFrom('subscriptions')
    .select('user_id')
    .distinct()
    .where('subscribable_type', '=', 'Label')
    .where('subscribable_id', 'in', labels)
    .where('subscribed', '=', 1)
    .execute();
  return rows.map((row) => row.user_id);
}
