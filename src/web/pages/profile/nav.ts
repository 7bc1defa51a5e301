import { html, type SafeHtml } from '../../html';

const TABS: Array<[string, string]> = [
  ['Profile', '/profile'],
  ['Account', '/profile/account'],
  ['SSH Keys', '/profile/keys'],
  ['Emails', '/profile/emails'],
  ['Notifications', '/profile/notifications'],
  ['Access Tokens', '/profile/personal_access_tokens'],
  ['Applications', '/profile/applications'],
];

/** The profile's tabs. */
export function profileNav(current: string): SafeHtml {
  return html`<nav class="project-nav" aria-label="Profile">${TABS.map(
    ([label, href]) => html`<a href="${href}"${label === current ? html` aria-current="page"` : ''}>${label}</a>`,
  )}</nav>`;
}
