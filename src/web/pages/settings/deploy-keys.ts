import { html, type SafeHtml } from '../../html';
import type { PageContext } from '../../context';
import type { FieldErrors } from '../../form-errors';
import type { Project } from '../../../services/projects/types';
import type { Key } from '../../../services/users/keys';
import { projectPath } from '../../paths';
import { formField, hiddenToken, otherErrors } from '../form-field';
import { textArea } from '../create/fields';
import { methodButton, settingsFrame } from './frame';

export interface DeployKeysSettings {
  project: Project;
  enabled: Key[];
  /** Keys of the caller's other projects that could be enabled here. */
  available: Key[];
  typed?: { title?: string; key?: string; errors?: FieldErrors };
}

const keyLine = (key: Key) => html`<strong>${key.title}</strong> <code>${key.fingerprint ?? ''}</code>`;

/** `…/deploy_keys`: the read-only SSH keys that fetch this project, a form that adds one, and the caller's other keys to enable. */
export function deployKeysPage(page: PageContext, settings: DeployKeysSettings): SafeHtml {
  const { project, typed = {} } = settings;
  const base = `${projectPath(project)}/deploy_keys`;
  const body = html`<h2>Add a deploy key</h2>
<p class="muted">A deploy key fetches this project over SSH; it never pushes.</p>
${otherErrors(typed.errors, ['title', 'key'])}
<form class="stacked" method="post" action="${base}">
${hiddenToken(page.csrfToken)}
${formField({ name: 'title', label: 'Title', value: typed.title, errors: typed.errors, required: true })}
${textArea({ name: 'key', label: 'Key', value: typed.key, errors: typed.errors, required: true, monospace: true })}
<button type="submit" class="primary">Add key</button>
</form>
<h2>Enabled deploy keys</h2>
${
  settings.enabled.length === 0
    ? html`<p class="muted">No deploy key fetches this project.</p>`
    : html`<ul class="refs">${settings.enabled.map(
        (key) =>
          html`<li>${keyLine(key)} ${methodButton({ action: `${base}/${key.id}`, method: 'delete', csrfToken: page.csrfToken, label: 'Remove' })}</li>`,
      )}</ul>`
}
<h2>Deploy keys of your other projects</h2>
${
  settings.available.length === 0
    ? html`<p class="muted">There is no other deploy key you may enable here.</p>`
    : html`<ul class="refs">${settings.available.map(
        (key) =>
          html`<li>${keyLine(key)} ${methodButton({ action: `${base}/${key.id}/enable`, method: 'post', csrfToken: page.csrfToken, label: 'Enable' })}</li>`,
      )}</ul>`
}`;
  return settingsFrame(project, 'deploy_keys', body);
}
