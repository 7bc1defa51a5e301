import { Type, type Static } from '@sinclair/typebox';
import type { Hook as HookRow } from '../../../services/hooks/system-hooks';
import { SystemHook as SystemHookCommon, presentSystemHook as presentSystemHookCommon } from '../../shared/entities/hook';

/** GitLab 11's system hook: the flags that choose its events (Forge has no repository update event: always false). */
export const SystemHook = Type.Object({
  ...SystemHookCommon.properties,
  push_events: Type.Boolean(),
  tag_push_events: Type.Boolean(),
  merge_requests_events: Type.Boolean(),
  repository_update_events: Type.Boolean(),
  enable_ssl_verification: Type.Boolean(),
});

export function presentSystemHook(hook: HookRow): Static<typeof SystemHook> {
  return Object.assign(presentSystemHookCommon(hook), {
    push_events: hook.push_events === 1,
    tag_push_events: hook.tag_push_events === 1,
    merge_requests_events: hook.merge_requests_events === 1,
    repository_update_events: false,
    enable_ssl_verification: hook.enable_ssl_verification === 1,
  });
}
