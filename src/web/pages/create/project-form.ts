import { html, type SafeHtml } from '../../html';
import type { PageContext } from '../../context';
import type { FieldErrors } from '../../form-errors';
import type { NamespaceRow } from '../../../services/projects/types';
import { formField, hiddenToken, otherErrors } from '../form-field';
import { selectField, textArea, visibilityField } from './fields';

export interface ProjectFormValues {
  name?: string;
  path?: string;
  namespaceId?: string;
  description?: string;
  visibilityLevel?: string;
}

const namespaceLabel = (namespace: NamespaceRow) => (namespace.kind === 'user' ? `${namespace.path} (you)` : namespace.path);

/** `/projects/new`: where the project lives, its name and path, what it is about and who sees it. */
export function newProjectPage(
  page: PageContext,
  form: { namespaces: NamespaceRow[]; values: ProjectFormValues; errors?: FieldErrors },
): SafeHtml {
  const { values, errors } = form;
  const shown = ['namespace', 'name', 'path', 'description', 'visibility_level'];
  return html`<h1>New project</h1>
${otherErrors(errors, shown)}
<form class="stacked" method="post" action="/projects">
${hiddenToken(page.csrfToken)}
${selectField({
  name: 'namespace_id',
  label: 'Namespace',
  errorKey: 'namespace',
  choices: form.namespaces.map((namespace) => ({ value: String(namespace.id), label: namespaceLabel(namespace) })),
  chosen: values.namespaceId,
  errors,
})}
${formField({ name: 'name', label: 'Project name', value: values.name, errors, required: true })}
${formField({ name: 'path', label: 'Project path', value: values.path, errors })}
<p class="muted">Left blank, the path is made from the name.</p>
${textArea({ name: 'description', label: 'Description', value: values.description, errors })}
${visibilityField(values.visibilityLevel, errors)}
<button type="submit" class="primary">Create project</button>
</form>`;
}

/** `/:namespace/:project/forks/new`: the namespaces the caller may fork into, each a button. */
export function forkPage(
  page: PageContext,
  form: { action: string; source: string; namespaces: NamespaceRow[]; errors?: FieldErrors },
): SafeHtml {
  return html`<h1>Fork project</h1>
<p>Fork <strong>${form.source}</strong> into a namespace of yours:</p>
${otherErrors(form.errors, [])}
${
  form.namespaces.length === 0
    ? html`<p class="muted">There is no namespace you may create projects in.</p>`
    : html`<ul class="refs">${form.namespaces.map(
        (namespace) => html`<li><form class="inline" method="post" action="${form.action}">
${hiddenToken(page.csrfToken)}
<input type="hidden" name="namespace_key" value="${String(namespace.id)}">
<button type="submit">Fork into ${namespaceLabel(namespace)}</button>
</form></li>`,
      )}</ul>`
}`;
}
