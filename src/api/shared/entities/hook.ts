import { Type, type Static } from '@sinclair/typebox';
import type { Hook as HookRow } from '../../../services/hooks/system-hooks';
import { Timestamp } from '../schemas';

/** A system hook as v3 lists it, and the part of v4's it shares. */
export const SystemHook = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  created_at: Timestamp,
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
