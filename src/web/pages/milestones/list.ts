import { html, type SafeHtml } from '../../html';
import type { MilestoneRow } from '../../../services/milestones/milestones';
import type { MilestoneProgress } from '../../../services/milestones/progress';
import { pager } from '../issuable-parts';

export type MilestoneState = 'opened' | 'closed' | 'all';

export interface MilestoneList {
  projectPath: string;
  milestones: MilestoneRow[];
  progress: Map<number, MilestoneProgress>;
  total: number;
  page: number;
  perPage: number;
  state: MilestoneState;
}

const TABS = [
  ['opened', 'Open'],
  ['closed', 'Closed'],
  ['all', 'All'],
] as const;

/** Closed issues of all, as a whole percentage (0 for a milestone with none). */
export const percentDone = ({ closed, total }: MilestoneProgress): number => (total === 0 ? 0 : Math.floor((closed * 100) / total));

/** A milestone's progress: a `<progress>` bar and the counts in words. */
export function progressOf(progress: MilestoneProgress): SafeHtml {
  return html`<progress max="100" value="${percentDone(progress)}">${percentDone(progress)}%</progress>
<span class="muted">${progress.closed} of ${progress.total} issues closed · ${percentDone(progress)}% complete</span>`;
}

/** `…/milestones`: open, closed or every milestone, each with its progress. */
export function milestoneListPage(list: MilestoneList): SafeHtml {
  const base = `${list.projectPath}/milestones`;
  return html`<h1>Milestones</h1>
<nav class="tabs" aria-label="Milestone states">${TABS.map(
    ([state, label]) => html`<a href="${base}?state=${state}"${list.state === state ? html` aria-current="page"` : ''}>${label}</a> `,
  )}</nav>
${
  list.milestones.length === 0
    ? html`<p class="muted">No milestones to show.</p>`
    : html`<ul class="issuables milestones">${list.milestones.map(
        (
          milestone,
        ) => html`<li><a href="${base}/${milestone.iid}">${milestone.title}</a> ${milestone.state === 'closed' && html`<span class="badge state-closed">Closed</span>`}
${milestone.due_date && html`<span class="muted">due ${milestone.due_date}</span>`}
<div>${progressOf(list.progress.get(milestone.id) ?? { closed: 0, total: 0 })}</div></li>
`,
      )}</ul>`
}
${pager(base, new URLSearchParams({ state: list.state }), list.page, list.total, list.perPage)}`;
}
