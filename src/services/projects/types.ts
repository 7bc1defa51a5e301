import type { Selectable } from 'kysely';
import type { ProjectsTable } from '../../db/schema';
import type { NamespaceRow } from '../namespaces/types';

export type ProjectRow = Selectable<ProjectsTable>;
export type { NamespaceRow };

/** A project with its namespace, as most rules need both. */
export interface Project extends ProjectRow {
  namespace: NamespaceRow;
}

export type ProjectListScope = 'authorized' | 'owned' | 'starred' | 'all' | 'visible';

export interface ProjectListOptions {
  scope: ProjectListScope;
  archived?: boolean;
  visibility?: 'public' | 'internal' | 'private';
  search?: string;
  /** Also match the namespace's name (GET /projects/search/:query). */
  searchNamespace?: boolean;
  orderBy?: 'id' | 'name' | 'path' | 'created_at' | 'updated_at' | 'last_activity_at';
  sort?: 'asc' | 'desc';
  /** Only projects of these namespaces (a group's own projects). */
  namespaceId?: number;
  /** Only projects in the namespace or shared with the group (a group's project list). */
  groupId?: number;
  /** Only projects the caller owns, is a member of, or starred (narrowing the scope; any together). */
  owned?: boolean;
  membership?: boolean;
  starred?: boolean;
  /** Only the direct forks of this project. */
  forkedFromId?: number;
  /** Only projects in this user's personal namespace. */
  ownerId?: number;
  /** Projects with builds enabled first, then the requested order (a group's project list). */
  ciEnabledFirst?: boolean;
  offset: number;
  limit: number;
}
