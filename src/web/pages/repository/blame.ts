import { html, trusted, escapeHtml, type SafeHtml } from '../../html';
import type { Project } from '../../../services/projects/types';
import type { BlameRange } from '../../../git/blame';
import { breadcrumbs, refSwitcher, repositoryHeader, type RefChoice } from './header';
import { commitUrl, refUrl } from './urls';

export interface BlameView {
  project: Project;
  ref: string;
  path: string;
  refs: Pick<RefChoice, 'branches' | 'tags'>;
  /** Empty for a file too large to blame. */
  ranges: BlameRange[];
}

/** Rows built as one string: a file may have thousands of lines. */
function rows(project: Project, ranges: BlameRange[]): SafeHtml {
  let out = '';
  for (const range of ranges) {
    const { commit } = range;
    const date = new Date(commit.authorTime * 1000).toISOString().slice(0, 10);
    const about =
      `<a href="${escapeHtml(commitUrl(project, commit.id))}" title="${escapeHtml(commit.summary)}">${commit.id.slice(0, 8)}</a> ` +
      `${escapeHtml(commit.summary)}<br><span class="muted">${escapeHtml(commit.authorName)}, ${date}</span>`;
    range.lines.forEach((line, index) => {
      const number = range.startLine + index;
      out += `<tr id="L${number}">${index === 0 ? `<td class="blame-commit" rowspan="${range.lines.length}">${about}</td>` : ''}<td class="num"><a href="#L${number}">${number}</a></td><td class="src"><code>${escapeHtml(line)}</code></td></tr>`;
    });
  }
  return trusted(`<table class="code blame"><tbody>${out}</tbody></table>`);
}

/** `…/blame/:ref/*path`: each run of lines beside the commit that last changed it. */
export function blamePage(view: BlameView): SafeHtml {
  const { project, ref, path } = view;
  return html`${repositoryHeader(project, 'files')}
<div class="repo-bar">
${refSwitcher(project, { ...view.refs, current: ref, destination: 'blame', path })}
${breadcrumbs(project, ref, path)}
<a href="${refUrl(project, 'blob', ref, path)}">Normal view</a>
</div>
<h2>Blame</h2>
${view.ranges.length === 0 ? html`<p class="muted">Nothing to blame: the file is empty or too large.</p>` : rows(project, view.ranges)}`;
}
