import { html, type SafeHtml } from '../../html';
import type { FieldErrors } from '../../form-errors';
import type { PersonalAccessToken } from '../../../services/access-tokens/personal-access-tokens';
import { TOKEN_SCOPES } from '../../../services/access-tokens/scopes';
import { formField, hiddenToken, otherErrors } from '../form-field';
import { scopeFieldset } from '../scopes';
import { profileNav } from './nav';

export interface TokensForm {
  csrfToken: string;
  active: PersonalAccessToken[];
  /** Sudo is offered to administrators only, as on GitLab's page: for anyone else it grants nothing. */
  admin: boolean;
  /** A token just made: its value is shown this once. */
  created?: { name: string; token: string };
  values?: { name?: string; expires_at?: string; scopes?: string[] };
  errors?: FieldErrors;
}

const scopesOf = (token: PersonalAccessToken): string => (JSON.parse(token.scopes) as string[]).join(', ');

/** `/profile/personal_access_tokens`: make a token (shown once), and the active ones, each to revoke. */
export function personalAccessTokensPage({ csrfToken, active, admin, created, values = {}, errors }: TokensForm): SafeHtml {
  const offered = admin ? TOKEN_SCOPES : TOKEN_SCOPES.filter((scope) => scope !== 'sudo');
  return html`${profileNav('Access Tokens')}
<h1>Personal Access Tokens</h1>
${
  created &&
  html`<div class="flash" role="status"><p>Your new personal access token <strong>${created.name}</strong> has been created. Copy it now: it is not shown again.</p>
<p><label for="created-token">Your new personal access token</label> <input id="created-token" type="text" readonly value="${created.token}" size="40"></p></div>`
}
<p>A token stands for you in the API (<code>PRIVATE-TOKEN</code> or <code>Authorization: Bearer</code>) and in git over HTTP (as the password), with only the scopes you give it.</p>
<section aria-labelledby="new-token">
<h2 id="new-token">Add a personal access token</h2>
${otherErrors(errors, ['name', 'expires_at', 'scopes'])}
<form class="stacked" method="post" action="/profile/personal_access_tokens">
${hiddenToken(csrfToken)}
${formField({ name: 'name', label: 'Name', value: values.name, errors, required: true })}
<label for="field-expires_at">Expires at</label>
<input type="date" id="field-expires_at" name="expires_at" value="${values.expires_at ?? ''}"${errors?.expires_at ? html` aria-invalid="true" aria-describedby="field-expires_at-error"` : ''}>
${errors?.expires_at && html`<p class="field-error" id="field-expires_at-error">Expires at ${errors.expires_at.join(', ')}</p>`}
${scopeFieldset(new Set(values.scopes ?? ['api']), errors, offered)}
<button type="submit" class="primary">Create personal access token</button>
</form>
</section>
<section aria-labelledby="active-tokens">
<h2 id="active-tokens">Active personal access tokens (${active.length})</h2>
${
  active.length === 0
    ? html`<p class="muted">You have no active personal access token.</p>`
    : html`<table><thead><tr><th scope="col">Name</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Expires</th><th scope="col">Scopes</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${active.map(
        (
          token,
        ) => html`<tr><td>${token.name}</td><td>${token.created_at.slice(0, 10)}</td><td>${token.last_used_at?.slice(0, 10) ?? 'Never'}</td><td>${token.expires_at ?? 'Never'}</td><td>${scopesOf(token)}</td>
<td><form method="post" action="/profile/personal_access_tokens/${token.id}/revoke" class="inline">${hiddenToken(csrfToken)}<button type="submit" aria-label="Revoke ${token.name}">Revoke</button></form></td></tr>`,
      )}</tbody></table>`
}
</section>`;
}
