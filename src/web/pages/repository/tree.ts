import { html, type SafeHtml } from '../../html';
import type { Project } from '../../../services/projects/types';
import type { TreeEntry } from '../../../git/tree';
import { breadcrumbs, refSwitcher, repositoryHeader, type RefChoice } from './header';
import { editorUrl, refUrl } from './urls';

export interface TreeView {
  project: Project;
  ref: string;
  path: string;
  /** Folders first, then files, then submodules (as the service lists them). */
  entries: TreeEntry[];
  refs: Pick<RefChoice, 'branches' | 'tags'>;
  readme?: { name: string; body: SafeHtml };
  /** Given when the caller may push: a "New file" button. */
  editor?: { csrfToken: string };
}

function entryLink(view: TreeView, entry: TreeEntry): SafeHtml {
  if (entry.type === 'tree') return html`<a href="${refUrl(view.project, 'tree', view.ref, entry.path)}">${entry.name}/</a>`;
  if (entry.type === 'commit') return html`<span>${entry.name}</span> <span class="muted">@ ${entry.id.slice(0, 8)} (submodule)</span>`;
  return html`<a href="${refUrl(view.project, 'blob', view.ref, entry.path)}">${entry.name}</a>`;
}

/** `…/tree/:ref/*path`: a folder's entries and its README. */
export function treePage(view: TreeView): SafeHtml {
  const { project, ref, path } = view;
  const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
  return html`${repositoryHeader(project, 'files')}
<div class="repo-bar">
${refSwitcher(project, { ...view.refs, current: ref, destination: 'tree', path })}
${breadcrumbs(project, ref, path)}
<a href="${refUrl(project, 'commits', ref, path)}">History</a>
${view.editor && html`<a class="button" href="${editorUrl(project, 'new', ref, path)}">New file</a>`}
</div>
<table class="tree">
<caption class="visually-hidden">Files in ${path === '' ? '/' : path}</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Kind</th></tr></thead>
<tbody>
${path !== '' && html`<tr><td><a href="${refUrl(project, 'tree', ref, parent)}" rel="up">..</a></td><td></td></tr>`}
${view.entries.map(
  (entry) =>
    html`<tr class="${entry.type}"><td>${entryLink(view, entry)}</td><td class="muted">${entry.type === 'tree' ? 'folder' : entry.type === 'commit' ? 'submodule' : 'file'}</td></tr>
`,
)}</tbody>
</table>
${view.readme && html`<article class="readme"><h2>${view.readme.name}</h2><div class="markdown">${view.readme.body}</div></article>`}`;
}
