import { Type, type Static } from '@sinclair/typebox';
import type { Group as GroupRow } from '../../../services/groups/groups';
import { visibilityName } from '../../../services/policy';
import { presentGroupCommon } from '../../shared/entities/group';
import { Nullable } from '../../shared/schemas';
import type { Presenter } from '../../shared/types';
import { Project } from './project';
import { Visibility } from './visibility';

/** GitLab v4's `Group`. Forge has no subgroups: the full path is the path, `parent_id` is null. */
export const Group = Type.Object({
  id: Type.Integer(),
  web_url: Type.String(),
  name: Type.String(),
  path: Type.String(),
  description: Type.String(),
  visibility: Visibility,
  lfs_enabled: Type.Boolean(),
  avatar_url: Nullable(Type.String()),
  request_access_enabled: Type.Boolean(),
  full_name: Type.String(),
  full_path: Type.String(),
  parent_id: Type.Null(),
});

/** `GroupDetail`: the group with its projects and the projects shared with it. */
export const GroupDetail = Type.Object({ ...Group.properties, projects: Type.Array(Project), shared_projects: Type.Array(Project) });

export type GroupShape = Static<typeof Group>;

export function presentGroup(group: GroupRow, presenter: Presenter): GroupShape {
  return Object.assign(presentGroupCommon(group, presenter), {
    visibility: visibilityName(group.visibility_level) as GroupShape['visibility'],
    full_name: group.name,
    full_path: group.path,
    parent_id: null,
  });
}
