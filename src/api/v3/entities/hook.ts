import { Type, type Static } from '@sinclair/typebox';
import type { Hook as HookRow } from '../../../services/hooks/system-hooks';
import { Timestamp } from './common';
import { flagProperties, presentFlags } from '../../shared/entities/hook-flags';

/** The flags the spec shows of a deleted system hook's record, in its order. */
const RECORD_FLAGS = [
  'enable_ssl_verification',
  'push_events',
  'tag_push_events',
  'issues_events',
  'merge_requests_events',
  'note_events',
] as const;

/** The deleted hook: GitLab answered the raw record; the spec names these fields (never the token). */
export const SystemHookRecord = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
  project_id: Type.Null(),
  service_id: Type.Null(),
  ...flagProperties(RECORD_FLAGS),
});

export function presentSystemHookRecord(hook: HookRow): Static<typeof SystemHookRecord> {
  return {
    id: hook.id,
    url: hook.url,
    created_at: hook.created_at,
    updated_at: hook.updated_at,
    project_id: null,
    service_id: null,
    ...presentFlags(hook, RECORD_FLAGS),
  };
}
