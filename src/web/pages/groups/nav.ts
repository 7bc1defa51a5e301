import { html, type SafeHtml } from '../../html';
import type { Group } from '../../../services/groups/groups';
import { groupPath } from '../../group-scope';

export type GroupTab = 'home' | 'issues' | 'merge_requests' | 'members' | 'settings';

const TABS: Array<{ key: GroupTab; label: string; path: string; owner?: boolean }> = [
  { key: 'home', label: 'Projects', path: '' },
  { key: 'issues', label: 'Issues', path: '/issues' },
  { key: 'merge_requests', label: 'Merge Requests', path: '/merge_requests' },
  { key: 'members', label: 'Members', path: '/group_members' },
  { key: 'settings', label: 'Settings', path: '/edit', owner: true },
];

/** The group's name and its tabs, on every page under `/groups/:path`; Settings for its owners only. */
export function groupHeader(group: Group, active: GroupTab, options: { owner: boolean }): SafeHtml {
  const base = groupPath(group);
  return html`<h1>${group.name}</h1>
<p class="muted">@${group.path}</p>
<nav class="tabs" aria-label="Group">
${TABS.filter((tab) => options.owner || !tab.owner).map(
  (tab) => html`<a href="${base}${tab.path}"${tab.key === active ? html` aria-current="page"` : ''}>${tab.label}</a>
`,
)}</nav>`;
}
