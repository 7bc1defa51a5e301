import { html, type SafeHtml } from '../../html';
import type { Group } from '../../../services/groups/groups';
import type { Project } from '../../../services/projects/types';
import { groupPath } from '../../group-scope';
import { projectList } from '../project-list';
import { pager } from '../pager';
import { renderMarkdown } from '../../markdown';
import { groupHeader } from './nav';
import { joiningActions, type Joining } from '../access-requests';
import { groupJoinTarget } from './members';
import type { Level } from '../../../services/notifications/levels';
import { levelForm } from '../notifications/levels';

export interface GroupHome {
  group: Group;
  /** One page of the projects the viewer may read (the group's own and those shared with it). */
  projects: Project[];
  total: number;
  page: number;
  perPage: number;
  search: string;
  owner: boolean;
  mayCreate: boolean;
  joining?: Joining;
  /** Signed in: the user's notification level for the group, for its control. */
  notification?: { level: Level; csrfToken: string };
}

/** `/groups/:path`: the description, then the group's projects the viewer may read, searched and paged. */
export function groupPage(home: GroupHome): SafeHtml {
  const { group, search } = home;
  const base = groupPath(group);
  const listPath = search ? `${base}?${new URLSearchParams({ search })}` : base;
  const actions = [
    home.mayCreate && html`<a class="button" href="/projects/new?namespace_id=${String(group.id)}">New project</a>`,
    joiningActions(groupJoinTarget(group), home.joining),
    home.notification &&
      levelForm({
        action: `${base}/notification_setting`,
        current: home.notification.level,
        csrfToken: home.notification.csrfToken,
        id: 'notification-level',
        label: 'Notifications',
      }),
  ].filter(Boolean);
  return html`${groupHeader(group, 'home', { owner: home.owner })}
${actions.length > 0 && html`<div class="actions">${actions}</div>`}
${group.description && html`<div class="markdown">${renderMarkdown(group.description)}</div>`}
<h2>Projects <span class="badge">${String(home.total)}</span></h2>
<form class="filters" method="get" action="${base}" role="search">
<label>Search projects <input type="search" name="search" value="${search}"></label>
<button type="submit">Search</button>
</form>
${projectList(home.projects, search ? 'No project matches the search.' : 'No projects to show.')}
${pager(listPath, home.page, home.perPage, home.total)}`;
}
