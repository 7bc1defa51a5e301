import { html, type SafeHtml } from '../../html';
import type { IssueDetails } from '../../../services/issues/types';
import { pager, stateBadge } from '../issuable-parts';

export interface IssueList {
  projectPath: string;
  issues: IssueDetails[];
  total: number;
  page: number;
  perPage: number;
  state: 'opened' | 'closed' | 'all';
  /** The filters as asked, kept in the tabs, the form and the pager. */
  query: URLSearchParams;
  signedIn: boolean;
}

const TABS = [
  ['opened', 'Open'],
  ['closed', 'Closed'],
  ['all', 'All'],
] as const;

export function issueListPage(list: IssueList): SafeHtml {
  const base = `${list.projectPath}/issues`;
  const tab = (state: string) => {
    const query = new URLSearchParams(list.query);
    query.set('state', state);
    query.delete('page');
    return `${base}?${query}`;
  };
  const value = (name: string) => list.query.get(name) ?? '';
  return html`<h1>Issues</h1>
<p class="subnav"><a href="${list.projectPath}/milestones">Milestones</a> · <a href="${list.projectPath}/labels">Labels</a></p>
<nav class="tabs" aria-label="Issue states">${TABS.map(
    ([state, label]) => html`<a href="${tab(state)}"${list.state === state ? html` aria-current="page"` : ''}>${label}</a> `,
  )}${list.signedIn && html`<a class="button" href="${base}/new">New issue</a>`}</nav>
<form class="filters" method="get" action="${base}">
<input type="hidden" name="state" value="${list.state}">
<label>Search <input type="text" name="search" value="${value('search')}"></label>
<label>Label <input type="text" name="label_name" value="${list.query.getAll('label_name').join(',')}"></label>
<label>Milestone <input type="text" name="milestone_title" value="${value('milestone_title')}"></label>
<label>Author id <input type="text" name="author_id" value="${value('author_id')}"></label>
<label>Assignee id <input type="text" name="assignee_id" value="${value('assignee_id')}"></label>
<button type="submit">Filter</button>
</form>
${
  list.issues.length === 0
    ? html`<p class="muted">No issues to show.</p>`
    : html`<ul class="issuables">${list.issues.map(
        ({ issue, labels, author }) => html`<li><a href="${base}/${issue.iid}">${issue.title}</a> ${stateBadge(issue.state)}
${issue.confidential === 1 && html`<span class="badge">Confidential</span>`}
<div class="muted">#${issue.iid} opened by ${author?.name ?? 'Ghost user'}${labels.map((label) => html` <span class="label">${label}</span>`)}</div></li>
`,
      )}</ul>`
}
${pager(base, list.query, list.page, list.total, list.perPage)}`;
}
