import { html, type SafeHtml } from '../html';
import type { Project } from '../../services/projects/types';
import { projectPath } from '../paths';

/** The tab a page belongs to, so that its link is marked as the current one. */
export type ProjectTab = 'home' | 'files' | 'commits' | 'branches' | 'tags' | 'compare' | (string & {});

interface Tab {
  key: ProjectTab;
  label: string;
  /** Relative to the project's page. */
  path: string;
  /** Shown only to those who may read the repository. */
  code?: boolean;
  /** Shown only to those who may administer the project (`admin_project`). */
  admin?: boolean;
}

/** One line per tab; the other areas add theirs here. */
const TABS: Tab[] = [
  { key: 'home', label: 'Project', path: '' },
  { key: 'files', label: 'Files', path: '/tree', code: true },
  { key: 'commits', label: 'Commits', path: '/commits', code: true },
  { key: 'branches', label: 'Branches', path: '/branches', code: true },
  { key: 'tags', label: 'Tags', path: '/tags', code: true },
  { key: 'compare', label: 'Compare', path: '/compare', code: true },
  { key: 'issues', label: 'Issues', path: '/issues' },
  // Merge requests show code: in a private project they are for those who read it (`read_merge_request`).
  { key: 'merge_requests', label: 'Merge Requests', path: '/merge_requests', code: true },
  { key: 'pipelines', label: 'Pipelines', path: '/pipelines' },
  { key: 'snippets', label: 'Snippets', path: '/snippets' },
  { key: 'settings', label: 'Settings', path: '/edit', admin: true },
];

/** A project's tab navigation, on its home page and every page under it. */
export function projectNav(project: Project, active: ProjectTab, options: { codeReadable: boolean; admin?: boolean }): SafeHtml {
  const base = projectPath(project);
  const tabs = TABS.filter((tab) => (options.codeReadable || !tab.code) && (options.admin === true || !tab.admin));
  return html`<nav class="tabs" aria-label="Project">
${tabs.map(
  (tab) =>
    html`<a href="${base}${tab.path}"${tab.key === active ? html` aria-current="page"` : ''}>${tab.label}</a>
`,
)}</nav>`;
}
