import { Type, type Static } from '@sinclair/typebox';
import type { Group as GroupRow } from '../../../services/groups/groups';
import { Project, ProjectNamespace } from './project';
import { Nullable, type Presenter } from './common';
import { presentGroupCommon } from '../../shared/entities/group';

/** GitLab 8.12's `Entities::Group` (the list and create shape). */
export const Group = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  path: Type.String(),
  description: Type.String(),
  visibility_level: Type.Integer(),
  lfs_enabled: Type.Boolean(),
  avatar_url: Nullable(Type.String()),
  web_url: Type.String(),
  request_access_enabled: Type.Boolean(),
});

/** `Entities::GroupDetail`: the group with its projects and the projects shared with it. */
export const GroupDetail = Type.Object({ ...Group.properties, projects: Type.Array(Project), shared_projects: Type.Array(Project) });

/** The raw group record GitLab 8.12 answers after a delete or a transfer (the same columns a project's `namespace` shows). */
export const GroupRecord = ProjectNamespace;

export type GroupShape = Static<typeof Group>;

export function presentGroup(group: GroupRow, presenter: Presenter): GroupShape {
  return Object.assign(presentGroupCommon(group, presenter), { visibility_level: group.visibility_level });
}

export function presentGroupRecord(group: GroupRow): Static<typeof GroupRecord> {
  return {
    id: group.id,
    name: group.name,
    path: group.path,
    owner_id: group.owner_id,
    created_at: group.created_at,
    updated_at: group.updated_at,
    type: 'Group',
    description: group.description,
    avatar: { url: null },
    share_with_group_lock: group.share_with_group_lock === 1,
    visibility_level: group.visibility_level,
    request_access_enabled: group.request_access_enabled === 1,
    deleted_at: null,
    lfs_enabled: group.lfs_enabled === 1,
  };
}
