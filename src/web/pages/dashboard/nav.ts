import { html, type SafeHtml } from '../../html';

const TABS: Array<[string, string]> = [
  ['Projects', '/'],
  ['Starred projects', '/dashboard/projects/starred'],
  ['Todos', '/dashboard/todos'],
  ['Issues', '/dashboard/issues'],
  ['Merge requests', '/dashboard/merge_requests'],
];

/** The tabs of a signed-in user's own pages; `current` is the one shown. */
export function dashboardNav(current: string): SafeHtml {
  return html`<nav class="project-nav" aria-label="Your work">${TABS.map(
    ([label, href]) => html`<a href="${href}"${label === current ? html` aria-current="page"` : ''}>${label}</a>`,
  )}</nav>`;
}
