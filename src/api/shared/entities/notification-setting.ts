import { Type, type Static } from '@sinclair/typebox';
import type { SettingView } from '../../../services/notifications/settings';
import { EVENTS, LEVELS } from '../../../services/notifications/levels';

/*
 * GitLab's `NotificationSetting` and `GlobalNotificationSetting` entities, the same in v3 and v4:
 * the level, the address (global only), and the `custom` level's events when that is the level.
 */

export const NotificationEvents = Type.Object(Object.fromEntries(EVENTS.map((name) => [name, Type.Boolean()])));

export const NotificationSetting = Type.Object({
  level: Type.String({ description: LEVELS.join(', ') }),
  notification_email: Type.Optional(Type.String()),
  events: Type.Optional(NotificationEvents),
});

export function presentNotificationSetting(view: SettingView): Static<typeof NotificationSetting> {
  return {
    level: view.level,
    ...(view.notification_email !== undefined ? { notification_email: view.notification_email } : {}),
    ...(view.level === 'custom' ? { events: view.events } : {}),
  };
}

/** The PUT body: a level, and for `custom` each event on or off (`new_note=true`…); globally also the address. */
export const NotificationSettingChange = Type.Object({
  level: Type.Optional(Type.String()),
  notification_email: Type.Optional(Type.String()),
  ...Object.fromEntries(EVENTS.map((name) => [name, Type.Optional(Type.Boolean())])),
});

export function settingChange(body: Record<string, unknown>) {
  const events = Object.fromEntries(EVENTS.filter((name) => typeof body[name] === 'boolean').map((name) => [name, body[name] as boolean]));
  return {
    level: body.level as string | undefined,
    notification_email: body.notification_email as string | undefined,
    events,
  };
}
