import { html, type SafeHtml } from '../html';

export interface SignInForm {
  csrfToken: string;
  login?: string;
  /** Where to go once signed in (a path of this site). */
  redirectTo?: string;
  error?: string;
}

export function signInPage(form: SignInForm): SafeHtml {
  return html`<h1>Sign in</h1>
${form.error && html`<p class="flash" role="alert">${form.error}</p>`}
<form class="stacked" method="post" action="/users/sign_in">
<input type="hidden" name="authenticity_token" value="${form.csrfToken}">
${form.redirectTo && html`<input type="hidden" name="redirect_to" value="${form.redirectTo}">`}
<label for="login">Username or email</label>
<input type="text" id="login" name="login" autocomplete="username" autocapitalize="off" required value="${form.login ?? ''}">
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<button type="submit" class="primary">Sign in</button>
</form>`;
}
