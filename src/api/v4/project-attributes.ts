import { Type } from '@sinclair/typebox';
import { TextString, givenAttributes } from '../shared/params';
import type { ProjectAttributes } from '../../services/projects/attributes';
import { Visibility, type VisibilityName, visibilityLevelOf } from './entities/visibility';

/** What a v4 create or update may set, in v4's words (`jobs_enabled`, `visibility` …). */
export const projectAttributes = {
  description: Type.Optional(TextString()),
  issues_enabled: Type.Optional(Type.Boolean()),
  merge_requests_enabled: Type.Optional(Type.Boolean()),
  jobs_enabled: Type.Optional(Type.Boolean()),
  wiki_enabled: Type.Optional(Type.Boolean()),
  snippets_enabled: Type.Optional(Type.Boolean()),
  container_registry_enabled: Type.Optional(Type.Boolean()),
  shared_runners_enabled: Type.Optional(Type.Boolean()),
  visibility: Type.Optional(Visibility),
  public_jobs: Type.Optional(Type.Boolean()),
  only_allow_merge_if_pipeline_succeeds: Type.Optional(Type.Boolean()),
  lfs_enabled: Type.Optional(Type.Boolean()),
  request_access_enabled: Type.Optional(Type.Boolean()),
};

interface V4ProjectBody {
  name?: string;
  path?: string;
  default_branch?: string;
  import_url?: string;
  description?: string;
  issues_enabled?: boolean;
  merge_requests_enabled?: boolean;
  jobs_enabled?: boolean;
  wiki_enabled?: boolean;
  snippets_enabled?: boolean;
  container_registry_enabled?: boolean;
  shared_runners_enabled?: boolean;
  visibility?: VisibilityName;
  public_jobs?: boolean;
  only_allow_merge_if_pipeline_succeeds?: boolean;
  lfs_enabled?: boolean;
  request_access_enabled?: boolean;
}

/** A v4 body's attributes as the service takes them; blank values set nothing (GitLab's `attributes_for_keys`). */
export function projectAttributesOf(body: V4ProjectBody): ProjectAttributes {
  const { jobs_enabled, public_jobs, only_allow_merge_if_pipeline_succeeds, visibility, ...same } = givenAttributes(body);
  const attributes: ProjectAttributes = { ...same };
  if (jobs_enabled !== undefined) attributes.builds_enabled = jobs_enabled;
  if (public_jobs !== undefined) attributes.public_builds = public_jobs;
  if (only_allow_merge_if_pipeline_succeeds !== undefined)
    attributes.only_allow_merge_if_build_succeeds = only_allow_merge_if_pipeline_succeeds;
  if (visibility !== undefined) attributes.visibility_level = visibilityLevelOf(visibility);
  return attributes;
}
