/**
 * The flags of a hook row, in the order GitLab 8.12's ProjectHook entity shows them: which events
 * a project hook receives, and whether its certificate is checked. System hooks carry the same
 * columns (they receive every system event whatever the flags say, pushes only by them).
 */
export const HOOK_FLAGS = [
  'push_events',
  'issues_events',
  'merge_requests_events',
  'tag_push_events',
  'note_events',
  'build_events',
  'pipeline_events',
  'wiki_page_events',
  'enable_ssl_verification',
] as const;

export type HookFlag = (typeof HOOK_FLAGS)[number];

/** GitLab's column defaults, which a new hook gets: pushes, with certificate checks; nothing else. */
export const HOOK_FLAG_DEFAULTS: Readonly<Record<HookFlag, boolean>> = {
  push_events: true,
  issues_events: false,
  merge_requests_events: false,
  tag_push_events: false,
  note_events: false,
  build_events: false,
  pipeline_events: false,
  wiki_page_events: false,
  enable_ssl_verification: true,
};

/** The given flags of a request, as `0`/`1` columns. */
export function flagColumns<T extends Partial<Record<HookFlag, boolean>>>(flags: T): { [K in keyof T]: 0 | 1 } {
  return Object.fromEntries(Object.entries(flags).map(([flag, on]) => [flag, on ? 1 : 0])) as { [K in keyof T]: 0 | 1 };
}
