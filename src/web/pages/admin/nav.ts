import { html, type SafeHtml } from '../../html';

const TABS: Array<[string, string]> = [
  ['Overview', '/admin'],
  ['Users', '/admin/users'],
  ['Groups', '/admin/groups'],
  ['Projects', '/admin/projects'],
  ['Runners', '/admin/runners'],
  ['Messages', '/admin/broadcast_messages'],
  ['Hooks', '/admin/hooks'],
  ['Background jobs', '/admin/background_jobs'],
  ['Settings', '/admin/application_settings'],
];

/** The tabs every administration page starts with; `current` is the one shown. */
export function adminNav(current: string): SafeHtml {
  return html`<nav class="project-nav" aria-label="Admin area">${TABS.map(
    ([label, href]) => html`<a href="${href}"${label === current ? html` aria-current="page"` : ''}>${label}</a>`,
  )}</nav>`;
}

/** A page of a list, with its total, for the pager under it. */
export interface Paged<T> {
  items: T[];
  page: number;
  perPage: number;
  total: number;
}
