import { html, type SafeHtml } from '../html';
import type { FieldErrors } from '../form-errors';

export interface FieldOptions {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password';
  value?: string;
  errors?: FieldErrors;
  /** The record's name for the field in its messages, when it is not the form's (`password` for `new_password`). */
  errorKey?: string;
  autocomplete?: string;
  required?: boolean;
}

/**
 * A labelled input with the messages a service gave for it beside it, tied to it for assistive
 * technology (`aria-describedby`, `aria-invalid`); what was typed stays in it (never a password).
 */
export function formField(options: FieldOptions): SafeHtml {
  const { name, label, type = 'text', errors } = options;
  const messages = errors?.[options.errorKey ?? name] ?? [];
  const id = `field-${name}`;
  return html`<label for="${id}">${label}</label>
<input type="${type}" id="${id}" name="${name}"${type === 'password' ? '' : html` value="${options.value ?? ''}"`}${
    options.autocomplete ? html` autocomplete="${options.autocomplete}"` : ''
  }${options.required ? ' required' : ''}${messages.length > 0 ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''}>
${messages.length > 0 && html`<p class="field-error" id="${id}-error">${label} ${messages.join(', ')}</p>`}`;
}

/** Messages of fields the form does not show (a record's `base`), above it. */
export function otherErrors(errors: FieldErrors | undefined, shown: readonly string[]): SafeHtml {
  const rest = Object.entries(errors ?? {}).filter(([field]) => !shown.includes(field));
  if (rest.length === 0) return html``;
  return html`<div class="flash" role="alert">${rest.map(([field, list]) => html`<p>${field === 'base' ? '' : `${field} `}${list.join(', ')}</p>`)}</div>`;
}

export const hiddenToken = (csrfToken: string): SafeHtml => html`<input type="hidden" name="authenticity_token" value="${csrfToken}">`;
