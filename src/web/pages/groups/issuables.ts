import { html, type SafeHtml } from '../../html';
import type { Group } from '../../../services/groups/groups';
import type { Project } from '../../../services/projects/types';
import { groupPath } from '../../group-scope';
import { projectPath } from '../../paths';
import { stateBadge } from '../issuable-parts';
import { pager } from '../pager';
import { groupHeader } from './nav';

/** One issue or merge request of the list, with the project it belongs to. */
export interface GroupIssuable {
  project: Project;
  iid: number;
  title: string;
  state: string;
  author?: string;
  confidential?: boolean;
}

export interface GroupIssuableList {
  group: Group;
  kind: 'issues' | 'merge_requests';
  items: GroupIssuable[];
  total: number;
  page: number;
  perPage: number;
  state: string;
  search: string;
  owner: boolean;
}

const STATES = {
  issues: [
    ['opened', 'Open'],
    ['closed', 'Closed'],
    ['all', 'All'],
  ],
  merge_requests: [
    ['opened', 'Open'],
    ['merged', 'Merged'],
    ['closed', 'Closed'],
    ['all', 'All'],
  ],
} as const;

/** `/groups/:path/issues` and `/groups/:path/merge_requests`: those of the group's projects the viewer may read, by state, searched and paged. */
export function groupIssuablesPage(list: GroupIssuableList): SafeHtml {
  const base = `${groupPath(list.group)}/${list.kind}`;
  const heading = list.kind === 'issues' ? 'Issues' : 'Merge Requests';
  const sign = list.kind === 'issues' ? '#' : '!';
  const at = (state: string) => `${base}?${new URLSearchParams({ state, ...(list.search ? { search: list.search } : {}) })}`;
  return html`${groupHeader(list.group, list.kind, { owner: list.owner })}
<h2>${heading} <span class="badge">${String(list.total)}</span></h2>
<nav class="tabs" aria-label="${heading} by state">${STATES[list.kind].map(
    ([state, label]) => html`<a href="${at(state)}"${list.state === state ? html` aria-current="page"` : ''}>${label}</a> `,
  )}</nav>
<form class="filters" method="get" action="${base}" role="search">
<input type="hidden" name="state" value="${list.state}">
<label>Search <input type="search" name="search" value="${list.search}"></label>
<button type="submit">Filter</button>
</form>
${
  list.items.length === 0
    ? html`<p class="muted">No ${heading.toLowerCase()} to show.</p>`
    : html`<ul class="issuables">${list.items.map(
        (
          item,
        ) => html`<li><a href="${projectPath(item.project)}/${list.kind}/${String(item.iid)}">${item.title}</a> ${stateBadge(item.state)}
${item.confidential && html`<span class="badge">Confidential</span>`}
<div class="muted">${item.project.name} ${sign}${String(item.iid)}${item.author && html` opened by ${item.author}`}</div></li>
`,
      )}</ul>`
}
${pager(at(list.state), list.page, list.perPage, list.total)}`;
}
