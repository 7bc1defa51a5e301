import { html, type SafeHtml } from '../../html';
import type { MilestoneRow } from '../../../services/milestones/milestones';
import type { MilestoneProgress } from '../../../services/milestones/progress';
import type { IssueDetails } from '../../../services/issues/types';
import type { MergeRequestDetails } from '../../../services/merge-requests/types';
import { stateBadge } from '../issuable-parts';
import { progressOf } from './list';

export interface MilestoneView {
  projectPath: string;
  milestone: MilestoneRow;
  description: SafeHtml;
  progress: MilestoneProgress;
  issues: IssueDetails[];
  /** Undefined for a caller who may not read the project's merge requests. */
  mergeRequests: MergeRequestDetails[] | undefined;
}

/** `…/milestones/:iid`: its description, progress, and its issues and merge requests the caller may read. */
export function milestonePage(view: MilestoneView): SafeHtml {
  const { milestone, projectPath } = view;
  return html`<article class="milestone">
<h1>${milestone.title}</h1>
<p>${stateBadge(milestone.state === 'closed' ? 'closed' : 'opened')} <span class="muted">Milestone %${milestone.iid}${milestone.due_date && html` · due ${milestone.due_date}`}</span></p>
<div class="markdown description">${view.description}</div>
<p>${progressOf(view.progress)}</p>
<section aria-label="Issues"><h2>Issues</h2>
${
  view.issues.length === 0
    ? html`<p class="muted">No issues to show.</p>`
    : html`<ul class="issuables">${view.issues.map(
        ({
          issue,
        }) => html`<li><a href="${projectPath}/issues/${issue.iid}">${issue.title}</a> ${stateBadge(issue.state)} <span class="muted">#${issue.iid}</span></li>
`,
      )}</ul>`
}
</section>
${
  view.mergeRequests &&
  html`<section aria-label="Merge requests"><h2>Merge requests</h2>
${
  view.mergeRequests.length === 0
    ? html`<p class="muted">No merge requests to show.</p>`
    : html`<ul class="issuables">${view.mergeRequests.map(
        ({
          mergeRequest,
        }) => html`<li><a href="${projectPath}/merge_requests/${mergeRequest.iid}">${mergeRequest.title}</a> ${stateBadge(mergeRequest.state)} <span class="muted">!${mergeRequest.iid}</span></li>
`,
      )}</ul>`
}
</section>`
}
</article>`;
}
