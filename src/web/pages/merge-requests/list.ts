import { html, type SafeHtml } from '../../html';
import type { MergeRequestDetails } from '../../../services/merge-requests/types';
import type { PipelineRow } from '../../../services/merge-requests/head-pipeline';
import { pager, stateBadge } from '../issuable-parts';
import { statusBadge } from '../ci/status';

export type MergeRequestListState = 'opened' | 'merged' | 'closed' | 'all';

export interface MergeRequestList {
  projectPath: string;
  mergeRequests: MergeRequestDetails[];
  /** Each row's head pipeline, by merge request id. */
  pipelines: Map<number, PipelineRow>;
  total: number;
  page: number;
  perPage: number;
  state: MergeRequestListState;
  /** The filters as asked, kept in the tabs, the form and the pager. */
  query: URLSearchParams;
  mayCreate: boolean;
}

const TABS = [
  ['opened', 'Open'],
  ['merged', 'Merged'],
  ['closed', 'Closed'],
  ['all', 'All'],
] as const;

/** `…/merge_requests`: the state tabs, the filters, and a page of merge requests with their branches and head pipeline. */
export function mergeRequestListPage(list: MergeRequestList): SafeHtml {
  const base = `${list.projectPath}/merge_requests`;
  const tab = (state: string) => {
    const query = new URLSearchParams(list.query);
    query.set('state', state);
    query.delete('page');
    return `${base}?${query}`;
  };
  const value = (name: string) => list.query.get(name) ?? '';
  return html`<h1>Merge Requests</h1>
<nav class="tabs" aria-label="Merge request states">${TABS.map(
    ([state, label]) => html`<a href="${tab(state)}"${list.state === state ? html` aria-current="page"` : ''}>${label}</a> `,
  )}${list.mayCreate && html`<a class="button" href="${base}/new">New merge request</a>`}</nav>
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
  list.mergeRequests.length === 0
    ? html`<p class="muted">No merge requests to show.</p>`
    : html`<ul class="issuables merge-requests">${list.mergeRequests.map(({ mergeRequest, labels, author }) => {
        const pipeline = list.pipelines.get(mergeRequest.id);
        return html`<li><a href="${base}/${mergeRequest.iid}">${mergeRequest.title}</a> ${stateBadge(mergeRequest.state)}${pipeline && html` ${statusBadge(pipeline.status)}`}
<div class="muted">!${mergeRequest.iid} opened by ${author?.name ?? 'Ghost user'} · <code>${mergeRequest.source_branch}</code> → <code>${mergeRequest.target_branch}</code>${labels.map(
          (label) => html` <span class="label">${label}</span>`,
        )}</div></li>
`;
      })}</ul>`
}
${pager(base, list.query, list.page, list.total, list.perPage)}`;
}
