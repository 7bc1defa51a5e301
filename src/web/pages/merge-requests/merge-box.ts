import { html, type SafeHtml } from '../../html';
import type { PageContext } from '../../context';
import type { MergeRequestDetails } from '../../../services/merge-requests/types';
import type { PipelineRow } from '../../../services/merge-requests/head-pipeline';
import { isWorkInProgress } from '../../../services/issuables/work-in-progress';

/** What the merge box knows besides the merge request. */
export interface MergeBoxFacts {
  details: MergeRequestDetails;
  /** `…/merge_requests/:iid`. */
  base: string;
  pipeline: PipelineRow | undefined;
  /** The caller may merge into the target branch (8.12's `can_be_merged_by?`). */
  mayMerge: boolean;
  /** The caller may cancel an automatic merge: who may merge, or the author. */
  mayCancel: boolean;
  /** The project merges only green pipelines. */
  onlyIfGreen: boolean;
  /** Why the last merge was refused, shown above the box. */
  refusal?: string;
}

const ACTIVE = new Set(['created', 'pending', 'running']);

/**
 * GitLab 8.12's merge widget without JavaScript: the merge form for who may merge a mergeable
 * merge request (open, without conflicts, not a work in progress), "Merge when pipeline succeeds"
 * while the head pipeline runs, the automatic merge once set and its cancel button; the state otherwise.
 */
export function mergeBox(page: PageContext, facts: MergeBoxFacts): SafeHtml {
  const { mergeRequest, mergedBy } = facts.details;
  const token = html`<input type="hidden" name="authenticity_token" value="${page.csrfToken}">`;
  const refusal = facts.refusal && html`<p class="flash" role="alert">${facts.refusal}</p>`;
  if (mergeRequest.state === 'merged') {
    return html`<section class="merge-box" aria-label="Merge"><p>Merged${mergedBy && html` by ${mergedBy.name}`}${
      mergeRequest.merge_commit_sha && html` in <code>${mergeRequest.merge_commit_sha.slice(0, 8)}</code>`
    }.</p></section>`;
  }
  if (mergeRequest.state === 'closed') return html`<section class="merge-box" aria-label="Merge"><p>Closed.</p></section>`;
  if (mergeRequest.state === 'locked') return html`<section class="merge-box" aria-label="Merge"><p>Merge in progress.</p></section>`;
  const body = (): SafeHtml => {
    if (mergeRequest.merge_when_build_succeeds === 1) {
      return html`<p>Set to be merged automatically when the pipeline succeeds${
        mergeRequest.should_remove_source_branch === 1 ? html`; the source branch will be removed` : ''
      }.</p>
${facts.mayCancel && html`<form method="post" action="${facts.base}/cancel_merge_when_build_succeeds" class="inline">${token}<button type="submit">Cancel automatic merge</button></form>`}`;
    }
    if (isWorkInProgress(mergeRequest.title)) return html`<p>This merge request is a Work in Progress: it cannot be merged yet.</p>`;
    if (mergeRequest.merge_status === 'cannot_be_merged')
      return html`<p>There are merge conflicts: this merge request cannot be merged automatically.</p>`;
    if (!facts.mayMerge)
      return html`<p class="muted">Ready to be merged by someone who may merge into <code>${mergeRequest.target_branch}</code>.</p>`;
    const running = facts.pipeline !== undefined && ACTIVE.has(facts.pipeline.status);
    return html`<form method="post" action="${facts.base}/merge" class="merge-form">${token}
${facts.details.sha && html`<input type="hidden" name="sha" value="${facts.details.sha}">`}
<label class="checkbox"><input type="checkbox" name="should_remove_source_branch" value="1"> Remove source branch</label>
${
  running
    ? html`<button type="submit" class="primary" name="merge_when_pipeline_succeeds" value="1">Merge when pipeline succeeds</button>
${!facts.onlyIfGreen && html`<button type="submit">Merge immediately</button>`}`
    : html`<button type="submit" class="primary">Merge</button>`
}
</form>`;
  };
  return html`<section class="merge-box" aria-label="Merge">${refusal}${body()}</section>`;
}
