import { html, type SafeHtml } from '../../html';
import type { FieldErrors } from '../../form-errors';
import type { Email } from '../../../services/users/emails';
import { formField, hiddenToken, otherErrors } from '../form-field';
import { profileNav } from './nav';

export interface EmailsForm {
  csrfToken: string;
  primary: string;
  emails: Email[];
  value?: string;
  errors?: FieldErrors;
}

/** `/profile/emails`: the primary e-mail, the secondary ones each to remove, and a form to add one. */
export function emailsPage({ csrfToken, primary, emails, value, errors }: EmailsForm): SafeHtml {
  return html`${profileNav('Emails')}
<h1>Emails</h1>
<p>Your primary e-mail, <strong>${primary}</strong>, is changed on the <a href="/profile">profile</a> page. Secondary e-mails are yours too: nobody else can take them.</p>
<section aria-labelledby="add-email">
<h2 id="add-email">Add an e-mail address</h2>
${otherErrors(errors, ['email'])}
<form class="stacked" method="post" action="/profile/emails">
${hiddenToken(csrfToken)}
${formField({ name: 'email', label: 'Email', type: 'email', value, errors, required: true, autocomplete: 'email' })}
<button type="submit" class="primary">Add email address</button>
</form>
</section>
<section aria-labelledby="your-emails">
<h2 id="your-emails">Secondary e-mails (${emails.length})</h2>
${
  emails.length === 0
    ? html`<p class="muted">You have no secondary e-mail address.</p>`
    : html`<ul class="projects">${emails.map(
        (email) => html`<li>${email.email}
<form method="post" action="/profile/emails/${email.id}/delete" class="inline">${hiddenToken(csrfToken)}<button type="submit" aria-label="Remove ${email.email}">Remove</button></form></li>`,
      )}</ul>`
}
</section>`;
}
