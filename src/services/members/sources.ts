import { can, canOnGroup, type GroupStanding, type ProjectStanding } from '../policy';
import type { ProjectsService } from '../projects/projects';
import type { Project } from '../projects/types';
import type { Group, GroupsService } from '../groups/groups';
import type { MemberRow, MemberSource } from './types';

export interface SourceFinders {
  projects: Pick<ProjectsService, 'find'>;
  groups: Pick<GroupsService, 'find'>;
}

/** A project the door's guard has found readable, as a membership source. */
export function projectSource(project: Project, standing: ProjectStanding): MemberSource {
  return {
    type: 'Project',
    id: project.id,
    project,
    callerAdmins: can(standing, 'admin_project_member'),
    requestAccessEnabled: project.request_access_enabled === 1,
  };
}

/** A group the door's guard has found readable, as a membership source. */
export function groupSource(group: Group, standing: GroupStanding): MemberSource {
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
    return (
      project && {
        type: 'Project',
        id: project.id,
        project,
        callerAdmins: true,
        requestAccessEnabled: project.request_access_enabled === 1,
      }
    );
  }
  const group = await finders.groups.find(row.source_id);
  return group && { type: 'Namespace', id: group.id, group, callerAdmins: true, requestAccessEnabled: group.request_access_enabled === 1 };
}

/** The user owning a personal project's namespace: always its member, never removable. */
export function personalOwnerId(source: MemberSource): number | null {
  return source.type === 'Project' && source.project.namespace.kind === 'user' ? source.project.namespace.owner_id : null;
}
