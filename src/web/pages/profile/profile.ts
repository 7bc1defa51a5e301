import { html, type SafeHtml } from '../../html';
import type { FieldErrors } from '../../form-errors';
import { formField, hiddenToken, otherErrors } from '../form-field';
import { profileNav } from './nav';

export interface ProfileForm {
  csrfToken: string;
  values: { name: string; email: string };
  errors?: FieldErrors;
  passwordErrors?: FieldErrors;
  notice?: string;
}

const PROFILE_FIELDS = ['name', 'email'];
const PASSWORD_FIELDS = ['current_password', 'password', 'password_confirmation'];

/** `/profile`: name and e-mail, and the password (the current one required to change it). */
export function profilePage(form: ProfileForm): SafeHtml {
  const { csrfToken, values, errors, passwordErrors } = form;
  return html`${profileNav('Profile')}
<h1>Profile settings</h1>
${form.notice && html`<p class="notice" role="status">${form.notice}</p>`}
<section aria-labelledby="profile-heading">
<h2 id="profile-heading">Main settings</h2>
${otherErrors(errors, PROFILE_FIELDS)}
<form class="stacked" method="post" action="/profile">
${hiddenToken(csrfToken)}
${formField({ name: 'name', label: 'Name', value: values.name, errors, autocomplete: 'name', required: true })}
${formField({ name: 'email', label: 'Email', type: 'email', value: values.email, errors, autocomplete: 'email', required: true })}
<button type="submit" class="primary">Update profile settings</button>
</form>
</section>
<section aria-labelledby="password-heading">
<h2 id="password-heading">Password</h2>
<p class="muted">After a successful password update you will be sent to the sign-in page to sign in with it.</p>
${otherErrors(passwordErrors, PASSWORD_FIELDS)}
<form class="stacked" method="post" action="/profile/password">
${hiddenToken(csrfToken)}
${formField({ name: 'current_password', label: 'Current password', type: 'password', errors: passwordErrors, autocomplete: 'current-password', required: true })}
${formField({ name: 'password', label: 'New password', type: 'password', errors: passwordErrors, autocomplete: 'new-password', required: true })}
${formField({ name: 'password_confirmation', label: 'Password confirmation', type: 'password', errors: passwordErrors, autocomplete: 'new-password', required: true })}
<button type="submit">Save password</button>
</form>
</section>`;
}
