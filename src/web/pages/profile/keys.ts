import { html, type SafeHtml } from '../../html';
import type { FieldErrors } from '../../form-errors';
import type { Key } from '../../../services/users/keys';
import { formField, hiddenToken, otherErrors } from '../form-field';
import { timeOf } from '../ci/status';
import { profileNav } from './nav';

export interface KeysForm {
  csrfToken: string;
  keys: Key[];
  values?: { title: string; key: string };
  errors?: FieldErrors;
}

/** `/profile/keys`: the user's SSH keys, a form to add one, a button to remove each. */
export function keysPage({ csrfToken, keys, values, errors }: KeysForm): SafeHtml {
  const keyErrors = errors?.key ?? [];
  return html`${profileNav('SSH Keys')}
<h1>SSH Keys</h1>
<section aria-labelledby="add-key">
<h2 id="add-key">Add an SSH key</h2>
${otherErrors(errors, ['title', 'key'])}
<form class="stacked" method="post" action="/profile/keys">
${hiddenToken(csrfToken)}
<label for="field-key">Key</label>
<textarea id="field-key" name="key" rows="4" required${keyErrors.length > 0 ? html` aria-invalid="true" aria-describedby="field-key-error"` : ''}>${values?.key ?? ''}</textarea>
${keyErrors.length > 0 && html`<p class="field-error" id="field-key-error">Key ${keyErrors.join(', ')}</p>`}
${formField({ name: 'title', label: 'Title', value: values?.title, errors, required: true })}
<button type="submit" class="primary">Add key</button>
</form>
</section>
<section aria-labelledby="your-keys">
<h2 id="your-keys">Your SSH keys (${keys.length})</h2>
${
  keys.length === 0
    ? html`<p class="muted">There are no SSH keys with access to your account.</p>`
    : html`<ul class="projects">${keys.map(
        (
          key,
        ) => html`<li><strong>${key.title}</strong> <code>${key.fingerprint ?? ''}</code> <span class="muted">added ${timeOf(key.created_at)}</span>
<form method="post" action="/profile/keys/${key.id}/delete" class="inline">${hiddenToken(csrfToken)}<button type="submit" aria-label="Remove ${key.title}">Remove</button></form></li>`,
      )}</ul>`
}
</section>`;
}
