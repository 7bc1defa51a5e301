import { html, type SafeHtml } from '../../html';
import type { Project } from '../../../services/projects/types';
import type { BranchView } from '../../../services/repository/branches';
import type { TagView } from '../../../services/repository/tags';
import type { Commit } from '../../../git/objects';
import { repositoryHeader } from './header';
import { commitUrl, refUrl } from './urls';
import { projectPath } from '../../paths';
import { hiddenToken } from '../form-field';

function lastCommit(project: Project, commit: Commit | null): SafeHtml {
  if (!commit) return html``;
  return html`<div class="muted"><a href="${commitUrl(project, commit.id)}"><code>${commit.shortId}</code></a> ${commit.title} · ${commit.committer.date.slice(0, 10)}</div>`;
}

/** A branch's delete (GitLab's `DELETE …/branches/:id`, a POST here with `_method`), never offered for the default or a protected branch. */
function deleteBranchButton(project: Project, name: string, csrfToken: string): SafeHtml {
  return html`<form class="inline" method="post" action="${projectPath(project)}/branches/${encodeURIComponent(name)}">
${hiddenToken(csrfToken)}<input type="hidden" name="_method" value="delete">
<button type="submit" aria-label="Delete branch ${name}">Delete</button></form>`;
}

/** `…/branches`: every branch, the default one marked, each with its last commit. */
export function branchesPage(
  project: Project,
  branches: BranchView[],
  defaultBranch: string | undefined,
  editor?: { csrfToken: string },
): SafeHtml {
  return html`${repositoryHeader(project, 'branches')}
<h2>Branches</h2>
${editor && html`<div class="actions"><a class="button" href="${projectPath(project)}/branches/new">New branch</a></div>`}
${
  branches.length === 0
    ? html`<p class="muted">No branches.</p>`
    : html`<ul class="refs">
${branches.map(
  (branch) => html`<li><a href="${refUrl(project, 'tree', branch.name)}"><strong>${branch.name}</strong></a>
${branch.name === defaultBranch && html` <span class="badge">default</span>`}${branch.protected && html` <span class="badge">protected</span>`}
${lastCommit(project, branch.commit)}
<a href="${refUrl(project, 'commits', branch.name)}">Commits</a>
${editor && branch.name !== defaultBranch && !branch.protected && deleteBranchButton(project, branch.name, editor.csrfToken)}</li>
`,
)}</ul>`
}`;
}

/** `…/tags`: every tag, newest name first, with its message and commit. */
export function tagsPage(project: Project, tags: TagView[], editor?: { csrfToken: string }): SafeHtml {
  return html`${repositoryHeader(project, 'tags')}
<h2>Tags</h2>
${editor && html`<div class="actions"><a class="button" href="${projectPath(project)}/tags/new">New tag</a></div>`}
${
  tags.length === 0
    ? html`<p class="muted">No tags.</p>`
    : html`<ul class="refs">
${tags.map(
  (tag) => html`<li id="${tag.name}"><a href="${refUrl(project, 'tree', tag.name)}"><strong>${tag.name}</strong></a>
${tag.message && html`<div>${tag.message}</div>`}
${lastCommit(project, tag.commit)}</li>
`,
)}</ul>`
}`;
}
