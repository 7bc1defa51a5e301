import { html, type SafeHtml } from '../../html';
import type { Project } from '../../../services/projects/types';
import type { Commit } from '../../../git/objects';
import { breadcrumbs, refSwitcher, repositoryHeader, type RefChoice } from './header';
import { commitList } from './commit-list';
import { refUrl } from './urls';

export interface CommitsView {
  project: Project;
  ref: string;
  path: string;
  refs: Pick<RefChoice, 'branches' | 'tags'>;
  commits: Commit[];
  /** From 1. */
  page: number;
  pages: number;
}

/** `…/commits/:ref[/*path]`: a page of history. */
export function commitsPage(view: CommitsView): SafeHtml {
  const { project, ref, path, page, pages } = view;
  const url = refUrl(project, 'commits', ref, path);
  return html`${repositoryHeader(project, 'commits')}
<div class="repo-bar">
${refSwitcher(project, { ...view.refs, current: ref, destination: 'commits', path })}
${breadcrumbs(project, ref, path)}
</div>
<h2>Commits</h2>
${commitList(project, view.commits)}
${
  pages > 1 &&
  html`<nav class="pager" aria-label="Pages">
${page > 1 && html`<a href="${url}?page=${page - 1}" rel="prev">Newer</a>`}
<span>Page ${page} of ${pages}</span>
${page < pages && html`<a href="${url}?page=${page + 1}" rel="next">Older</a>`}
</nav>`
}`;
}
