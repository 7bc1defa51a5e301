import { html, type SafeHtml } from '../../html';
import type { PageContext } from '../../context';
import type { SnippetRow } from '../../../services/snippets/project-snippets';
import type { User } from '../../../services/users/users';
import { visibilityName } from '../../paths';
import { commentForm, discussion, type ShownNote } from '../issuable-parts';

export interface SnippetView {
  snippet: SnippetRow;
  author: User | undefined;
  projectPath: string;
  /** The file highlighted, or undefined when it is too large to show (it is linked instead). */
  file: SafeHtml | undefined;
  notes: ShownNote[];
  mayComment: boolean;
}

/** `…/snippets/:id`: the title, its author, the file highlighted as a blob is, and the discussion. */
export function snippetPage(page: PageContext, view: SnippetView): SafeHtml {
  const { snippet, author } = view;
  const base = `${view.projectPath}/snippets/${snippet.id}`;
  return html`<article class="snippet">
<h1>${snippet.title}</h1>
<p><span class="badge">${visibilityName(snippet.visibility_level)}</span>
<span class="muted">Snippet $${snippet.id} created ${snippet.created_at.slice(0, 10)} by ${author ? html`<a href="/u/${author.username}">${author.name}</a>` : 'Ghost user'}</span></p>
<section class="blob" aria-label="File">
<header class="blob-head"><strong>${snippet.file_name}</strong> <a href="${base}/raw">Raw</a></header>
${view.file ?? html`<p class="download">This snippet is too large to show here. <a href="${base}/raw">View it raw</a>.</p>`}
</section>
<section aria-label="Discussion"><h2>Discussion</h2>
${discussion(view.notes)}
${view.mayComment || !page.user ? commentForm(page, `${base}/notes`) : ''}
</section>
</article>`;
}
