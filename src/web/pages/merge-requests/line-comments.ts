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
  /** Whether the reader may answer it. */
  mayReply: boolean;
}

/** The version the Changes tab shows (`?diff_id=&start_sha=`): carried by its forms so that they come back to it. */
export interface ViewAt {
  diffId?: number;
  startSha?: string;
}

/** The Changes tab's query for a view (empty for the latest version against its base). */
export function viewQuery(at: ViewAt): string {
  const query = new URLSearchParams();
  if (at.diffId !== undefined) query.set('diff_id', String(at.diffId));
  if (at.startSha !== undefined) query.set('start_sha', at.startSha);
  const text = query.toString();
  return text ? `?${text}` : '';
}

/** Where a form of the Changes tab or of the Discussion tab sends the reader back: that tab, on the same version. */
const returnFields = (at: ViewAt | undefined) =>
  at
    ? html`<input type="hidden" name="back" value="diffs">${at.diffId !== undefined && html`<input type="hidden" name="diff_id" value="${at.diffId}">`}${at.startSha !== undefined && html`<input type="hidden" name="start_sha" value="${at.startSha}">`}`
    : html`<input type="hidden" name="back" value="discussion">`;

/** Resolve or unresolve a discussion; `at` is the Changes tab's view to return to, undefined for the Discussion tab. */
export function resolveButton(page: PageContext, base: string, discussion: ShownDiscussion, at?: ViewAt): SafeHtml {
  if (!discussion.mayResolve) return html`${discussion.resolved ? html`<span class="badge">resolved</span>` : ''}`;
  const action = `${base}/discussions/${discussion.id}/${discussion.resolved ? 'unresolve' : 'resolve'}`;
  return html`<form method="post" action="${action}" class="inline"><input type="hidden" name="authenticity_token" value="${page.csrfToken}">${returnFields(at)}<button type="submit">${discussion.resolved ? 'Unresolve discussion' : 'Resolve discussion'}</button></form>`;
}

/** Where a line comment sits, for the Discussion tab: the file and line, and "outdated" when its line changed since. */
export function placeLabel(discussion: ShownDiscussion): SafeHtml {
  return html`<p class="note-place muted">on <code>${discussion.path}</code> line ${discussion.line}${discussion.outdated ? html` <span class="badge">outdated</span>` : ''}${discussion.resolved ? html` <span class="badge">resolved</span>` : ''}</p>`;
}

/**
 * A reply under a discussion, as a note of the same discussion (GitLab's "Reply..."); for those
 * who may resolve it, a second button that also resolves it (or unresolves it) in the same step.
 */
export function replyForm(page: PageContext, base: string, discussion: ShownDiscussion, at?: ViewAt): SafeHtml {
  if (!discussion.mayReply) return html``;
  const id = `reply_${discussion.id}`;
  return html`<form class="stacked reply-form" method="post" action="${base}/discussions/${discussion.id}/notes">
<input type="hidden" name="authenticity_token" value="${page.csrfToken}">${returnFields(at)}
<label for="${id}">Reply</label>
<textarea id="${id}" name="note" rows="2" required></textarea>
<button type="submit">Reply</button>${
    discussion.mayResolve &&
    html` <button type="submit" name="resolve_discussion" value="${discussion.resolved ? 'unresolve' : 'resolve'}">${
      discussion.resolved ? 'Comment & unresolve discussion' : 'Comment & resolve discussion'
    }</button>`
  }
</form>`;
}

const noteItem = ({ note, author, body }: ShownNote) =>
  html`<li class="note" id="note_${note.id}"><div class="note-header"><strong>${author?.name ?? 'Ghost user'}</strong> <span class="muted">@${author?.username ?? 'ghost'} · ${note.created_at.slice(0, 16).replace('T', ' ')}</span></div>
<div class="markdown note-body">${body}</div></li>`;

/** The replies of a discussion on the Discussion tab, under its first note, then the reply form. */
export function threadReplies(page: PageContext, base: string, discussion: ShownDiscussion): SafeHtml {
  const replies = discussion.notes.slice(1);
  return html`${replies.length > 0 && html`<ol class="notes replies">${replies.map(noteItem)}</ol>`}
${replyForm(page, base, discussion)}`;
}

/** A discussion drawn under its line on the Changes tab. */
export function lineDiscussion(page: PageContext, base: string, discussion: ShownDiscussion, at: ViewAt): SafeHtml {
  return html`<div class="line-discussion${discussion.resolved ? ' resolved' : ''}" id="discussion_${discussion.id}">
<ol class="notes">${discussion.notes.map(noteItem)}</ol>
${resolveButton(page, base, discussion, at)}
${replyForm(page, base, discussion, at)}
</div>`;
}

/** The form under a line: `…/diffs?line_code=…#form` shows it, without JavaScript; it names the version looked at. */
export function lineCommentForm(page: PageContext, base: string, code: string, at: ViewAt): SafeHtml {
  return html`<form class="stacked line-comment-form" id="form" method="post" action="${base}/discussions">
<input type="hidden" name="authenticity_token" value="${page.csrfToken}">
<input type="hidden" name="line_code" value="${code}">${at.diffId !== undefined && html`<input type="hidden" name="diff_id" value="${at.diffId}">`}${at.startSha !== undefined && html`<input type="hidden" name="start_sha" value="${at.startSha}">`}
<label for="line_note_body">Comment on this line</label>
<textarea id="line_note_body" name="note" rows="4" required></textarea>
<button type="submit" class="primary">Comment</button> <a href="${base}/diffs${viewQuery(at)}#${code}">Cancel</a>
</form>`;
}
