import { html, type SafeHtml } from '../../html';
import type { RunnerRow } from '../../../services/ci/types';
import type { RunnerDetails } from '../../../services/ci/runners/admin';
import { projectPath } from '../../paths';
import { actionButton } from '../ci/action-button';
import { timeOf } from '../ci/status';
import { hiddenToken } from '../form-field';
import { pager } from '../pager';
import { adminNav, type Paged } from './nav';

const runnerPath = (runner: RunnerRow) => `/admin/runners/${runner.id}`;

function pauseButton(runner: RunnerRow, csrfToken: string): SafeHtml {
  return runner.active
    ? actionButton(`${runnerPath(runner)}/pause`, `Pause runner #${runner.id}`, csrfToken)
    : actionButton(`${runnerPath(runner)}/resume`, `Resume runner #${runner.id}`, csrfToken);
}

/** `/admin/runners`: the shared runners' registration token (and a new one), and every runner, to pause, resume or remove. */
export function adminRunnersPage(list: Paged<RunnerRow>, registrationToken: string, csrfToken: string): SafeHtml {
  return html`${adminNav('Runners')}
<h1>Runners (${list.total})</h1>
<section aria-labelledby="registration">
<h2 id="registration">Registration</h2>
<p>Register a shared runner with this URL and token (for example <code>forge runner --registration-token …</code>):</p>
<label for="registration-token">Registration token</label>
<input type="text" id="registration-token" readonly value="${registrationToken}">
${actionButton('/admin/application_settings/reset_runners_token', 'Reset runners registration token', csrfToken)}
</section>
<div class="table-wrap"><table class="admin">
<thead><tr><th scope="col">Runner</th><th scope="col">Type</th><th scope="col">Description</th><th scope="col">Version</th><th scope="col">Last contact</th><th scope="col"><span class="muted">Actions</span></th></tr></thead>
<tbody>${list.items.map(
    (runner) => html`<tr>
<td><a href="${runnerPath(runner)}">#${runner.id}</a>${runner.active ? '' : html` <span class="badge">paused</span>`}</td>
<td>${runner.is_shared ? 'shared' : 'specific'}</td>
<td>${runner.description ?? ''}</td>
<td>${runner.version ?? ''}</td>
<td>${runner.contacted_at ? timeOf(runner.contacted_at) : 'never'}</td>
<td>${pauseButton(runner, csrfToken)} ${actionButton(`${runnerPath(runner)}/delete`, `Remove runner #${runner.id}`, csrfToken, 'danger')}</td>
</tr>`,
  )}</tbody></table></div>
${pager('/admin/runners', list.page, list.perPage, list.total)}`;
}

export interface RunnerForm {
  csrfToken: string;
  projectPath?: string;
  error?: string;
}

/** `/admin/runners/:id`: one runner, the projects it serves, and (a specific runner) a form to assign it to one more. */
export function adminRunnerPage(details: RunnerDetails, form: RunnerForm): SafeHtml {
  const { runner, projects } = details;
  const { csrfToken } = form;
  return html`${adminNav('Runners')}
<h1>Runner #${runner.id}${runner.active ? '' : html` <span class="badge">paused</span>`}</h1>
<dl>
<dt>Type</dt><dd>${runner.is_shared ? 'shared' : 'specific'}${runner.locked ? ' (locked to its projects)' : ''}</dd>
<dt>Description</dt><dd>${runner.description ?? ''}</dd>
<dt>Version</dt><dd>${runner.version ?? ''}</dd>
<dt>Last contact</dt><dd>${runner.contacted_at ? timeOf(runner.contacted_at) : 'never'}</dd>
</dl>
${pauseButton(runner, csrfToken)} ${actionButton(`${runnerPath(runner)}/delete`, `Remove runner #${runner.id}`, csrfToken, 'danger')}
<section aria-labelledby="runner-projects">
<h2 id="runner-projects">Projects</h2>
${
  runner.is_shared
    ? html`<p class="muted">A shared runner runs the builds of every project that has shared runners enabled.</p>`
    : html`<ul class="projects">${projects.map(({ project }) => html`<li><a href="${projectPath(project)}">${project.namespace.name} / ${project.name}</a></li>`)}</ul>
<form class="stacked" method="post" action="${runnerPath(runner)}/projects">
${hiddenToken(csrfToken)}
<label for="field-project">Assign to project (path, as <code>group/project</code>)</label>
<input type="text" id="field-project" name="project" value="${form.projectPath ?? ''}" required${
        form.error ? html` aria-invalid="true" aria-describedby="field-project-error"` : ''
      }>
${form.error && html`<p class="field-error" id="field-project-error">${form.error}</p>`}
<button type="submit">Assign runner</button>
</form>`
}
</section>`;
}
