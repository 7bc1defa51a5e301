import { Type, type Static } from '@sinclair/typebox';
import type { Project as ProjectRecord } from '../../../services/projects/types';
import type { ProjectDetails } from '../../../services/projects/details';
import { projectUrls } from '../../../lib/urls';
import { visibilityName } from '../../../services/policy';
import { UserBasic, presentUserBasic } from '../../shared/entities/user';
import {
  ProjectPermissions,
  SharedWithGroups,
  forkedFromOf,
  namespaceHumanName,
  openIssuesCount,
  presentPermissions,
  projectOwner,
} from '../../shared/entities/project';
import { Nullable, Timestamp } from '../../shared/schemas';
import type { Presenter } from '../../shared/types';
import { Visibility } from './visibility';

/** GitLab v4's `NamespaceBasic`, as projects embed it. Forge has no subgroups: `parent_id` is always null. */
export const NamespaceBasic = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  path: Type.String(),
  kind: Type.Union([Type.Literal('user'), Type.Literal('group')]),
  full_path: Type.String(),
  parent_id: Type.Null(),
});

/** GitLab v4's `ProjectIdentity`: what a todo shows of its project, and the start of every project answer. */
export const ProjectIdentity = Type.Object({
  id: Type.Integer(),
  description: Nullable(Type.String()),
  name: Type.String(),
  name_with_namespace: Type.String(),
  path: Type.String(),
  path_with_namespace: Type.String(),
  created_at: Timestamp,
});

/** GitLab v4's `BasicProjectDetails` (a `ProjectIdentity` and more): what `simple=true` lists and what other answers embed. */
export const BasicProject = Type.Object({
  ...ProjectIdentity.properties,
  default_branch: Nullable(Type.String()),
  tag_list: Type.Array(Type.String()),
  ssh_url_to_repo: Type.String(),
  http_url_to_repo: Type.String(),
  web_url: Type.String(),
  avatar_url: Nullable(Type.String()),
  star_count: Type.Integer(),
  forks_count: Type.Integer(),
  last_activity_at: Timestamp,
  namespace: NamespaceBasic,
});

const Links = Type.Object({
  self: Type.String(),
  issues: Type.Optional(Type.String()),
  merge_requests: Type.Optional(Type.String()),
  repo_branches: Type.String(),
  labels: Type.String(),
  events: Type.String(),
  members: Type.String(),
});

/** GitLab v4's `Project` (and `ProjectWithAccess` when `permissions` is present), in GitLab 11's order. */
export const Project = Type.Object({
  ...BasicProject.properties,
  _links: Links,
  archived: Type.Boolean(),
  visibility: Visibility,
  owner: Type.Optional(UserBasic),
  container_registry_enabled: Type.Boolean(),
  issues_enabled: Type.Boolean(),
  merge_requests_enabled: Type.Boolean(),
  wiki_enabled: Type.Boolean(),
  jobs_enabled: Type.Boolean(),
  snippets_enabled: Type.Boolean(),
  shared_runners_enabled: Type.Boolean(),
  lfs_enabled: Type.Boolean(),
  creator_id: Nullable(Type.Integer()),
  forked_from_project: Type.Optional(BasicProject),
  import_status: Type.String(),
  open_issues_count: Type.Optional(Type.Integer()),
  runners_token: Type.Optional(Type.String()),
  public_jobs: Type.Boolean(),
  shared_with_groups: SharedWithGroups,
  only_allow_merge_if_pipeline_succeeds: Type.Boolean(),
  request_access_enabled: Type.Boolean(),
  permissions: Type.Optional(ProjectPermissions),
});

export type BasicProjectShape = Static<typeof BasicProject>;
export type ProjectShape = Static<typeof Project>;

