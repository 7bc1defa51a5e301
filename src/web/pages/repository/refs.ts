import { html, type SafeHtml } from '../../html';
import type { Project } from '../../../services/projects/types';
import type { BranchView } from '../../../services/repository/branches';
import type { TagView } from '../../../services/repository/tags';
import type { Commit } from '../../../git/objects';
import { repositoryHeader } from './header';
import { commitUrl, refUrl } from './urls';

function lastCommit(project: Project, commit: Commit | null): SafeHtml {
  if (!commit) return html``;
  return html`<div class="muted"><a href="${commitUrl(project, commit.id)}"><code>${commit.shortId}</code></a> ${commit.title} · ${commit.committer.date.slice(0, 10)}</div>`;
}

/** `…/branches`: every branch, the default one marked, each with its last commit. */
export function branchesPage(project: Project, branches: BranchView[], defaultBranch: string | undefined): SafeHtml {
  return html`${repositoryHeader(project, 'branches')}
<h2>Branches</h2>
${
  branches.length === 0
    ? html`<p class="muted">No branches.</p>`
    : html`<ul class="refs">
${branches.map(
  (branch) => html`<li><a href="${refUrl(project, 'tree', branch.name)}"><strong>${branch.name}</strong></a>
${branch.name === defaultBranch && html` <span class="badge">default</span>`}${branch.protected && html` <span class="badge">protected</span>`}
${lastCommit(project, branch.commit)}
<a href="${refUrl(project, 'commits', branch.name)}">Commits</a></li>
`,
)}</ul>`
}`;
}

/** `…/tags`: every tag, newest name first, with its message and commit. */
export function tagsPage(project: Project, tags: TagView[]): SafeHtml {
  return html`${repositoryHeader(project, 'tags')}
<h2>Tags</h2>
${
  tags.length === 0
    ? html`<p class="muted">No tags.</p>`
    : html`<ul class="refs">
${tags.map(
  (tag) => html`<li><a href="${refUrl(project, 'tree', tag.name)}"><strong>${tag.name}</strong></a>
${tag.message && html`<div>${tag.message}</div>`}
${lastCommit(project, tag.commit)}</li>
`,
)}</ul>`
}`;
}
