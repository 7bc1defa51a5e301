import { html, type SafeHtml } from '../../html';
import type { Project } from '../../../services/projects/types';
import type { CommitDetail } from '../../../services/repository/commit-reads';
import type { DiffFile } from '../../../git/diff-types';
import { projectPath } from '../../paths';
import { renderDiff } from '../diff';
import { repositoryHeader } from './header';
import { commitUrl, refUrl } from './urls';

/** `…/commit/:sha`: the commit's message, authorship, parents, pipeline status and diff. */
export function commitPage(project: Project, detail: CommitDetail, diffs: DiffFile[]): SafeHtml {
  const { commit, pipeline } = detail;
  const body = commit.message.slice(commit.message.indexOf('\n') + 1).trim();
  return html`${repositoryHeader(project, 'commits')}
<section class="commit-detail" aria-label="Commit">
<h2>${commit.title}</h2>
${body && commit.message.includes('\n') && html`<pre class="message">${body}</pre>`}
<p>Commit <code>${commit.id}</code></p>
<p class="muted">${commit.author.name} authored ${commit.author.date.slice(0, 10)}${
    commit.committer.name !== commit.author.name && html`, ${commit.committer.name} committed ${commit.committer.date.slice(0, 10)}`
  }</p>
${
  commit.parentIds.length > 0 &&
  html`<p>${commit.parentIds.length === 1 ? 'Parent' : 'Parents'}: ${commit.parentIds.map(
    (parent) => html`<a href="${commitUrl(project, parent)}"><code>${parent.slice(0, 8)}</code></a> `,
  )}</p>`
}
${
  pipeline &&
  html`<p class="pipeline">Pipeline <a href="${projectPath(project)}/pipelines/${pipeline.id}">#${pipeline.id}</a>
<span class="status status-${pipeline.status}">${pipeline.status}</span></p>`
}
<p><a href="${refUrl(project, 'tree', commit.id)}">Browse files</a></p>
</section>
${renderDiff(diffs)}`;
}
