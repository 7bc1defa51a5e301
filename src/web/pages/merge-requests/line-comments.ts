import { html, type SafeHtml } from '../../html';
import type { PageContext } from '../../context';
import type { ShownNote } from '../issuable-parts';

/** A line comment's discussion as a page shows it: its notes, where it sits, and whether the reader may resolve it. */
export interface ShownDiscussion {
  id: string;
  notes: ShownNote[];
  path: string;
  line: number;
  outdated: boolean;
  resolved: boolean;
  mayResolve: boolean;
}

/** Resolve or unresolve a discussion; `back` is the tab to return to (`diffs` or the Discussion tab). */
export function resolveButton(page: PageContext, base: string, discussion: ShownDiscussion, back: 'diffs' | 'discussion'): SafeHtml {
  if (!discussion.mayResolve) return html`${discussion.resolved ? html`<span class="badge">resolved</span>` : ''}`;
  const action = `${base}/discussions/${discussion.id}/${discussion.resolved ? 'unresolve' : 'resolve'}`;
  return html`<form method="post" action="${action}" class="inline"><input type="hidden" name="authenticity_token" value="${page.csrfToken}"><input type="hidden" name="back" value="${back}"><button type="submit">${discussion.resolved ? 'Unresolve discussion' : 'Resolve discussion'}</button></form>`;
}

/** Where a line comment sits, for the Discussion tab: the file and line, and "outdated" when its line changed since. */
export function placeLabel(discussion: ShownDiscussion): SafeHtml {
  return html`<p class="note-place muted">on <code>${discussion.path}</code> line ${discussion.line}${discussion.outdated ? html` <span class="badge">outdated</span>` : ''}${discussion.resolved ? html` <span class="badge">resolved</span>` : ''}</p>`;
}

/** A discussion drawn under its line on the Changes tab. */
export function lineDiscussion(page: PageContext, base: string, discussion: ShownDiscussion): SafeHtml {
  return html`<div class="line-discussion${discussion.resolved ? ' resolved' : ''}" id="discussion_${discussion.id}">
<ol class="notes">${discussion.notes.map(
    ({ note, author, body }) =>
      html`<li class="note" id="note_${note.id}"><div class="note-header"><strong>${author?.name ?? 'Ghost user'}</strong> <span class="muted">@${author?.username ?? 'ghost'} · ${note.created_at.slice(0, 16).replace('T', ' ')}</span></div>
<div class="markdown note-body">${body}</div></li>`,
  )}</ol>
${resolveButton(page, base, discussion, 'diffs')}
</div>`;
}

/** The form under a line: `…/diffs?line_code=…#form` shows it, without JavaScript. */
export function lineCommentForm(page: PageContext, base: string, code: string): SafeHtml {
  return html`<form class="stacked line-comment-form" id="form" method="post" action="${base}/discussions">
<input type="hidden" name="authenticity_token" value="${page.csrfToken}">
<input type="hidden" name="line_code" value="${code}">
<label for="line_note_body">Comment on this line</label>
<textarea id="line_note_body" name="note" rows="4" required></textarea>
<button type="submit" class="primary">Comment</button> <a href="${base}/diffs#${code}">Cancel</a>
</form>`;
}
