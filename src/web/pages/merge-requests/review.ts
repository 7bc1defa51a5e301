import { html, type SafeHtml } from '../../html';
import type { PageContext } from '../../context';
import type { Project } from '../../../services/projects/types';
import type { BuildRecord } from '../../../services/ci/types';
import { buildPath } from '../../ci-paths';
import { byStage } from '../ci/pipeline';
import { statusBadge } from '../ci/status';

/** What the "looks good" button knows: the 👍 count, and whether the reader may give one or has. */
export interface LooksGood {
  upvotes: number;
  /** False for visitors and the merge request's author (no vote on one's own). */
  mayAward: boolean;
  awarded: boolean;
}

/** On the Changes tab: "Looks good" gives 👍 to the merge request (GitLab 8.12's `toggle_award_emoji`); a second press takes it back. */
export function looksGoodForm(page: PageContext, action: string, view: LooksGood): SafeHtml {
  const count = html`<span class="muted">👍 ${view.upvotes}</span>`;
  if (!view.mayAward) return html`<p class="looks-good">${count}</p>`;
  return html`<form class="looks-good" method="post" action="${action}">
<input type="hidden" name="authenticity_token" value="${page.csrfToken}">
<input type="hidden" name="name" value="thumbsup">
<button type="submit" aria-pressed="${view.awarded ? 'true' : 'false'}">${view.awarded ? 'You said it looks good (undo)' : '👍 Looks good'}</button>
${count}
</form>`;
}

/** The head pipeline's jobs, stage by stage, each linking to its page. */
export function pipelineJobs(project: Project, builds: BuildRecord[]): SafeHtml {
  if (builds.length === 0) return html``;
  return html`<section class="pipeline-jobs" aria-labelledby="pipeline-jobs"><h2 id="pipeline-jobs">Jobs</h2>
${byStage(builds).map(
  ([stage, list]) => html`<h3>${stage}</h3>
<ul class="builds">${list.map(
    (build) =>
      html`<li>${statusBadge(build.status)} <a href="${buildPath(project, build.id)}">${build.name}</a> <span class="muted">#${build.id}</span></li>`,
  )}</ul>
`,
)}</section>`;
}
