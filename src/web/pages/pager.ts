import { html, type SafeHtml } from '../html';

/** The page a `?page=` asks for: 1 unless it is a whole number from 1 up. */
export function pageNumber(value: unknown): number {
  const page = typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : 1;
  return Math.max(page, 1);
}

/** Previous and next links under a paged list; nothing when everything fits on one page. */
export function pager(path: string, page: number, perPage: number, total: number): SafeHtml {
  const last = Math.max(1, Math.ceil(total / perPage));
  if (last === 1) return html``;
  // A path that carries its own query (a search) keeps it.
  const link = (to: number) => `${path}${path.includes('?') ? '&' : '?'}page=${to}`;
  return html`<nav class="pager" aria-label="Pages">
${page > 1 ? html`<a rel="prev" href="${link(page - 1)}">Previous</a>` : ''}
<span>Page ${page} of ${last}</span>
${page < last ? html`<a rel="next" href="${link(page + 1)}">Next</a>` : ''}
</nav>`;
}
