import { html, type SafeHtml } from '../../html';
import type { PageContext } from '../../context';
import type { FieldErrors } from '../../form-errors';
import type { Project } from '../../../services/projects/types';
import type { Variable } from '../../../services/variables/variables';
import type { Trigger } from '../../../services/ci/pipelines/triggers';
import { projectPath } from '../../paths';
import { formField, hiddenToken, otherErrors } from '../form-field';
import { textArea } from '../create/fields';
import { methodButton, settingsFrame } from './frame';

export interface VariableValues {
  key?: string;
  value?: string;
  protected?: boolean;
  masked?: boolean;
}

const flagBoxes = (values: VariableValues) =>
  html`<label class="checkbox"><input type="checkbox" name="protected" value="1"${values.protected ? ' checked' : ''}> Protected (only builds of protected branches and tags get it)</label>
<label class="checkbox"><input type="checkbox" name="masked" value="1"${values.masked ? ' checked' : ''}> Masked</label>`;

/** `…/variables`: the keys only (a value is shown on its own edit page), and the form that adds one. */
export function variablesPage(
  page: PageContext,
  project: Project,
  variables: Variable[],
  typed?: VariableValues & { errors?: FieldErrors },
): SafeHtml {
  const base = `${projectPath(project)}/variables`;
  const values = typed ?? {};
  const body = html`<h2>Add a variable</h2>
<p class="muted">Variables are handed to the project's builds as environment variables.</p>
${otherErrors(typed?.errors, ['key', 'value'])}
<form class="stacked" method="post" action="${base}">
${hiddenToken(page.csrfToken)}
${formField({ name: 'key', label: 'Key', value: values.key, errors: typed?.errors, required: true })}
${textArea({ name: 'value', label: 'Value', value: values.value, errors: typed?.errors, rows: 2, monospace: true })}
${flagBoxes(values)}
<button type="submit" class="primary">Add variable</button>
</form>
<h2>Variables <span class="badge">${String(variables.length)}</span></h2>
${
  variables.length === 0
    ? html`<p class="muted">The project has no variable.</p>`
    : html`<ul class="refs">${variables.map(
        (
          variable,
        ) => html`<li><code>${variable.key}</code>${variable.protected ? html` <span class="badge">protected</span>` : ''}${variable.masked ? html` <span class="badge">masked</span>` : ''}
<a class="button" href="${base}/${variable.key}/edit">Edit</a>
${methodButton({ action: `${base}/${variable.key}`, method: 'delete', csrfToken: page.csrfToken, label: 'Remove' })}</li>`,
      )}</ul>`
}`;
  return settingsFrame(project, 'variables', body);
}

/** `…/variables/:key/edit`: the value, shown to change it. */
export function editVariablePage(page: PageContext, project: Project, key: string, values: VariableValues, errors?: FieldErrors): SafeHtml {
  const body = html`<h2>Variable <code>${key}</code></h2>
${otherErrors(errors, ['value'])}
<form class="stacked" method="post" action="${projectPath(project)}/variables/${key}">
${hiddenToken(page.csrfToken)}<input type="hidden" name="_method" value="patch">
${textArea({ name: 'value', label: 'Value', value: values.value, errors, rows: 3, monospace: true })}
${flagBoxes(values)}
<button type="submit" class="primary">Save variable</button>
</form>`;
  return settingsFrame(project, 'variables', body);
}

/** `…/triggers`: each trigger's token (in full to its owner, as the API shows it), and the buttons that add and revoke one. */
export function triggersPage(page: PageContext, project: Project, triggers: Trigger[], viewerId: number): SafeHtml {
  const base = `${projectPath(project)}/triggers`;
  const body = html`<h2>Triggers</h2>
<p class="muted">A trigger's token starts a pipeline: <code>POST /api/v4/projects/${String(project.id)}/trigger/pipeline</code> with <code>token</code> and <code>ref</code>.</p>
${
  triggers.length === 0
    ? html`<p class="muted">The project has no trigger.</p>`
    : html`<ul class="refs">${triggers.map(
        (
          trigger,
        ) => html`<li><code class="token">${trigger.owner_id === null || trigger.owner_id === viewerId ? trigger.token : `${trigger.token.slice(0, 4)}…`}</code>
${trigger.description ? html` <span class="muted">${trigger.description}</span>` : ''}
${methodButton({ action: `${base}/${trigger.id}`, method: 'delete', csrfToken: page.csrfToken, label: 'Revoke' })}</li>`,
      )}</ul>`
}
<form class="stacked" method="post" action="${base}">
${hiddenToken(page.csrfToken)}
${formField({ name: 'description', label: 'Description (optional)' })}
<button type="submit" class="primary">Add trigger</button>
</form>`;
  return settingsFrame(project, 'triggers', body);
}
