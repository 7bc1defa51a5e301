import { encodeSegments } from './pages/repository/urls';

/**
 * Where a repository file's Markdown is shown from: its project's page, the ref it is shown at
 * (a branch or tag name, as in the page's URL) and the folder holding it ('' for the root).
 */
export interface RelativeBase {
  projectPath: string;
  ref: string;
  folder: string;
}

/** A URL with a scheme (`https:`, `mailto:`, `javascript:`): never a repository path. */
const SCHEME = /^[a-z][a-z\d+.-]*:/i;

/** The folder of a file's path ('' for a file at the root). */
export const folderOf = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');

/**
 * A link or image of a repository file's Markdown, resolved as GitLab's relative link filter does:
 * `docs/setup.md` against the file's folder at the shown ref (`…/blob/:ref/docs/setup.md`), an
 * image to its raw bytes (`…/raw/:ref/img/a.png`), a folder (`docs/`) to its tree. Absolute URLs,
 * `#anchors`, `/root-relative` and `//host` paths are left as written; `..` stops at the root.
 */
export function resolveRelative(href: string, base: RelativeBase, kind: 'link' | 'image'): string {
  const trimmed = href.trim();
  if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith('/') || trimmed.startsWith('\\') || SCHEME.test(trimmed)) return href;
  const end = trimmed.search(/[?#]/);
  const target = end < 0 ? trimmed : trimmed.slice(0, end);
  const suffix = end < 0 ? '' : trimmed.slice(end);
  const segments = base.folder === '' ? [] : base.folder.split('/').map(encodeURIComponent);
  for (const segment of target.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  const folder = target.endsWith('/') || segments.length === 0;
  const view = kind === 'image' ? 'raw' : folder ? 'tree' : 'blob';
  const path = segments.length === 0 ? '' : `/${segments.join('/')}`;
  return `${base.projectPath}/${view}/${encodeSegments(base.ref)}${path}${suffix}`;
}
