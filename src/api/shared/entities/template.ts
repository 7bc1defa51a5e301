import { Type, type Static } from '@sinclair/typebox';
import type { License } from '../../../services/templates/licenses';
import type { FileTemplate } from '../../../services/templates/file-templates';
import { Nullable } from '../schemas';

/** GitLab's `RepoLicense`; `featured` is the spec's name for GitLab's `popular`, both are sent. */
export const LicenseTemplate = Type.Object({
  key: Type.String(),
  name: Type.String(),
  nickname: Nullable(Type.String()),
  popular: Type.Boolean(),
  featured: Type.Boolean(),
  html_url: Type.String(),
  source_url: Type.String(),
  description: Type.String(),
  conditions: Type.Array(Type.String()),
  permissions: Type.Array(Type.String()),
  limitations: Type.Array(Type.String()),
  content: Type.String(),
});

/** GitLab's `TemplatesList`: names only. */
export const TemplateListItem = Type.Object({ name: Type.String() });

export const Template = Type.Object({ name: Type.String(), content: Type.String() });

export function presentLicense(license: License): Static<typeof LicenseTemplate> {
  return {
    key: license.key,
    name: license.name,
    nickname: license.nickname,
    popular: license.featured,
    featured: license.featured,
    html_url: license.htmlUrl,
    source_url: license.sourceUrl,
    description: license.description,
    conditions: license.conditions,
    permissions: license.permissions,
    limitations: license.limitations,
    content: license.content,
  };
}

export function presentTemplateListItem(template: FileTemplate): Static<typeof TemplateListItem> {
  return { name: template.name };
}

export function presentTemplate(template: FileTemplate): Static<typeof Template> {
  return { name: template.name, content: template.content };
}
