import { html, type SafeHtml } from '../../html';
import type { Project } from '../../../services/projects/types';
import type { PipelineRow } from '../../../services/ci/types';
import { commitPath, pipelinePath, pipelinesPath } from '../../ci-paths';
import { projectNav } from '../project-nav';
import { pager } from '../pager';
import { formatDuration, statusBadge, timeOf } from './status';

export interface PipelinesList {
  project: Project;
  pipelines: PipelineRow[];
  page: number;
  perPage: number;
  total: number;
}

/** `…/pipelines`: newest first, each with its status, ref, commit and duration. */
export function pipelinesPage({ project, pipelines, page, perPage, total }: PipelinesList): SafeHtml {
  return html`${projectNav(project, 'pipelines', { codeReadable: true })}
<h1>Pipelines</h1>
${
  pipelines.length === 0
    ? html`<p class="muted">No pipelines to show.</p>`
    : html`<div class="table-wrap"><table class="ci-table">
<thead><tr><th scope="col">Status</th><th scope="col">Pipeline</th><th scope="col">Ref</th><th scope="col">Commit</th><th scope="col">Duration</th><th scope="col">Created</th></tr></thead>
<tbody>
${pipelines.map(
  (pipeline) => html`<tr>
<td>${statusBadge(pipeline.status)}</td>
<td><a href="${pipelinePath(project, pipeline.id)}">#${pipeline.id}</a></td>
<td>${pipeline.ref ?? ''}${pipeline.tag ? html` <span class="badge">tag</span>` : ''}</td>
<td><a href="${commitPath(project, pipeline.sha)}"><code>${pipeline.sha.slice(0, 8)}</code></a></td>
<td>${formatDuration(pipeline.duration)}</td>
<td>${timeOf(pipeline.created_at)}</td>
</tr>
`,
)}</tbody></table></div>`
}
${pager(pipelinesPath(project), page, perPage, total)}`;
}
