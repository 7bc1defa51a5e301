import type { Caller } from '../policy';
import { can, canOnGroup } from '../policy';
import type { ProjectsService } from '../projects/projects';
import type { GroupsService } from '../groups/groups';
import type { MemberRow, MemberSource, SourceKind } from './types';

export interface SourceFinders {
  projects: Pick<ProjectsService, 'find' | 'findReadable'>;
  groups: Pick<GroupsService, 'find' | 'findReadable'>;
}

/** The project or group if the caller may read it (`404 Project Not Found` / `404 Group Not Found` otherwise). */
export async function findSource(finders: SourceFinders, kind: SourceKind, id: string, caller: Caller): Promise<MemberSource> {
  if (kind === 'projects') {
    const { project, standing } = await finders.projects.findReadable(id, caller);
    return {
      type: 'Project',
      id: project.id,
      project,
      callerAdmins: can(standing, 'admin_project_member'),
      requestAccessEnabled: project.request_access_enabled === 1,
    };
  }
  const { group, standing } = await finders.groups.findReadable(id, caller);
  return {
    type: 'Namespace',
    id: group.id,
    group,
    callerAdmins: canOnGroup(standing, 'admin_group_member'),
    requestAccessEnabled: group.request_access_enabled === 1,
  };
}

/** What a membership row belongs to, for background work (nobody calls); undefined once it is gone. */
export async function sourceOfRow(finders: SourceFinders, row: MemberRow): Promise<MemberSource | undefined> {
  if (row.source_type === 'Project') {
    const project = await finders.projects.find(row.source_id);
    return project && { type: 'Project', id: project.id, project, callerAdmins: true, requestAccessEnabled: project.request_access_enabled === 1 };
  }
  const group = await finders.groups.find(row.source_id);
  return group && { type: 'Namespace', id: group.id, group, callerAdmins: true, requestAccessEnabled: group.request_access_enabled === 1 };
}

/** The user owning a personal project's namespace: always its member, never removable. */
export function personalOwnerId(source: MemberSource): number | null {
  return source.type === 'Project' && source.project.namespace.kind === 'user' ? source.project.namespace.owner_id : null;
}
