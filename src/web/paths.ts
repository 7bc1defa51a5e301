import type { Project } from '../services/projects/types';

/** A project's page, as GitLab's `web_url` names it. */
export const projectPath = (project: Project): string =>
  `/${encodeURIComponent(project.namespace.path)}/${encodeURIComponent(project.path)}`;

export const visibilityName = (level: number): string => (level >= 20 ? 'Public' : level >= 10 ? 'Internal' : 'Private');

/** Only a path of this site: a `redirect_to` must not send a signed-in user elsewhere. */
export function localPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined;
  return /^[\x21-\x7e]*$/.test(value) ? value : undefined;
}
