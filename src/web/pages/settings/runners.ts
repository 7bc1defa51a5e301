import { html, type SafeHtml } from '../../html';
import type { PageContext } from '../../context';
import type { Project } from '../../../services/projects/types';
import type { RunnerRow } from '../../../services/ci/types';
import { projectPath } from '../../paths';
import { otherErrors } from '../form-field';
import type { FieldErrors } from '../../form-errors';
import { methodButton, settingsFrame } from './frame';

export interface RunnersSettings {
  project: Project;
  registrationToken: string;
  /** The project's own (specific) runners. */
  enabled: RunnerRow[];
  /** Specific runners of the caller's other projects that may be enabled here. */
  available: RunnerRow[];
  sharedCount: number;
  errors?: FieldErrors;
}

const runnerLine = (runner: RunnerRow) =>
  html`<strong>#${String(runner.id)}</strong> ${runner.description ?? ''}${runner.active ? '' : html` <span class="badge">paused</span>`}${
    runner.locked ? html` <span class="badge">locked</span>` : ''
  }`;

/** `…/runners`: the registration token and its reset, the specific runners enabled and enableable, shared runners on or off. */
export function runnersPage(page: PageContext, settings: RunnersSettings): SafeHtml {
  const { project } = settings;
  const base = `${projectPath(project)}/runners`;
  const sharedOn = project.shared_runners_enabled === 1;
  const body = html`${otherErrors(settings.errors, [])}
<h2>Specific runners</h2>
<p>Register a runner for this project with the token <code class="token">${settings.registrationToken}</code></p>
${methodButton({ action: `${projectPath(project)}/runners_token/reset`, method: 'post', csrfToken: page.csrfToken, label: 'Reset registration token' })}
<h3>Enabled for this project</h3>
${
  settings.enabled.length === 0
    ? html`<p class="muted">No specific runner is enabled.</p>`
    : html`<ul class="refs">${settings.enabled.map(
        (runner) =>
          html`<li>${runnerLine(runner)} ${methodButton({ action: `${base}/${runner.id}`, method: 'delete', csrfToken: page.csrfToken, label: 'Disable for this project' })}</li>`,
      )}</ul>`
}
<h3>Runners of your other projects</h3>
${
  settings.available.length === 0
    ? html`<p class="muted">There is no other runner you may enable here.</p>`
    : html`<ul class="refs">${settings.available.map(
        (runner) =>
          html`<li>${runnerLine(runner)} ${methodButton({ action: `${base}/${runner.id}/enable`, method: 'post', csrfToken: page.csrfToken, label: 'Enable for this project' })}</li>`,
      )}</ul>`
}
<h2>Shared runners</h2>
<p>Shared runners are <strong>${sharedOn ? 'on' : 'off'}</strong> for this project (${String(settings.sharedCount)} on this instance).</p>
${methodButton({ action: `${base}/shared`, method: 'post', csrfToken: page.csrfToken, label: sharedOn ? 'Disable shared runners' : 'Enable shared runners' })}`;
  return settingsFrame(project, 'runners', body);
}
