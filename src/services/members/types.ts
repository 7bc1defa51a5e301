import type { Selectable } from 'kysely';
import type { MembersTable } from '../../db/schema';
import type { User } from '../users/users';
import type { Project } from '../projects/types';
import type { Group } from '../groups/groups';

/** A `members` row: a membership, or an access request while `requested_at` is set. */
export type MemberRow = Selectable<MembersTable>;

export interface MemberWithUser {
  member: MemberRow;
  user: User;
}

/** `:sources` in the URL. */
export const SOURCE_KINDS = ['projects', 'groups'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

interface SourceBase {
  /** `members.source_id` */
  id: number;
  /** The caller may manage members and access requests: master of a project, owner of a group, or admin. */
  callerAdmins: boolean;
  requestAccessEnabled: boolean;
}

export interface ProjectSource extends SourceBase {
  type: 'Project';
  project: Project;
}

export interface GroupSource extends SourceBase {
  type: 'Namespace';
  group: Group;
}

/** What members belong to, as the caller may see it. */
export type MemberSource = ProjectSource | GroupSource;
