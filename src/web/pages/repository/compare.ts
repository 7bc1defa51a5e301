import { html, type SafeHtml } from '../../html';
import type { Project } from '../../../services/projects/types';
import type { CompareResult } from '../../../services/repository/reads';
import { projectPath } from '../../paths';
import { renderDiff } from '../diff';
import { commitList } from './commit-list';
import { repositoryHeader } from './header';

function compareForm(project: Project, from: string, to: string): SafeHtml {
  return html`<form class="compare-form" method="get" action="${projectPath(project)}/compare">
<label for="compare-from">From</label> <input type="text" id="compare-from" name="from" value="${from}" required>
<label for="compare-to">To</label> <input type="text" id="compare-to" name="to" value="${to}" required>
<button type="submit">Compare</button>
</form>`;
}

/** `…/compare`: the form alone. */
export function compareFormPage(project: Project, from: string, to: string): SafeHtml {
  return html`${repositoryHeader(project, 'compare')}
<h2>Compare</h2>
<p class="muted">Pick two branches, tags or commits to see what changed between them.</p>
${compareForm(project, from, to)}`;
}

/** `…/compare/:from...:to`: the commits of `to` not in `from`, and the changes. */
export function comparePage(project: Project, from: string, to: string, result: CompareResult): SafeHtml {
  const empty = result.commits.length === 0 && result.diffs.length === 0;
  return html`${repositoryHeader(project, 'compare')}
<h2>Compare ${from}...${to}</h2>
${compareForm(project, from, to)}
${
  empty
    ? html`<p class="muted">There isn't anything to compare.</p>`
    : html`<h3>Commits (${result.commits.length})</h3>
${commitList(project, [...result.commits].reverse())}
${renderDiff(result.diffs, { overflow: result.timeout })}`
}`;
}
