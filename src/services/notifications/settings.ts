import type { ServiceContext } from '../context';
import { badRequest } from '../../errors';
import { EVENTS, LEVELS, type EventName, type Events, type Level } from './levels';
import { groupIdsOf, reachedProjectIds } from '../policy-reach';
import { readSetting, writeSetting, type Setting, type SourceType } from './queries';

/** A page lists at most this many chosen levels of each kind. */
const CHOSEN_LIMIT = 200;

/** What a caller may change of a setting: the level, the `custom` events, and globally the address. */
export interface SettingChange {
  level?: string;
  notification_email?: string;
  events?: Partial<Record<EventName, boolean>>;
}

/** A level the user chose for one project or group, with what names it on a page. */
export interface ChosenSetting {
  sourceType: 'Project' | 'Namespace';
  sourceId: number;
  level: Level;
  /** The group's name, or the project's `namespace / name`. */
  name: string;
  /** The group's path, or the project's `namespace/path`. */
  fullPath: string;
}

export interface SettingView {
  level: Level;
  events: Events;
  /** Global only: where mails go (the primary address unless chosen). */
  notification_email?: string;
}

/**
 * A user's notification settings (GitLab's `notification_settings` API): global, per project, per
 * group. A project's or group's setting is `global` until chosen: it then follows the global one.
 */
export class NotificationSettingsService {
  constructor(private readonly ctx: ServiceContext) {}

  async global(user: { id: number; email: string }): Promise<SettingView> {
    const setting = await readSetting(this.ctx.db, user.id, 'Global', 0);
    return { level: setting.level, events: setting.events, notification_email: setting.notification_email || user.email };
  }

  async updateGlobal(user: { id: number; email: string }, change: SettingChange): Promise<SettingView> {
    if (change.level === 'global') throw badRequest('level is invalid: the global setting cannot be "global"');
    const current = await readSetting(this.ctx.db, user.id, 'Global', 0);
    const next = this.changed(current, change);
    if (change.notification_email !== undefined) next.notification_email = await this.ownAddress(user, change.notification_email);
    await writeSetting(this.ctx.db, user.id, 'Global', 0, next);
    return this.global(user);
  }

  async of(userId: number, sourceType: Exclude<SourceType, 'Global'>, sourceId: number): Promise<SettingView> {
    const { level, events } = await readSetting(this.ctx.db, userId, sourceType, sourceId);
    return { level, events };
  }

  async update(userId: number, sourceType: Exclude<SourceType, 'Global'>, sourceId: number, change: SettingChange): Promise<SettingView> {
    const current = await readSetting(this.ctx.db, userId, sourceType, sourceId);
    await writeSetting(this.ctx.db, userId, sourceType, sourceId, { ...this.changed(current, change), notification_email: null });
    return this.of(userId, sourceType, sourceId);
  }

  /**
   * The project and group levels the user set (a row of theirs), by name, for those the user may
   * still see (public ones, internal ones unless external, those of their memberships; all for an
   * administrator): a row of a project they left stays, unlisted, as GitLab kept it.
   */
  async chosen(user: { id: number; admin: number; external: number }): Promise<ChosenSetting[]> {
    const userId = user.id;
    const open = user.external === 1 ? 20 : 10;
    const all = user.admin === 1;
    const [projects, groups] = await Promise.all([
      this.ctx.db
        .selectFrom('notification_settings as s')
        .innerJoin('projects as p', 'p.id', 's.source_id')
        .innerJoin('namespaces as n', 'n.id', 'p.namespace_id')
        .select(['s.source_id', 's.level', 'p.name', 'p.path', 'n.name as namespace_name', 'n.path as namespace_path'])
        .where('s.user_id', '=', userId)
        .where('s.source_type', '=', 'Project')
        .$if(!all, (query) =>
          query.where((eb) => eb.or([eb('p.visibility_level', '>=', open), eb('p.id', 'in', reachedProjectIds(userId))])),
        )
        .orderBy('n.path')
        .orderBy('p.path')
        .limit(CHOSEN_LIMIT)
        .execute(),
      this.ctx.db
        .selectFrom('notification_settings as s')
        .innerJoin('namespaces as n', 'n.id', 's.source_id')
        .select(['s.source_id', 's.level', 'n.name', 'n.path'])
        .where('s.user_id', '=', userId)
        .where('s.source_type', '=', 'Namespace')
        .where('n.kind', '=', 'group')
        .$if(!all, (query) => query.where((eb) => eb.or([eb('n.visibility_level', '>=', open), eb('n.id', 'in', groupIdsOf(userId))])))
        .orderBy('n.path')
        .limit(CHOSEN_LIMIT)
        .execute(),
    ]);
    return [
      ...groups.map((row) => ({
        sourceType: 'Namespace' as const,
        sourceId: row.source_id,
        level: row.level as Level,
        name: row.name,
        fullPath: row.path,
      })),
      ...projects.map((row) => ({
        sourceType: 'Project' as const,
        sourceId: row.source_id,
        level: row.level as Level,
        name: `${row.namespace_name} / ${row.name}`,
        fullPath: `${row.namespace_path}/${row.path}`,
      })),
    ];
  }

  private changed(current: Setting, change: SettingChange): Setting {
    if (change.level !== undefined && !(LEVELS as readonly string[]).includes(change.level))
      throw badRequest(`level does not have a valid value (${LEVELS.join(', ')})`);
    const events = { ...current.events };
    for (const name of EVENTS) if (change.events?.[name] !== undefined) events[name] = change.events[name]!;
    return { level: (change.level as Level | undefined) ?? current.level, events, notification_email: current.notification_email };
  }

  /** 8.12 let a user pick one of their own addresses (the primary or a secondary one); empty means the primary one. */
  private async ownAddress(user: { id: number; email: string }, email: string): Promise<string | null> {
    if (email === '' || email.toLowerCase() === user.email.toLowerCase()) return null;
    const secondary = await this.ctx.db
      .selectFrom('emails')
      .select('email')
      .where('user_id', '=', user.id)
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .executeTakeFirst();
    if (!secondary) throw badRequest('notification_email is invalid: it must be one of your e-mail addresses');
    return secondary.email;
  }
}
