import { html, type SafeHtml } from '../html';
import type { FieldErrors } from '../form-errors';
import { TOKEN_SCOPES, type TokenScope } from '../../services/access-tokens/scopes';

/** What each scope lets a token or an application do, for the pages that ask and list. */
export const SCOPE_DESCRIPTIONS: Record<TokenScope, string> = {
  api: 'Access the API as the user: read and write everything they may, their projects and groups included.',
  read_api: 'Read the API as the user: everything they may read, nothing written.',
  read_user: 'Read the user’s personal information (username, e-mail, profile).',
  read_repository: 'Read the repositories the user may read, over git and the API.',
  write_repository: 'Read and write the repositories the user may write to, over git (push).',
  sudo: 'Act as any user of the instance (administrators only).',
};

/** The scope checkboxes of a form, with the service's message for them beside them. */
export function scopeFieldset(
  chosen: ReadonlySet<string>,
  errors: FieldErrors | undefined,
  offered: readonly TokenScope[] = TOKEN_SCOPES,
): SafeHtml {
  return html`<fieldset${errors?.scopes ? html` aria-describedby="scopes-error"` : ''}><legend>Scopes</legend>
${offered.map(
  (scope) =>
    html`<label><input type="checkbox" name="scopes" value="${scope}"${chosen.has(scope) ? ' checked' : ''}> <strong>${scope}</strong>: ${SCOPE_DESCRIPTIONS[scope]}</label>`,
)}
${errors?.scopes && html`<p class="field-error" id="scopes-error">Scopes ${errors.scopes.join(', ')}</p>`}
</fieldset>`;
}
