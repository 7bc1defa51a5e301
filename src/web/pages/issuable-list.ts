import { html, type SafeHtml } from '../html';

/** What the issue and merge request lists share above their rows. */
export interface IssuableListHead {
  /** The list's own URL (`…/issues`, `…/merge_requests`). */
  base: string;
  /** The state tabs, each a state and its label, and what the tab bar is called. */
  tabs: ReadonlyArray<readonly [string, string]>;
  tabsLabel: string;
  state: string;
  /** The filters as asked, kept in the tabs and the form. */
  query: URLSearchParams;
  /** The "New …" button's label, when the caller may create one. */
  newLabel: string | false;
}

/** The state tabs (each keeping the filters, back to the first page) and the filter form of a list page. */
export function issuableListHead({ base, tabs, tabsLabel, state: current, query, newLabel }: IssuableListHead): SafeHtml {
  const tab = (state: string) => {
    const asked = new URLSearchParams(query);
    asked.set('state', state);
    asked.delete('page');
    return `${base}?${asked}`;
  };
  const value = (name: string) => query.get(name) ?? '';
  return html`<nav class="tabs" aria-label="${tabsLabel}">${tabs.map(
    ([state, label]) => html`<a href="${tab(state)}"${current === state ? html` aria-current="page"` : ''}>${label}</a> `,
  )}${newLabel && html`<a class="button" href="${base}/new">${newLabel}</a>`}</nav>
<form class="filters" method="get" action="${base}">
<input type="hidden" name="state" value="${current}">
<label>Search <input type="text" name="search" value="${value('search')}"></label>
<label>Label <input type="text" name="label_name" value="${query.getAll('label_name').join(',')}"></label>
<label>Milestone <input type="text" name="milestone_title" value="${value('milestone_title')}"></label>
<label>Author id <input type="text" name="author_id" value="${value('author_id')}"></label>
<label>Assignee id <input type="text" name="assignee_id" value="${value('assignee_id')}"></label>
<button type="submit">Filter</button>
</form>`;
}
