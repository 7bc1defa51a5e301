import { html, type SafeHtml } from '../../html';
import type { CheckedAuthorization } from '../../../services/access-tokens/oauth';
import { hiddenToken } from '../form-field';
import { SCOPE_DESCRIPTIONS } from '../scopes';

export interface ConsentForm {
  csrfToken: string;
  checked: CheckedAuthorization;
  /** The request's own fields, sent back with the answer. */
  fields: Record<string, string>;
  /** Who registered the application, when a user did (an administrator's has none). */
  ownerName?: string;
}

/** Doorkeeper's and GitLab's consent page: who asks, for what, and the two answers. */
export function consentPage({ csrfToken, checked, fields, ownerName }: ConsentForm): SafeHtml {
  const hidden = Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  return html`<h1>Authorize ${checked.application.name} to use your account?</h1>
<p>${
    ownerName
      ? html`An application registered by <strong>${ownerName}</strong>`
      : html`An application registered by an administrator of this instance`
  } is asking to act for you, and will be sent back to <code>${checked.redirectUri}</code>.</p>
<section aria-labelledby="scopes">
<h2 id="scopes">This application will be able to:</h2>
<ul>${checked.scopes.map((scope) => html`<li><strong>${scope}</strong>: ${SCOPE_DESCRIPTIONS[scope]}</li>`)}</ul>
</section>
<form method="post" action="/oauth/authorize/confirm" class="inline">
${hiddenToken(csrfToken)}${hidden}
<button type="submit" name="decision" value="approve" class="primary">Authorize</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`;
}
