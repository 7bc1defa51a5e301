import { Type, type Static } from '@sinclair/typebox';
import type { ProjectHook as ProjectHookRow } from '../../../services/hooks/project-hooks';
import { Timestamp } from './common';

/** GitLab's ProjectHook entity: the system hook fields, the project and every flag. Never the token. */
export const ProjectHook = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  created_at: Timestamp,
  project_id: Type.Integer(),
  push_events: Type.Boolean(),
  issues_events: Type.Boolean(),
  merge_requests_events: Type.Boolean(),
  tag_push_events: Type.Boolean(),
  note_events: Type.Boolean(),
  build_events: Type.Boolean(),
  pipeline_events: Type.Boolean(),
  wiki_page_events: Type.Boolean(),
  enable_ssl_verification: Type.Boolean(),
});

export function presentProjectHook(hook: ProjectHookRow): Static<typeof ProjectHook> {
  return {
    id: hook.id,
    url: hook.url,
    created_at: hook.created_at,
    project_id: hook.project_id,
    push_events: hook.push_events === 1,
    issues_events: hook.issues_events === 1,
    merge_requests_events: hook.merge_requests_events === 1,
    tag_push_events: hook.tag_push_events === 1,
    note_events: hook.note_events === 1,
    build_events: hook.build_events === 1,
    pipeline_events: hook.pipeline_events === 1,
    wiki_page_events: hook.wiki_page_events === 1,
    enable_ssl_verification: hook.enable_ssl_verification === 1,
  };
}
