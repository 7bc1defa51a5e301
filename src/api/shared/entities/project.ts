import { Type, type Static } from '@sinclair/typebox';
import type { Project as ProjectRecord } from '../../../services/projects/types';
import type { OwnerSummary, ProjectDetails } from '../../../services/projects/details';
import { Nullable } from '../schemas';

/*
 * What a project answer shows the same way in every API version; each version's entity
 * (`api/v3/entities/project.ts`, `api/v4/entities/project.ts`) adds its own fields and order.
 */

const MemberAccess = Nullable(Type.Object({ access_level: Type.Integer(), notification_level: Type.Integer() }));

/** GitLab's `ProjectWithAccess` addition: the caller's own membership of the project and of its group. */
export const ProjectPermissions = Type.Object({ project_access: MemberAccess, group_access: MemberAccess });

export const SharedWithGroups = Type.Array(
  Type.Object({ group_id: Type.Integer(), group_name: Type.String(), group_access_level: Type.Integer() }),
);

/** The namespace as people read it: a group's name, or the owner's name for a personal namespace. */
export function namespaceHumanName(project: ProjectRecord, details: ProjectDetails): string {
  if (project.namespace.kind === 'group') return project.namespace.name;
  const owner = project.namespace.owner_id !== null ? details.owners.get(project.namespace.owner_id) : undefined;
  return owner?.name ?? project.namespace.name;
}

/** The owner of a personal project (none for a group's). */
export function projectOwner(project: ProjectRecord, details: ProjectDetails): OwnerSummary | undefined {
  return project.namespace.kind === 'user' && project.namespace.owner_id !== null
    ? details.owners.get(project.namespace.owner_id)
    : undefined;
}

/** The project this one was forked from, when it still exists. */
export function forkedFromOf(project: ProjectRecord, details: ProjectDetails): ProjectRecord | undefined {
  return project.forked_from_project_id !== null ? details.forkedFrom.get(project.forked_from_project_id) : undefined;
}

export function presentPermissions(project: ProjectRecord, details: ProjectDetails): Static<typeof ProjectPermissions> {
  return {
    project_access: details.projectAccess.get(project.id) ?? null,
    group_access: project.namespace.kind === 'group' ? (details.groupAccess.get(project.namespace_id) ?? null) : null,
  };
}

/** Opened issues are shown only while issues are enabled, as GitLab did. */
export function openIssuesCount(project: ProjectRecord, details: ProjectDetails): number | undefined {
  return project.issues_enabled === 1 ? (details.openIssuesCount.get(project.id) ?? 0) : undefined;
}
