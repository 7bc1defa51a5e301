import { html, type SafeHtml } from '../../html';
import type { JobCounts } from '../../../jobs/queue';
import type { JobSummary } from '../../../services/background-jobs/background-jobs';
import { actionButton } from '../ci/action-button';
import { timeOf } from '../ci/status';
import { adminNav } from './nav';

export interface BackgroundJobsView {
  counts: JobCounts[];
  pending: JobSummary[];
  failed: JobSummary[];
  csrfToken: string;
  notice?: string;
}

function jobRows(jobs: JobSummary[], cells: (job: JobSummary) => SafeHtml): SafeHtml {
  return html`${jobs.map((job) => html`<tr><td>#${job.id}</td><td><code>${job.kind}</code></td>${cells(job)}</tr>`)}`;
}

/** `/admin/background_jobs`: the queue by kind, the jobs waiting, and those given up with their errors, to retry. */
export function backgroundJobsPage(view: BackgroundJobsView): SafeHtml {
  const { counts, pending, failed, csrfToken } = view;
  return html`${adminNav('Background jobs')}
<h1>Background jobs</h1>
${view.notice && html`<p class="notice" role="status">${view.notice}</p>`}
<p class="muted">Health checks: <a href="/-/health">/-/health</a> (the process answers), <a href="/-/readiness">/-/readiness</a> (the database answers).</p>
<section aria-labelledby="job-counts">
<h2 id="job-counts">Queue</h2>
${
  counts.length === 0
    ? html`<p class="muted">The queue is empty.</p>`
    : html`<div class="table-wrap"><table class="admin">
<thead><tr><th scope="col">Kind</th><th scope="col">Queued</th><th scope="col">Waiting to retry</th><th scope="col">Running</th><th scope="col">Failed</th><th scope="col">Oldest queued</th></tr></thead>
<tbody>${counts.map(
        (row) =>
          html`<tr><td><code>${row.kind}</code></td><td>${row.queued}</td><td>${row.scheduled}</td><td>${row.running}</td><td>${row.failed}</td><td>${row.oldestQueuedAt ? timeOf(row.oldestQueuedAt) : ''}</td></tr>`,
      )}</tbody></table></div>`
}
</section>
<section aria-labelledby="pending-jobs">
<h2 id="pending-jobs">Pending (${pending.length})</h2>
${
  pending.length === 0
    ? html`<p class="muted">No job is waiting.</p>`
    : html`<div class="table-wrap"><table class="admin">
<thead><tr><th scope="col">Job</th><th scope="col">Kind</th><th scope="col">Due</th><th scope="col">Attempts</th><th scope="col">Last error</th></tr></thead>
<tbody>${jobRows(pending, (job) => html`<td>${timeOf(job.run_at)}</td><td>${job.attempts} of ${job.max_attempts}</td><td>${job.last_error ?? ''}</td>`)}</tbody></table></div>`
}
</section>
<section aria-labelledby="failed-jobs">
<h2 id="failed-jobs">Failed (${failed.length})</h2>
${
  failed.length === 0
    ? html`<p class="muted">No job has failed.</p>`
    : html`<div class="table-wrap"><table class="admin">
<thead><tr><th scope="col">Job</th><th scope="col">Kind</th><th scope="col">Created</th><th scope="col">Attempts</th><th scope="col">Error</th><th scope="col"><span class="muted">Actions</span></th></tr></thead>
<tbody>${jobRows(
        failed,
        (job) =>
          html`<td>${timeOf(job.created_at)}</td><td>${job.attempts}</td><td><pre class="job-error">${job.last_error ?? ''}</pre></td><td>${actionButton(`/admin/background_jobs/${job.id}/retry`, `Retry job #${job.id}`, csrfToken)}</td>`,
      )}</tbody></table></div>`
}
</section>`;
}
