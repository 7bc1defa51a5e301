import { html, type SafeHtml } from '../../html';
import type { IssueDetails } from '../../../services/issues/types';
import { pager, stateBadge } from '../issuable-parts';
import { issuableListHead } from '../issuable-list';

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
  const head = issuableListHead({
    base,
    tabs: TABS,
    tabsLabel: 'Issue states',
    state: list.state,
    query: list.query,
    newLabel: list.signedIn && 'New issue',
  });
  return html`<h1>Issues</h1>
<p class="subnav"><a href="${list.projectPath}/milestones">Milestones</a> · <a href="${list.projectPath}/labels">Labels</a></p>
${head}
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
