import { html, type SafeHtml } from '../../html';
import type { MergeRequestDetails } from '../../../services/merge-requests/types';
import type { PipelineRow } from '../../../services/merge-requests/head-pipeline';
import { stateBadge } from '../issuable-parts';
import { statusBadge } from '../ci/status';

/** The tab of a merge request's page, GitLab 8.12's Discussion, Commits and Changes. */
export type MergeRequestTab = 'discussion' | 'commits' | 'diffs';

export interface MergeRequestHeading {
  details: MergeRequestDetails;
  projectPath: string;
  /** The head pipeline, linked when it runs in this project (a fork's runs in the fork). */
  pipeline: PipelineRow | undefined;
  commitsCount?: number;
}

const TABS: Array<[MergeRequestTab, string, string]> = [
  ['discussion', 'Discussion', ''],
  ['commits', 'Commits', '/commits'],
  ['diffs', 'Changes', '/diffs'],
];

/** What every tab shows first: title, state, author, branches, the head pipeline, and the tabs. */
export function mergeRequestHeader(heading: MergeRequestHeading, active: MergeRequestTab): SafeHtml {
  const { mergeRequest, author, project } = heading.details;
  const base = `${heading.projectPath}/merge_requests/${mergeRequest.iid}`;
  const pipeline = heading.pipeline;
  return html`<h1>${mergeRequest.title}</h1>
<p>${stateBadge(mergeRequest.state)}
<span class="muted">Merge request !${mergeRequest.iid} opened ${mergeRequest.created_at.slice(0, 10)} by ${
    author ? html`<a href="/u/${author.username}">${author.name}</a>` : 'Ghost user'
  }</span></p>
<p class="branches">Request to merge <code class="source-branch">${mergeRequest.source_branch}</code> into <code class="target-branch">${mergeRequest.target_branch}</code></p>
${
  pipeline &&
  html`<p class="pipeline">Pipeline ${
    pipeline.project_id === project.id
      ? html`<a href="${heading.projectPath}/pipelines/${pipeline.id}">#${pipeline.id}</a>`
      : html`#${pipeline.id}`
  } ${statusBadge(pipeline.status)} for <code>${pipeline.sha.slice(0, 8)}</code></p>`
}
<nav class="tabs" aria-label="Merge request">${TABS.map(
    ([tab, label, path]) => html`<a href="${base}${path}"${tab === active ? html` aria-current="page"` : ''}>${label}</a> `,
  )}</nav>`;
}
