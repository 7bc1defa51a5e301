import type { Group as GroupRow } from '../../../services/groups/groups';
import type { Presenter } from '../types';

/** A group's fields every API version shows alike; each version adds its visibility field (`api/v3|v4/entities/group.ts`). */
export function presentGroupCommon(group: GroupRow, presenter: Presenter) {
  return {
    id: group.id,
    name: group.name,
    path: group.path,
    description: group.description,
    lfs_enabled: group.lfs_enabled === 1,
    // Groups have no avatar uploads.
    avatar_url: null,
    web_url: `${presenter.externalUrl}/groups/${group.path}`,
    request_access_enabled: group.request_access_enabled === 1,
  };
}
