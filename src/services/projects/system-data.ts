import { visibilityName } from '../policy';
import { xmlschema } from '../hooks/system-events';
import type { Project } from './types';

/** GitLab 8.12's system hook data for a project event (`SystemHooksService#project_data`). */
export function projectEventData(project: Project, owner: { name: string; email: string } | undefined) {
  return {
    created_at: xmlschema(project.created_at),
    updated_at: xmlschema(project.updated_at),
    name: project.name,
    path: project.path,
    path_with_namespace: `${project.namespace.path}/${project.path}`,
    project_id: project.id,
    owner_name: owner?.name ?? '',
    owner_email: owner?.email ?? '',
    project_visibility: visibilityName(project.visibility_level),
  };
}
