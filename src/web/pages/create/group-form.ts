import { html, type SafeHtml } from '../../html';
import type { PageContext } from '../../context';
import type { FieldErrors } from '../../form-errors';
import { formField, hiddenToken, otherErrors } from '../form-field';
import { textArea, visibilityField } from './fields';

export interface GroupFormValues {
  path?: string;
  name?: string;
  description?: string;
  visibilityLevel?: string;
}

/** `/groups/new`: the group's path (its URL), name, description and visibility. */
export function newGroupPage(page: PageContext, form: { values: GroupFormValues; errors?: FieldErrors }): SafeHtml {
  const { values, errors } = form;
  return html`<h1>New group</h1>
${otherErrors(errors, ['path', 'name', 'description', 'visibility_level'])}
<form class="stacked" method="post" action="/groups">
${hiddenToken(page.csrfToken)}
${formField({ name: 'path', label: 'Group path', value: values.path, errors, required: true })}
${formField({ name: 'name', label: 'Group name', value: values.name, errors })}
<p class="muted">Left blank, the name is the path.</p>
${textArea({ name: 'description', label: 'Description', value: values.description, errors })}
${visibilityField(values.visibilityLevel, errors)}
<button type="submit" class="primary">Create group</button>
</form>`;
}
