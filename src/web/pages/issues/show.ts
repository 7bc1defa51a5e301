import { html, type SafeHtml } from '../../html';
import type { PageContext } from '../../context';
import type { IssueDetails } from '../../../services/issues/types';
import { commentForm, discussion, sidebar, stateBadge, type ShownNote } from '../issuable-parts';

export interface IssueView {
  details: IssueDetails;
  projectPath: string;
  description: SafeHtml;
  notes: ShownNote[];
  mayUpdate: boolean;
}

export function issuePage(page: PageContext, view: IssueView): SafeHtml {
  const { issue, author } = view.details;
  const base = `${view.projectPath}/issues/${issue.iid}`;
  const closed = issue.state === 'closed';
  return html`<article class="issuable">
<h1>${issue.title}</h1>
<p>${stateBadge(issue.state)} ${issue.confidential === 1 && html`<span class="badge">Confidential</span>`}
<span class="muted">Issue #${issue.iid} opened ${issue.created_at.slice(0, 10)} by ${author ? html`<a href="/u/${author.username}">${author.name}</a>` : 'Ghost user'}</span></p>
<div class="markdown description">${view.description}</div>
${sidebar({ ...view.details, projectPath: view.projectPath, list: 'issues' })}
<section aria-label="Discussion"><h2>Discussion</h2>
${discussion(view.notes)}
${commentForm(page, `${base}/notes`, view.mayUpdate ? { action: `${base}/${closed ? 'reopen' : 'close'}`, label: closed ? 'Reopen issue' : 'Close issue' } : undefined)}
</section>
</article>`;
}
