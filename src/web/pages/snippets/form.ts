import { html, type SafeHtml } from '../../html';
import type { PageContext } from '../../context';
import type { FieldErrors } from '../../form-errors';
import { fieldError } from '../issuable-parts';

export interface SnippetForm {
  action: string;
  values: { title?: string; fileName?: string; content?: string; visibility?: string };
  errors?: FieldErrors;
}

const LEVELS = [
  ['0', 'Private', 'Project members only'],
  ['10', 'Internal', 'Any signed-in user who may read the project'],
  ['20', 'Public', 'Anyone who may read the project'],
] as const;

/** `…/snippets/new`: title, file name, content and visibility. */
export function snippetForm(page: PageContext, form: SnippetForm): SafeHtml {
  const { values, errors } = form;
  const chosen = values.visibility ?? '0';
  return html`<h1>New snippet</h1>
${fieldError(errors, 'base')}
<form class="stacked snippet-form" method="post" action="${form.action}">
<input type="hidden" name="authenticity_token" value="${page.csrfToken}">
<label for="snippet_title">Title</label>
<input type="text" id="snippet_title" name="title" required maxlength="255" value="${values.title ?? ''}">
${fieldError(errors, 'title')}
<label for="snippet_file_name">File name</label>
<input type="text" id="snippet_file_name" name="file_name" required maxlength="255" value="${values.fileName ?? ''}">
${fieldError(errors, 'file_name')}
<label for="snippet_content">Content</label>
<textarea id="snippet_content" name="content" rows="14" required>${values.content ?? ''}</textarea>
${fieldError(errors, 'content')}
<fieldset><legend>Visibility</legend>${LEVELS.map(
    ([level, name, hint]) =>
      html`<label class="checkbox"><input type="radio" name="visibility_level" value="${level}"${chosen === level ? html` checked` : ''}> ${name} <span class="muted">(${hint})</span></label> `,
  )}</fieldset>
${fieldError(errors, 'visibility_level')}
<button type="submit" class="primary">Create snippet</button>
</form>`;
}