/** A project's identity; `humanNamespace` is the owner's name for a personal namespace when known. */
export function presentProjectIdentity(project: ProjectRecord, humanNamespace = project.namespace.name): Static<typeof ProjectIdentity> {
  return {
    id: project.id,
    description: project.description,
    name: project.name,
    name_with_namespace: `${humanNamespace} / ${project.name}`,
    path: project.path,
    path_with_namespace: `${project.namespace.path}/${project.path}`,
    created_at: project.created_at,
  };
}

/**
 * A project's basic fields. `details` gives the owner's name for a personal namespace and the
 * forks count; without them (an answer embedding projects it did not load details for) the
 * namespace's own name (or `humanNamespace`, when the caller has it) and no forks are shown.
 */
export function presentBasicProject(
  project: ProjectRecord,
  presenter: Presenter,
  details?: ProjectDetails,
  humanNamespace = details ? namespaceHumanName(project, details) : project.namespace.name,
): BasicProjectShape {
  const { web, http, ssh } = projectUrls(presenter, project);
  const namespace = project.namespace;
  // One literal, `presentProjectIdentity`'s fields written out: a spread of them cost ten times the
  // whole object, and an object made so is slow to extend and to serialize (every page of projects).
  return {
    id: project.id,
    description: project.description,
    name: project.name,
    name_with_namespace: `${humanNamespace} / ${project.name}`,
    path: project.path,
    path_with_namespace: `${namespace.path}/${project.path}`,
    created_at: project.created_at,
    default_branch: project.default_branch,
    tag_list: JSON.parse(project.tag_list) as string[],
    ssh_url_to_repo: ssh,
    http_url_to_repo: http,
    web_url: web,
    avatar_url: null,
    star_count: project.star_count,
    forks_count: details?.forksCount.get(project.id) ?? 0,
    last_activity_at: project.last_activity_at,
    namespace: {
      id: namespace.id,
      name: namespace.name,
      path: namespace.path,
      kind: namespace.kind === 'group' ? 'group' : 'user',
      full_path: namespace.path,
      parent_id: null,
    },
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
  const owner = projectOwner(project, details);
  const forkedFrom = forkedFromOf(project, details);
  const api = `${presenter.externalUrl}/api/v4/projects/${project.id}`;
  const shape: ProjectShape = Object.assign(presentBasicProject(project, presenter, details), {
    _links: {
      self: api,
      issues: project.issues_enabled === 1 ? `${api}/issues` : undefined,
      merge_requests: project.merge_requests_enabled === 1 ? `${api}/merge_requests` : undefined,
      repo_branches: `${api}/repository/branches`,
      labels: `${api}/labels`,
      events: `${api}/events`,
      members: `${api}/members`,
    },
    archived: project.archived === 1,
    visibility: visibilityName(project.visibility_level) as ProjectShape['visibility'],
    owner: owner ? presentUserBasic(owner, presenter) : undefined,
    container_registry_enabled: project.container_registry_enabled === 1,
    issues_enabled: project.issues_enabled === 1,
    merge_requests_enabled: project.merge_requests_enabled === 1,
    wiki_enabled: project.wiki_enabled === 1,
    jobs_enabled: project.builds_enabled === 1,
    snippets_enabled: project.snippets_enabled === 1,
    shared_runners_enabled: project.shared_runners_enabled === 1,
    lfs_enabled: project.lfs_enabled === 1,
    creator_id: project.creator_id,
    forked_from_project: forkedFrom ? presentBasicProject(forkedFrom, presenter) : undefined,
    import_status: project.import_status,
    open_issues_count: openIssuesCount(project, details),
    runners_token: options.runnersToken,
    public_jobs: project.public_builds === 1,
    shared_with_groups: details.sharedWith.get(project.id) ?? [],
    only_allow_merge_if_pipeline_succeeds: project.only_allow_merge_if_build_succeeds === 1,
    request_access_enabled: project.request_access_enabled === 1,
    permissions: options.withAccess ? presentPermissions(project, details) : undefined,
  });
  return shape;
}
