import { Type, type Static } from '@sinclair/typebox';
import type { ProjectHook as ProjectHookRow } from '../../../services/hooks/project-hooks';
import { Timestamp } from './common';
import { HOOK_FLAGS } from '../../../services/hooks/flags';
import { flagProperties, presentFlags } from '../../shared/entities/hook-flags';

/** GitLab's ProjectHook entity: the system hook fields, the project and every flag. Never the token. */
export const ProjectHook = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  created_at: Timestamp,
  project_id: Type.Integer(),
  ...flagProperties(HOOK_FLAGS),
});

export function presentProjectHook(hook: ProjectHookRow): Static<typeof ProjectHook> {
  return {
    id: hook.id,
    url: hook.url,
    created_at: hook.created_at,
    project_id: hook.project_id,
    ...presentFlags(hook, HOOK_FLAGS),
  };
}
