import { html, type SafeHtml } from '../../html';
import type { FieldErrors } from '../../form-errors';

// The inputs `form-field.ts` does not draw, with its habits: a label, the messages beside the
// field tied to it for assistive technology, and what was typed kept.

interface Common {
  name: string;
  label: string;
  errors?: FieldErrors;
  /** The record's name for the field in its messages, when it is not the form's. */
  errorKey?: string;
  required?: boolean;
}

function messagesOf(options: Common): { messages: string[]; id: string; describedBy: SafeHtml | '' } {
  const messages = options.errors?.[options.errorKey ?? options.name] ?? [];
  const id = `field-${options.name}`;
  return { messages, id, describedBy: messages.length > 0 ? html` aria-invalid="true" aria-describedby="${id}-error"` : '' };
}

function messageLine(options: Common, id: string, messages: string[]): SafeHtml | false {
  return messages.length > 0 && html`<p class="field-error" id="${id}-error">${options.label} ${messages.join(', ')}</p>`;
}

export function textArea(options: Common & { value?: string; rows?: number; monospace?: boolean }): SafeHtml {
  const { messages, id, describedBy } = messagesOf(options);
  return html`<label for="${id}">${options.label}</label>
<textarea id="${id}" name="${options.name}" rows="${String(options.rows ?? 4)}"${options.monospace ? html` class="code-input" spellcheck="false"` : ''}${
    options.required ? ' required' : ''
  }${describedBy}>${options.value ?? ''}</textarea>
${messageLine(options, id, messages)}`;
}

export interface Choice {
  value: string;
  label: string;
}

export function selectField(options: Common & { choices: Choice[]; chosen?: string }): SafeHtml {
  const { messages, id, describedBy } = messagesOf(options);
  return html`<label for="${id}">${options.label}</label>
<select id="${id}" name="${options.name}"${options.required ? ' required' : ''}${describedBy}>${options.choices.map(
    (choice) => html`<option value="${choice.value}"${choice.value === options.chosen ? html` selected` : ''}>${choice.label}</option>`,
  )}</select>
${messageLine(options, id, messages)}`;
}

/** GitLab's three levels as radio buttons, the chosen one checked. */
export function visibilityField(chosen: string | undefined, errors: FieldErrors | undefined): SafeHtml {
  const messages = errors?.visibility_level ?? [];
  const levels: Array<[string, string, string]> = [
    ['0', 'Private', 'Access must be granted to each user explicitly.'],
    ['10', 'Internal', 'Any signed-in user can see it.'],
    ['20', 'Public', 'Anyone can see it, without signing in.'],
  ];
  return html`<fieldset${messages.length > 0 ? html` aria-describedby="field-visibility_level-error"` : ''}><legend>Visibility level</legend>${levels.map(
    ([value, label, hint]) =>
      html`<label class="checkbox"><input type="radio" name="visibility_level" value="${value}"${value === (chosen ?? '0') ? html` checked` : ''}> ${label}</label> <span class="muted">${hint}</span><br>`,
  )}</fieldset>
${messages.length > 0 && html`<p class="field-error" id="field-visibility_level-error">Visibility level ${messages.join(', ')}</p>`}`;
}
