import { Type, type Static } from '@sinclair/typebox';
import type { Project as ProjectRecord } from '../../../services/projects/types';
import { projectUrls } from '../../../lib/urls';
import { Nullable, Timestamp } from '../../shared/schemas';
import type { Presenter } from '../../shared/types';

/**
 * GitLab 9–11's `Entities::BasicProjectDetails` as CI answers embed it (an environment's project, a
 * runner's projects), without the counts that need more queries (`forks_count`).
 */
export const ProjectBasic = Type.Object({
  id: Type.Integer(),
  description: Nullable(Type.String()),
  name: Type.String(),
  name_with_namespace: Type.String(),
  path: Type.String(),
  path_with_namespace: Type.String(),
  created_at: Timestamp,
  default_branch: Nullable(Type.String()),
  tag_list: Type.Array(Type.String()),
  ssh_url_to_repo: Type.String(),
  http_url_to_repo: Type.String(),
  web_url: Type.String(),
  avatar_url: Type.Null(),
  star_count: Type.Integer(),
  last_activity_at: Timestamp,
});

export function presentProjectBasic(
  project: ProjectRecord,
  presenter: Presenter,
  humanNamespace = project.namespace.name,
): Static<typeof ProjectBasic> {
  const { pathWithNamespace, web, http, ssh } = projectUrls(presenter, project);
  return {
    id: project.id,
    description: project.description,
    name: project.name,
    name_with_namespace: `${humanNamespace} / ${project.name}`,
    path: project.path,
    path_with_namespace: pathWithNamespace,
    created_at: project.created_at,
    default_branch: project.default_branch,
    tag_list: JSON.parse(project.tag_list) as string[],
    ssh_url_to_repo: ssh,
    http_url_to_repo: http,
    web_url: web,
    avatar_url: null,
    star_count: project.star_count,
    last_activity_at: project.last_activity_at,
  };
}
