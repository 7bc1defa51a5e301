/**
 * GitLab 8.12's notification levels (`NotificationSetting.levels`) and the events a `custom` level
 * chooses among (`NotificationSetting::EMAIL_EVENTS`).
 */
export const LEVELS = ['disabled', 'participating', 'watch', 'global', 'mention', 'custom'] as const;
export type Level = (typeof LEVELS)[number];

export const EVENTS = [
  'new_note',
  'new_issue',
  'reopen_issue',
  'close_issue',
  'reassign_issue',
  'new_merge_request',
  'reopen_merge_request',
  'close_merge_request',
  'reassign_merge_request',
  'merge_merge_request',
] as const;
export type EventName = (typeof EVENTS)[number];

export type Events = Record<EventName, boolean>;

/** A user's global level until they choose one (8.12's default). */
export const DEFAULT_GLOBAL_LEVEL: Level = 'participating';

/** The stored JSON as every event, unknown names dropped and missing ones off. */
export function parseEvents(json: string): Events {
  let stored: Record<string, unknown> = {};
  try {
    stored = JSON.parse(json) ?? {};
  } catch {
    // A damaged value counts as no event chosen.
  }
  return Object.fromEntries(EVENTS.map((name) => [name, stored[name] === true])) as Events;
}
