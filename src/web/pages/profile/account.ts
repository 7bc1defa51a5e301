import { html, type SafeHtml } from '../../html';
import { hiddenToken } from '../form-field';
import { profileNav } from './nav';

/** `/profile/account`: the private token, and a button that makes a new one. */
export function accountPage({ csrfToken, privateToken, notice }: { csrfToken: string; privateToken: string; notice?: string }): SafeHtml {
  return html`${profileNav('Account')}
<h1>Account</h1>
${notice && html`<p class="notice" role="status">${notice}</p>`}
<section aria-labelledby="token-heading">
<h2 id="token-heading">Private token</h2>
<p>Your private token is used to access the API and Atom feeds without a password. Keep it secret.</p>
<label for="private-token">Private token</label>
<input type="text" id="private-token" readonly value="${privateToken}">
<form method="post" action="/profile/reset_private_token">
${hiddenToken(csrfToken)}
<button type="submit">Reset private token</button>
</form>
</section>`;
}
