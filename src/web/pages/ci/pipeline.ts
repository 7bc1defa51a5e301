import { html, type SafeHtml } from '../../html';
import type { Project } from '../../../services/projects/types';
import type { BuildRecord, PipelineRow } from '../../../services/ci/types';
import { buildPath, commitPath, pipelinePath, pipelinesPath } from '../../ci-paths';
import { projectNav } from '../project-nav';
import { actionButton } from './action-button';
import { buildDuration, formatDuration, statusBadge, timeOf } from './status';

export interface PipelineView {
  project: Project;
  pipeline: PipelineRow;
  /** The latest try of each build (retried ones are hidden, as GitLab's pipeline page hid them). */
  builds: BuildRecord[];
  mayUpdate: boolean;
  csrfToken: string;
}

const ACTIVE = new Set(['pending', 'running']);

/** `…/pipelines/:id`: its builds stage by stage, and retry and cancel for developers. */
export function pipelinePage(view: PipelineView): SafeHtml {
  const { project, pipeline, builds, mayUpdate, csrfToken } = view;
  const stages = byStage(builds);
  const retryable = builds.some((build) => build.status === 'failed');
  const cancelable = builds.some((build) => ACTIVE.has(build.status));
  const base = pipelinePath(project, pipeline.id);
  return html`${projectNav(project, 'pipelines', { codeReadable: true })}
<p><a href="${pipelinesPath(project)}">Pipelines</a></p>
<h1>Pipeline #${pipeline.id} ${statusBadge(pipeline.status)}</h1>
<p>For <strong>${pipeline.ref ?? ''}</strong> at <a href="${commitPath(project, pipeline.sha)}"><code>${pipeline.sha.slice(0, 8)}</code></a>,
created ${timeOf(pipeline.created_at)}${pipeline.duration !== null ? html`, took ${formatDuration(pipeline.duration)}` : ''}.</p>
${pipeline.yaml_errors && html`<p class="flash" role="alert">${pipeline.yaml_errors}</p>`}
${
  mayUpdate &&
  html`<div class="actions">
${retryable && actionButton(`${base}/retry`, 'Retry failed builds', csrfToken)}
${cancelable && actionButton(`${base}/cancel`, 'Cancel running', csrfToken)}
</div>`
}
${stages.length === 0 ? html`<p class="muted">This pipeline has no builds.</p>` : ''}
${stages.map(
  ([stage, list], index) => html`<section class="stage" aria-labelledby="stage-${index}">
<h2 id="stage-${index}">${stage}</h2>
<ul class="builds">
${list.map(
  (build) => html`<li>${statusBadge(build.status)} <a href="${buildPath(project, build.id)}">${build.name}</a>
<span class="muted">#${build.id}${build.allow_failure ? ' · allowed to fail' : ''}${build.when === 'manual' ? ' · manual' : ''}
${formatDuration(buildDuration(build))}</span></li>
`,
)}</ul>
</section>`,
)}`;
}

/** Stages in their order (`stage_idx`), each with its builds by name. */
export function byStage(builds: BuildRecord[]): Array<[string, BuildRecord[]]> {
  const sorted = [...builds].sort((a, b) => a.stage_idx - b.stage_idx || a.name.localeCompare(b.name) || a.id - b.id);
  const stages = new Map<string, BuildRecord[]>();
  for (const build of sorted) {
    const stage = build.stage ?? 'test';
    const list = stages.get(stage) ?? [];
    list.push(build);
    stages.set(stage, list);
  }
  return [...stages];
}
