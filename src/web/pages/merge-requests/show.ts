import { html, type SafeHtml } from '../../html';
import type { PageContext } from '../../context';
import type { Commit } from '../../../git/objects';
import type { DiffFile } from '../../../git/diff-types';
import type { Project } from '../../../services/projects/types';
import { commentForm, discussion, sidebar, type ShownNote } from '../issuable-parts';
import { commitList } from '../repository/commit-list';
import { renderDiff, type DiffView, type LineComments } from '../diff';
import { mergeRequestHeader, type MergeRequestHeading } from './header';
import { mergeBox, type MergeBoxFacts } from './merge-box';

export interface MergeRequestDiscussion extends MergeRequestHeading {
  description: SafeHtml;
  notes: ShownNote[];
  mayUpdate: boolean;
  merge: Omit<MergeBoxFacts, 'details' | 'base' | 'pipeline'>;
  /** The head pipeline's jobs by stage (`review.ts`), empty when there are none to show. */
  jobs: SafeHtml;
}

/** `…/merge_requests/:iid`: the description, the merge box, the sidebar, the discussion and its form. */
export function mergeRequestPage(page: PageContext, view: MergeRequestDiscussion): SafeHtml {
  const { mergeRequest } = view.details;
  const base = `${view.projectPath}/merge_requests/${mergeRequest.iid}`;
  const state = mergeRequest.state;
  const stateAction =
    view.mayUpdate && state !== 'merged' && state !== 'locked'
      ? state === 'closed'
        ? { action: `${base}/reopen`, label: 'Reopen merge request' }
        : { action: `${base}/close`, label: 'Close merge request' }
      : undefined;
  return html`<article class="issuable merge-request">
${mergeRequestHeader(view, 'discussion')}
<div class="markdown description">${view.description}</div>
${mergeBox(page, { ...view.merge, details: view.details, base, pipeline: view.pipeline })}
${view.jobs}
${sidebar({ ...view.details, projectPath: view.projectPath, list: 'merge_requests' })}
<section aria-label="Discussion"><h2>Discussion</h2>
${discussion(view.notes)}
${commentForm(page, `${base}/notes`, stateAction)}
</section>
</article>`;
}

/** `…/merge_requests/:iid/commits`: the latest version's commits, newest first. */
export function mergeRequestCommitsPage(project: Project, heading: MergeRequestHeading, commits: Commit[]): SafeHtml {
  return html`<article class="issuable merge-request">
${mergeRequestHeader(heading, 'commits')}
<section aria-label="Commits"><h2>${commits.length} ${commits.length === 1 ? 'commit' : 'commits'}</h2>
${commitList(project, commits)}
</section>
</article>`;
}

/**
 * `…/merge_requests/:iid/diffs`: a version's changes (the latest by default) against the merge
 * base or an older version, its versions above them, inline or side by side.
 */
export function mergeRequestChangesPage(
  heading: MergeRequestHeading,
  diffs: DiffFile[],
  looksGood: SafeHtml,
  shown: { versions: SafeHtml; view: DiffView; comments?: LineComments },
): SafeHtml {
  return html`<article class="issuable merge-request">
${mergeRequestHeader(heading, 'diffs')}
${looksGood}
${shown.versions}
${renderDiff(diffs, { comments: shown.comments, view: shown.view })}
</article>`;
}
