import { html, type SafeHtml } from '../../html';
import type { SnippetRow } from '../../../services/snippets/project-snippets';
import type { User } from '../../../services/users/users';
import { visibilityName } from '../../paths';
import { pager } from '../issuable-parts';

export interface SnippetList {
  projectPath: string;
  snippets: SnippetRow[];
  authors: Map<number, User>;
  total: number;
  page: number;
  perPage: number;
  mayCreate: boolean;
}

/** `…/snippets`: the snippets the caller may read, newest first. */
export function snippetListPage(list: SnippetList): SafeHtml {
  const base = `${list.projectPath}/snippets`;
  return html`<h1>Snippets</h1>
${list.mayCreate && html`<p><a class="button" href="${base}/new">New snippet</a></p>`}
${
  list.snippets.length === 0
    ? html`<p class="muted">No snippets to show.</p>`
    : html`<ul class="issuables snippets">${list.snippets.map((snippet) => {
        const author = snippet.author_id === null ? undefined : list.authors.get(snippet.author_id);
        return html`<li><a href="${base}/${snippet.id}">${snippet.title}</a> <span class="badge">${visibilityName(snippet.visibility_level)}</span>
<div class="muted">$${snippet.id} · ${snippet.file_name} · by ${author?.name ?? 'Ghost user'} · ${snippet.created_at.slice(0, 10)}</div></li>
`;
      })}</ul>`
}
${pager(base, new URLSearchParams(), list.page, list.total, list.perPage)}`;
}
