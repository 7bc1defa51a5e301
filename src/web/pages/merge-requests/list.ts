import { html, type SafeHtml } from '../../html';
import type { MergeRequestDetails } from '../../../services/merge-requests/types';
import type { PipelineRow } from '../../../services/merge-requests/head-pipeline';
import { pager, stateBadge } from '../issuable-parts';
import { issuableListHead } from '../issuable-list';
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
  const head = issuableListHead({
    base,
    tabs: TABS,
    tabsLabel: 'Merge request states',
    state: list.state,
    query: list.query,
    newLabel: list.mayCreate && 'New merge request',
  });
  return html`<h1>Merge Requests</h1>
${head}
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
