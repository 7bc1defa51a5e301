import { Type, type Static } from '@sinclair/typebox';
import type { Project as ProjectRecord } from '../../../services/projects/types';
import type { ProjectDetails } from '../../../services/projects/details';
import { projectUrls } from '../../../lib/urls';
import { presentUserBasic } from '../../shared/entities/user';
import {
  ProjectPermissions,
  SharedWithGroups,
  forkedFromOf,
  namespaceHumanName,
  openIssuesCount,
  presentPermissions,
  projectOwner,
} from '../../shared/entities/project';
import { Nullable, NullableTimestamp, Timestamp, type Presenter } from './common';

export const BasicProjectDetails = Type.Object({
  id: Type.Integer(),
  http_url_to_repo: Type.String(),
  web_url: Type.String(),
  name: Type.String(),
  name_with_namespace: Type.String(),
  path: Type.String(),
  path_with_namespace: Type.String(),
});

/** The raw namespace record GitLab 8.12 embedded in projects. */
export const ProjectNamespace = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  path: Type.String(),
  owner_id: Nullable(Type.Integer()),
  created_at: Timestamp,
  updated_at: Timestamp,
  type: Nullable(Type.String()),
  description: Type.String(),
  avatar: Nullable(Type.Object({ url: Nullable(Type.String()) })),
  share_with_group_lock: Type.Boolean(),
  visibility_level: Type.Integer(),
  request_access_enabled: Type.Boolean(),
  deleted_at: NullableTimestamp,
  lfs_enabled: Type.Boolean(),
});

export const Project = Type.Object({
  id: Type.Integer(),
  description: Nullable(Type.String()),
  default_branch: Nullable(Type.String()),
  tag_list: Type.Array(Type.String()),
  public: Type.Boolean(),
  archived: Type.Boolean(),
  visibility_level: Type.Integer(),
  ssh_url_to_repo: Type.String(),
  http_url_to_repo: Type.String(),
  web_url: Type.String(),
  owner: Type.Optional(
    Type.Object({
      name: Type.String(),
      username: Type.String(),
      id: Type.Integer(),
      state: Type.String(),
      avatar_url: Nullable(Type.String()),
      web_url: Type.String(),
      created_at: Type.Optional(Timestamp),
    }),
  ),
  name: Type.String(),
  name_with_namespace: Type.String(),
  path: Type.String(),
  path_with_namespace: Type.String(),
  container_registry_enabled: Type.Boolean(),
  issues_enabled: Type.Boolean(),
  merge_requests_enabled: Type.Boolean(),
  wiki_enabled: Type.Boolean(),
  builds_enabled: Type.Boolean(),
  snippets_enabled: Type.Boolean(),
  created_at: Timestamp,
  last_activity_at: Timestamp,
  shared_runners_enabled: Type.Boolean(),
  lfs_enabled: Type.Boolean(),
  creator_id: Nullable(Type.Integer()),
  namespace: ProjectNamespace,
  forked_from_project: Type.Optional(BasicProjectDetails),
  avatar_url: Nullable(Type.String()),
  star_count: Type.Integer(),
  forks_count: Type.Integer(),
  open_issues_count: Type.Optional(Type.Integer()),
  runners_token: Type.Optional(Type.String()),
  public_builds: Type.Boolean(),
  shared_with_groups: SharedWithGroups,
  only_allow_merge_if_build_succeeds: Type.Boolean(),
  request_access_enabled: Type.Boolean(),
  permissions: Type.Optional(ProjectPermissions),
  import_status: Type.Optional(Type.String()),
});

export type ProjectShape = Static<typeof Project>;

function urls(project: ProjectRecord, presenter: Presenter) {
  const { pathWithNamespace, web, http, ssh } = projectUrls(presenter, project);
  return { pathWithNamespace, webUrl: web, http, ssh };
}

export function presentBasicProject(
  project: ProjectRecord,
  presenter: Presenter,
  humanNamespace = project.namespace.name,
): Static<typeof BasicProjectDetails> {
  const { pathWithNamespace, webUrl, http } = urls(project, presenter);
  return {
    id: project.id,
    http_url_to_repo: http,
    web_url: webUrl,
    name: project.name,
    name_with_namespace: `${humanNamespace} / ${project.name}`,
    path: project.path,
    path_with_namespace: pathWithNamespace,
  };
}

export interface ProjectPresentOptions {
  /** Show `runners_token` (the caller may administer the project). */
  runnersToken?: string;
  /** Add `permissions` for the caller (ProjectWithAccess). */
  withAccess?: boolean;
}

export function presentProject(
  project: ProjectRecord,
  details: ProjectDetails,
  presenter: Presenter,
  options: ProjectPresentOptions = {},
): ProjectShape {
  const { pathWithNamespace, webUrl, http, ssh } = urls(project, presenter);
  const owner = projectOwner(project, details);
  const forkedFrom = forkedFromOf(project, details);
  const namespace = project.namespace;
  const shape: ProjectShape = {
    id: project.id,
    description: project.description,
    default_branch: project.default_branch,
    tag_list: JSON.parse(project.tag_list) as string[],
    public: project.visibility_level === 20,
    archived: project.archived === 1,
    visibility_level: project.visibility_level,
    ssh_url_to_repo: ssh,
    http_url_to_repo: http,
    web_url: webUrl,
    owner: owner ? Object.assign(presentUserBasic(owner, presenter), { created_at: owner.created_at }) : undefined,
    name: project.name,
    name_with_namespace: `${namespaceHumanName(project, details)} / ${project.name}`,
    path: project.path,
    path_with_namespace: pathWithNamespace,
    container_registry_enabled: project.container_registry_enabled === 1,
    issues_enabled: project.issues_enabled === 1,
    merge_requests_enabled: project.merge_requests_enabled === 1,
    wiki_enabled: project.wiki_enabled === 1,
    builds_enabled: project.builds_enabled === 1,
    snippets_enabled: project.snippets_enabled === 1,
    created_at: project.created_at,
    last_activity_at: project.last_activity_at,
    shared_runners_enabled: project.shared_runners_enabled === 1,
    lfs_enabled: project.lfs_enabled === 1,
    creator_id: project.creator_id,
    namespace: {
      id: namespace.id,
      name: namespace.name,
      path: namespace.path,
      owner_id: namespace.owner_id,
      created_at: namespace.created_at,
      updated_at: namespace.updated_at,
      type: namespace.kind === 'group' ? 'Group' : null,
      description: namespace.description ?? '',
      avatar: namespace.kind === 'group' ? { url: null } : null,
      share_with_group_lock: namespace.share_with_group_lock === 1,
      visibility_level: namespace.visibility_level,
      request_access_enabled: namespace.request_access_enabled === 1,
      deleted_at: null,
      lfs_enabled: namespace.lfs_enabled === 1,
    },
    forked_from_project: forkedFrom ? presentBasicProject(forkedFrom, presenter) : undefined,
    avatar_url: null,
    star_count: project.star_count,
    forks_count: details.forksCount.get(project.id) ?? 0,
    open_issues_count: openIssuesCount(project, details),
    runners_token: options.runnersToken,
    public_builds: project.public_builds === 1,
    shared_with_groups: details.sharedWith.get(project.id) ?? [],
    only_allow_merge_if_build_succeeds: project.only_allow_merge_if_build_succeeds === 1,
    request_access_enabled: project.request_access_enabled === 1,
    import_status: project.import_status,
  };
  if (options.withAccess) shape.permissions = presentPermissions(project, details);
  return shape;
}
