import { Type, type Static } from '@sinclair/typebox';
import type { Hook as HookRow } from '../../../services/hooks/system-hooks';
import { Timestamp } from './common';

/** A system hook as listed and created. */
export const SystemHook = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  created_at: Timestamp,
});

/** The deleted hook: GitLab answered the raw record; the spec names these fields (never the token). */
export const SystemHookRecord = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
  project_id: Type.Null(),
  service_id: Type.Null(),
  enable_ssl_verification: Type.Boolean(),
  push_events: Type.Boolean(),
  tag_push_events: Type.Boolean(),
  issues_events: Type.Boolean(),
  merge_requests_events: Type.Boolean(),
  note_events: Type.Boolean(),
});

/** What testing a system hook answers: the sample event it sent. */
export const HookTestResult = Type.Object({
  event_name: Type.String(),
  name: Type.String(),
  path: Type.String(),
  project_id: Type.Integer(),
  owner_name: Type.String(),
  owner_email: Type.String(),
});

export function presentSystemHook(hook: HookRow): Static<typeof SystemHook> {
  return { id: hook.id, url: hook.url, created_at: hook.created_at };
}

export function presentSystemHookRecord(hook: HookRow): Static<typeof SystemHookRecord> {
  return {
    id: hook.id,
    url: hook.url,
    created_at: hook.created_at,
    updated_at: hook.updated_at,
    project_id: null,
    service_id: null,
    enable_ssl_verification: hook.enable_ssl_verification === 1,
    push_events: hook.push_events === 1,
    tag_push_events: hook.tag_push_events === 1,
    issues_events: hook.issues_events === 1,
    merge_requests_events: hook.merge_requests_events === 1,
    note_events: hook.note_events === 1,
  };
}
