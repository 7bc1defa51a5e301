import { html, type SafeHtml } from '../../html';
import type { FieldErrors } from '../../form-errors';
import type { OAuthApplication } from '../../../services/access-tokens/oauth';
import { formField, hiddenToken, otherErrors } from '../form-field';
import { scopeFieldset } from '../scopes';
import { profileNav } from './nav';

export interface ApplicationsForm {
  csrfToken: string;
  owned: OAuthApplication[];
  authorized: Array<{ application: OAuthApplication; authorized_at: string }>;
  /** An application just registered, with its secret: shown this once. */
  created?: { application: OAuthApplication; secret: string };
  values?: { name?: string; redirect_uri?: string; scopes?: string[]; confidential?: boolean };
  errors?: FieldErrors;
}

const scopesOf = (application: OAuthApplication): string => (JSON.parse(application.scopes) as string[]).join(', ');

/** `/profile/applications`: the OAuth applications the user registered, a form for a new one, and those the user authorized. */
export function applicationsPage({ csrfToken, owned, authorized, created, values = {}, errors }: ApplicationsForm): SafeHtml {
  const chosen = new Set(values.scopes ?? ['api']);
  return html`${profileNav('Applications')}
<h1>Applications</h1>
${
  created &&
  html`<div class="flash" role="status"><p>Application <strong>${created.application.name}</strong> was created. Copy its secret now: it is not shown again.</p>
<dl><dt>Application ID</dt><dd><code>${created.application.uid}</code></dd><dt>Secret</dt><dd><code>${created.secret}</code></dd><dt>Callback URL</dt><dd><code>${created.application.redirect_uri}</code></dd></dl></div>`
}
<section aria-labelledby="new-application">
<h2 id="new-application">Add a new application</h2>
<p>Register a program that signs users in with this instance (OAuth2's authorization code flow at <code>/oauth/authorize</code> and <code>/oauth/token</code>).</p>
${otherErrors(errors, ['name', 'redirect_uri', 'scopes'])}
<form class="stacked" method="post" action="/profile/applications">
${hiddenToken(csrfToken)}
${formField({ name: 'name', label: 'Name', value: values.name, errors, required: true })}
${formField({ name: 'redirect_uri', label: 'Redirect URI', value: values.redirect_uri, errors, required: true })}
${scopeFieldset(chosen, errors)}
<label><input type="checkbox" name="confidential" value="1"${values.confidential === false ? '' : ' checked'}> Confidential (the application keeps its secret on a server; untick for a desktop or mobile program)</label>
<button type="submit" class="primary">Save application</button>
</form>
</section>
<section aria-labelledby="your-applications">
<h2 id="your-applications">Your applications (${owned.length})</h2>
${
  owned.length === 0
    ? html`<p class="muted">You have registered no application.</p>`
    : html`<table><thead><tr><th scope="col">Name</th><th scope="col">Application ID</th><th scope="col">Callback URL</th><th scope="col">Scopes</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${owned.map(
        (
          application,
        ) => html`<tr><td>${application.name}</td><td><code>${application.uid}</code></td><td><code>${application.redirect_uri}</code></td><td>${scopesOf(application)}</td>
<td><form method="post" action="/profile/applications/${application.id}/delete" class="inline">${hiddenToken(csrfToken)}<button type="submit" aria-label="Destroy ${application.name}">Destroy</button></form></td></tr>`,
      )}</tbody></table>`
}
</section>
<section aria-labelledby="authorized-applications">
<h2 id="authorized-applications">Authorized applications (${authorized.length})</h2>
${
  authorized.length === 0
    ? html`<p class="muted">You have authorized no application.</p>`
    : html`<table><thead><tr><th scope="col">Name</th><th scope="col">Authorized at</th><th scope="col">Scopes</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${authorized.map(
        ({ application, authorized_at }) => html`<tr><td>${application.name}</td><td>${authorized_at}</td><td>${scopesOf(application)}</td>
<td><form method="post" action="/profile/applications/authorized/${application.id}/revoke" class="inline">${hiddenToken(csrfToken)}<button type="submit" aria-label="Revoke ${application.name}">Revoke</button></form></td></tr>`,
      )}</tbody></table>`
}
</section>`;
}
