import type { ServiceContext } from '../context';
import { badRequest } from '../../errors';
import { EVENTS, LEVELS, type EventName, type Events, type Level } from './levels';
import { readSetting, writeSetting, type Setting, type SourceType } from './queries';

/** What a caller may change of a setting: the level, the `custom` events, and globally the address. */
export interface SettingChange {
  level?: string;
  notification_email?: string;
  events?: Partial<Record<EventName, boolean>>;
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
