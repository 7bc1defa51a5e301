/** What clients may set on a project when creating or changing it. */
export interface ProjectAttributes {
  name?: string;
  path?: string;
  description?: string;
  default_branch?: string;
  issues_enabled?: boolean;
  merge_requests_enabled?: boolean;
  builds_enabled?: boolean;
  wiki_enabled?: boolean;
  snippets_enabled?: boolean;
  container_registry_enabled?: boolean;
  shared_runners_enabled?: boolean;
  /** The level asked for (0, 10 or 20); a door translates its own way of saying it (v3's `public` flag). */
  visibility_level?: number;
  import_url?: string;
  public_builds?: boolean;
  only_allow_merge_if_build_succeeds?: boolean;
  lfs_enabled?: boolean;
  request_access_enabled?: boolean;
}

/** The attributes stored as `0`/`1` columns of the same name. */
export const PROJECT_FLAGS = [
  'issues_enabled',
  'merge_requests_enabled',
  'builds_enabled',
  'wiki_enabled',
  'snippets_enabled',
  'container_registry_enabled',
  'shared_runners_enabled',
  'public_builds',
  'only_allow_merge_if_build_succeeds',
  'lfs_enabled',
  'request_access_enabled',
] as const;
