import { html, type SafeHtml } from '../html';
import type { Project } from '../../services/projects/types';
import type { SearchResults, SearchScope } from '../../services/search/types';
import { MAX_SEARCH_TERM } from '../../services/search/terms';
import { projectPath } from '../paths';
import { pager, stateBadge } from './issuable-parts';
import { projectList } from './project-list';
import { refUrl } from './repository/urls';

export interface SearchView {
  term: string;
  scope: SearchScope;
  /** The project searched in (`project_id`); undefined across projects. */
  project: Project | undefined;
  /** Undefined when nothing was searched (no term). */
  results: SearchResults | undefined;
  page: number;
  perPage: number;
}

const SCOPE_NAMES: Record<SearchScope, string> = {
  projects: 'Projects',
  issues: 'Issues',
  merge_requests: 'Merge requests',
  blobs: 'Code',
};

/** The search form: the term, and the project searched in, kept. */
export function searchForm(view: Pick<SearchView, 'term' | 'scope' | 'project'>): SafeHtml {
  return html`<form class="filters" method="get" action="/search" role="search">
<label>Search <input type="search" name="search" value="${view.term}" maxlength="${MAX_SEARCH_TERM}" required></label>
<input type="hidden" name="scope" value="${view.scope}">
${view.project && html`<input type="hidden" name="project_id" value="${view.project.id}">`}
<button type="submit">Search</button>
</form>`;
}

/** `/search`: a tab per scope, then one page of what the term found in the chosen one. */
export function searchPage(view: SearchView): SafeHtml {
  const query = (scope: SearchScope) => {
    const asked = new URLSearchParams({ search: view.term, scope });
    if (view.project) asked.set('project_id', String(view.project.id));
    return asked;
  };
  const scopes = (Object.keys(SCOPE_NAMES) as SearchScope[]).filter((scope) => !(view.project && scope === 'projects'));
  return html`<h1>Search${view.project && html` in ${view.project.namespace.name} / ${view.project.name}`}</h1>
${searchForm(view)}
${
  view.results &&
  html`<nav class="tabs" aria-label="Search scopes">${scopes.map(
    (scope) =>
      html`<a href="/search?${query(scope).toString()}"${view.scope === scope ? html` aria-current="page"` : ''}>${SCOPE_NAMES[scope]}</a> `,
  )}</nav>
${results(view.results, view.term)}
${pager('/search', query(view.scope), view.page, view.results.total, view.perPage)}`
}`;
}

function results(found: SearchResults, term: string): SafeHtml {
  const none = html`<p class="muted">Nothing found for “${term}”.</p>`;
  switch (found.scope) {
    case 'projects':
      return html`<p class="muted">${found.total} ${found.total === 1 ? 'project' : 'projects'}</p>${projectList(found.projects, 'No projects found.')}`;
    case 'issues':
      if (found.issues.length === 0) return none;
      return html`<ul class="issuables">${found.issues.map(
        ({ issue, project }) => html`<li><a href="${projectPath(project)}/issues/${issue.iid}">${issue.title}</a> ${stateBadge(issue.state)}
${issue.confidential === 1 && html`<span class="badge">Confidential</span>`}
<div class="muted">${project.namespace.name} / ${project.name} #${issue.iid}</div></li>
`,
      )}</ul>`;
    case 'merge_requests':
      if (found.mergeRequests.length === 0) return none;
      return html`<ul class="issuables">${found.mergeRequests.map(
        ({
          mergeRequest,
          project,
        }) => html`<li><a href="${projectPath(project)}/merge_requests/${mergeRequest.iid}">${mergeRequest.title}</a> ${stateBadge(mergeRequest.state)}
<div class="muted">${project.namespace.name} / ${project.name} !${mergeRequest.iid}</div></li>
`,
      )}</ul>`;
    case 'blobs':
      if (found.matches.length === 0) return none;
      return html`${found.truncated && html`<p class="muted">The search stopped at its limits: these are the first ${found.total} matching lines.</p>`}
<ul class="search-code">${found.matches.map(
        (
          match,
        ) => html`<li><a href="${refUrl(match.project, 'blob', match.ref, match.path)}#L${match.line}">${match.project.namespace.name} / ${match.project.name}: ${match.path}:${match.line}</a>
<pre><code>${match.text}</code></pre></li>
`,
      )}</ul>`;
  }
}
