import { html, type SafeHtml } from '../../html';
import type { Project } from '../../../services/projects/types';
import type { Commit } from '../../../git/objects';
import { commitUrl } from './urls';

/** Commits, newest first: title, author, date and short id, each a link to the commit. */
export function commitList(project: Project, commits: Commit[]): SafeHtml {
  if (commits.length === 0) return html`<p class="muted">No commits.</p>`;
  return html`<ul class="commits">
${commits.map(
  (commit) => html`<li><a href="${commitUrl(project, commit.id)}">${commit.title}</a>
<div class="muted">${commit.author.name} committed ${commit.committer.date.slice(0, 10)} · <code>${commit.shortId}</code></div></li>
`,
)}</ul>`;
}
