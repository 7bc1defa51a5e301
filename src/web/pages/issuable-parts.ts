import { html, type SafeHtml } from '../html';
import type { PageContext } from '../context';
import type { MilestoneRow } from '../../services/milestones/milestones';
import type { NoteRow } from '../../services/notes/types';
import type { User } from '../../services/users/users';
import type { FieldErrors } from '../form-errors';

/** What an issue's and a merge request's pages share: state, the sidebar, the discussion and its form. */

export function stateBadge(state: string): SafeHtml {
  const name = state === 'reopened' ? 'opened' : state;
  return html`<span class="badge state-${name}">${name === 'opened' ? 'Open' : name === 'merged' ? 'Merged' : name === 'locked' ? 'Locked' : 'Closed'}</span>`;
}

export interface SidebarFacts {
  labels: string[];
  assignee: User | undefined;
  milestone: MilestoneRow | undefined;
  /** The project's page, for the label and milestone links. */
  projectPath: string;
  list: 'issues' | 'merge_requests';
}

export function sidebar(facts: SidebarFacts): SafeHtml {
  const { projectPath, milestone, assignee } = facts;
  return html`<aside class="issuable-sidebar" aria-label="Details">
<dl>
<dt>Assignee</dt><dd class="assignee">${assignee ? html`<a href="/u/${assignee.username}">${assignee.name}</a>` : 'None'}</dd>
<dt>Milestone</dt><dd class="milestone">${milestone ? html`<a href="${projectPath}/milestones/${milestone.iid}">${milestone.title}</a>` : 'None'}</dd>
<dt>Labels</dt><dd class="labels">${
    facts.labels.length
      ? facts.labels.map(
          (label) => html`<a class="label" href="${projectPath}/${facts.list}?label_name=${encodeURIComponent(label)}">${label}</a> `,
        )
      : 'None'
  }</dd>
</dl>
</aside>`;
}

export interface ShownNote {
  note: NoteRow;
  author: User | undefined;
  body: SafeHtml;
  /** Drawn under the note's header: a line comment's file and line, its resolve button. */
  extra?: SafeHtml;
  /** Drawn under the note's body: a thread's replies and its reply form. */
  thread?: SafeHtml;
}

/** Comments and system notes, oldest first. */
export function discussion(notes: ShownNote[]): SafeHtml {
  if (notes.length === 0) return html`<p class="muted">No comments yet.</p>`;
  return html`<ol class="notes">
${notes.map(({ note, author, body, extra, thread }) =>
  note.system === 1
    ? html`<li class="note system-note" id="note_${note.id}"><span class="muted">${author?.name ?? 'Someone'} ${note.note} · ${note.created_at.slice(0, 16).replace('T', ' ')}</span></li>
`
    : html`<li class="note" id="note_${note.id}"><div class="note-header"><strong>${author?.name ?? 'Ghost user'}</strong> <span class="muted">@${author?.username ?? 'ghost'} · ${note.created_at.slice(0, 16).replace('T', ' ')}</span></div>
${extra}<div class="markdown note-body">${body}</div>${thread}</li>
`,
)}</ol>`;
}

export function commentForm(page: PageContext, action: string, stateAction?: { action: string; label: string }): SafeHtml {
  if (!page.user) return html`<p><a href="/users/sign_in">Sign in</a> to comment.</p>`;
  return html`<form class="stacked comment-form" method="post" action="${action}">
<input type="hidden" name="authenticity_token" value="${page.csrfToken}">
<label for="note_body">Comment</label>
<textarea id="note_body" name="note" rows="5" required></textarea>
<button type="submit" class="primary">Comment</button>
</form>
${stateAction && stateButton(page, stateAction.action, stateAction.label)}`;
}

export function stateButton(page: PageContext, action: string, label: string): SafeHtml {
  return html`<form method="post" action="${action}" class="inline"><input type="hidden" name="authenticity_token" value="${page.csrfToken}"><button type="submit">${label}</button></form>`;
}

/** A field's messages beside it, if the form was refused. */
export function fieldError(errors: FieldErrors | undefined, field: string): SafeHtml | undefined {
  const messages = errors?.[field];
  return messages
    ? html`<p class="field-error" role="alert" id="${field}_error">${field === 'base' ? '' : `${field[0].toUpperCase()}${field.slice(1).replaceAll('_', ' ')} `}${messages.join(', ')}</p>`
    : undefined;
}

export function pager(base: string, query: URLSearchParams, page: number, total: number, perPage: number): SafeHtml | undefined {
  const pages = Math.ceil(total / perPage);
  if (pages <= 1) return undefined;
  const at = (number: number) => {
    const next = new URLSearchParams(query);
    next.set('page', String(number));
    return `${base}?${next}`;
  };
  return html`<nav class="pager" aria-label="Pages">${page > 1 && html`<a rel="prev" href="${at(page - 1)}">Previous</a>`} <span>Page ${page} of ${pages}</span> ${page < pages && html`<a rel="next" href="${at(page + 1)}">Next</a>`}</nav>`;
}
