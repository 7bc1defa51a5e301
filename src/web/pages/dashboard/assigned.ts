import { html, type SafeHtml } from '../../html';
import type { IssueDetails } from '../../../services/issues/types';
import type { MergeRequestDetails } from '../../../services/merge-requests/types';
import { projectPath } from '../../paths';
import { stateBadge } from '../issuable-parts';
import { pager } from '../pager';
import { dashboardNav } from './nav';

interface Assigned {
  project: IssueDetails['project'];
  path: string;
  reference: string;
  title: string;
  state: string;
}

function assignedList(
  tab: string,
  heading: string,
  items: Assigned[],
  total: number,
  page: number,
  perPage: number,
  path: string,
): SafeHtml {
  return html`${dashboardNav(tab)}
<h1>${heading} (${total})</h1>
${
  items.length === 0
    ? html`<p class="muted">Nothing open is assigned to you.</p>`
    : html`<ul class="issues">${items.map(
        (item) => html`<li><a href="${item.path}">${item.title}</a> ${stateBadge(item.state)}
<span class="muted">${item.project.namespace.name} / ${item.project.name}${item.reference}</span></li>`,
      )}</ul>`
}
${pager(path, page, perPage, total)}`;
}

/** `/dashboard/issues`: the open issues assigned to the signed-in user, in every project they may read. */
export function assignedIssuesPage(issues: IssueDetails[], total: number, page: number, perPage: number): SafeHtml {
  const items = issues.map(({ issue, project }) => ({
    project,
    path: `${projectPath(project)}/issues/${issue.iid}`,
    reference: `#${issue.iid}`,
    title: issue.title,
    state: issue.state,
  }));
  return assignedList('Issues', 'Issues assigned to you', items, total, page, perPage, '/dashboard/issues');
}

/** `/dashboard/merge_requests`: the open merge requests assigned to the signed-in user. */
export function assignedMergeRequestsPage(mergeRequests: MergeRequestDetails[], total: number, page: number, perPage: number): SafeHtml {
  const items = mergeRequests.map(({ mergeRequest, project }) => ({
    project,
    path: `${projectPath(project)}/merge_requests/${mergeRequest.iid}`,
    reference: `!${mergeRequest.iid}`,
    title: mergeRequest.title,
    state: mergeRequest.state,
  }));
  return assignedList('Merge requests', 'Merge requests assigned to you', items, total, page, perPage, '/dashboard/merge_requests');
}
