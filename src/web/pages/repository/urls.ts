import type { Project } from '../../../services/projects/types';
import { projectPath } from '../../paths';

/** Each segment of a ref or a path escaped on its own, so that its slashes stay separators. */
export const encodeSegments = (value: string): string => value.split('/').map(encodeURIComponent).join('/');

/** A repository page of a ref and a path: `/group/project/tree/feature/x/src`. */
export function refUrl(project: Project, kind: 'tree' | 'blob' | 'raw' | 'blame' | 'commits', ref: string, path = ''): string {
  return `${projectPath(project)}/${kind}/${encodeSegments(ref)}${path === '' ? '' : `/${encodeSegments(path)}`}`;
}

/** The web editor's pages: a new file in a folder, an edit of a file (`…/new/master/docs`, `…/edit/master/README.md`). */
export function editorUrl(project: Project, kind: 'new' | 'edit', ref: string, path = ''): string {
  return `${projectPath(project)}/${kind}/${encodeSegments(ref)}${path === '' ? '' : `/${encodeSegments(path)}`}`;
}

export const commitUrl = (project: Project, sha: string): string => `${projectPath(project)}/commit/${encodeURIComponent(sha)}`;
