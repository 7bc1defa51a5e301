import { html, type SafeHtml } from '../../html';

/** A button that POSTs to `action` with the page's CSRF token: every change a page makes is a form. */
export function actionButton(action: string, label: string, csrfToken: string, className = ''): SafeHtml {
  return html`<form method="post" action="${action}" class="inline">
<input type="hidden" name="authenticity_token" value="${csrfToken}">
<button type="submit"${className ? html` class="${className}"` : ''}>${label}</button>
</form>`;
}
