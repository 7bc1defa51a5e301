import { html, type SafeHtml } from '../../html';
import type { Project } from '../../../services/projects/types';
import type { BuildDetails } from '../../../services/ci/builds/queries';
import { buildPath, commitPath, pipelinePath } from '../../ci-paths';
import { BUILD_LOG_PATH, BUILD_LOG_VERSION } from '../../scripts/build-log';
import type { TracePart } from '../../build-trace';
import type { StoredSummary } from '../../../services/ci/test-reports/types';
import { projectNav } from '../project-nav';
import { actionButton } from './action-button';
import { buildDuration, formatDuration, timeOf } from './status';

export interface BuildView {
  project: Project;
  details: BuildDetails;
  trace: TracePart;
  /** The build is finished: its trace will not grow. */
  complete: boolean;
  /** What the caller may do to it now (developers, by the build's state). */
  actions: { cancel: boolean; retry: boolean; play: boolean };
  artifacts: boolean;
  /** The job's JUnit report, when it has one. */
  tests: StoredSummary | undefined;
  csrfToken: string;
}

/** `…/builds/:id`: the build, its trace (live while it runs), its actions and its artifacts. */
export function buildPage(view: BuildView): SafeHtml {
  const { project, details, trace, complete, actions, csrfToken } = view;
  const { build, commit, runner, user } = details;
  const base = buildPath(project, build.id);
  return html`${projectNav(project, 'pipelines', { codeReadable: true })}
<p><a href="${pipelinePath(project, build.pipeline_id)}">Pipeline #${build.pipeline_id}</a></p>
<h1>Build #${build.id}: ${build.name} <span id="build-status" class="ci-status ci-${build.status}">${build.status}</span></h1>
<dl class="build-facts">
<dt>Stage</dt><dd>${build.stage ?? ''}</dd>
<dt>Ref</dt><dd>${build.ref ?? ''}</dd>
<dt>Commit</dt><dd><a href="${commitPath(project, build.sha)}"><code>${build.sha.slice(0, 8)}</code></a>${commit && html` ${commit.title}`}</dd>
${user && html`<dt>Started by</dt><dd>${user.username}</dd>`}
${runner && html`<dt>Runner</dt><dd>#${runner.id} ${runner.description ?? ''}</dd>`}
${build.started_at && html`<dt>Started</dt><dd>${timeOf(build.started_at)}</dd>`}
${build.started_at && html`<dt>Duration</dt><dd>${formatDuration(buildDuration(build))}</dd>`}
</dl>
<div class="actions">
${actions.cancel && actionButton(`${base}/cancel`, 'Cancel', csrfToken)}
${actions.retry && actionButton(`${base}/retry`, 'Retry', csrfToken)}
${actions.play && actionButton(`${base}/play`, 'Play', csrfToken, 'primary')}
${view.artifacts && html`<a class="button" href="${base}/artifacts/download">Download artifacts</a>`}
<a href="${base}/raw">Raw log</a>
</div>
${view.tests && testsLine(view.tests)}
<h2>Log</h2>
<pre id="build-trace" class="trace" data-trace-url="${base}/trace.json" data-offset="${trace.offset}" data-complete="${complete ? 'true' : 'false'}">${trace.html}</pre>
${!complete && html`<script src="${BUILD_LOG_PATH}?v=${BUILD_LOG_VERSION}" defer></script>`}`;
}

/** "Tests: N passed, M failed", and which failed (the first few, as the report's summary keeps them). */
function testsLine(tests: StoredSummary): SafeHtml {
  const failed = tests.failed + tests.error;
  const more = failed - tests.failed_names.length;
  return html`<div class="build-tests">
<p>Tests: ${tests.success} passed, ${failed} failed${tests.skipped > 0 && html`, ${tests.skipped} skipped`}</p>
${tests.suite_error && html`<p class="error">${tests.suite_error}</p>`}
${
  tests.failed_names.length > 0 &&
  html`<ul class="failed-tests">${tests.failed_names.map((name) => html`<li>${name}</li>`)}${more > 0 && html`<li>and ${more} more</li>`}</ul>`
}
</div>`;
}
