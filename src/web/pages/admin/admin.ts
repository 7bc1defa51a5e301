import { html, type SafeHtml } from '../../html';
import type { Project } from '../../../services/projects/types';
import type { Group } from '../../../services/groups/groups';
import { projectPath, visibilityName } from '../../paths';
import { pager } from '../pager';
import { adminNav, type Paged } from './nav';

export type { Paged } from './nav';

/** `/admin`: how many of each there are. */
export function adminOverviewPage(counts: { users: number; projects: number; runners: number }): SafeHtml {
  return html`${adminNav('Overview')}
<h1>Admin area</h1>
<ul class="projects">
<li><a href="/admin/users">Users</a>: ${counts.users}</li>
<li><a href="/admin/projects">Projects</a>: ${counts.projects}</li>
<li><a href="/admin/runners">Runners</a>: ${counts.runners}</li>
</ul>`;
}

/** `/admin/projects`: every project, whatever its visibility. */
export function adminProjectsPage(list: Paged<Project>): SafeHtml {
  return html`${adminNav('Projects')}
<h1>Projects (${list.total})</h1>
<ul class="projects">${list.items.map(
    (project) => html`<li><a href="${projectPath(project)}">${project.namespace.name} / ${project.name}</a>
<span class="badge">${visibilityName(project.visibility_level)}</span></li>`,
  )}</ul>
${pager('/admin/projects', list.page, list.perPage, list.total)}`;
}

/** `/admin/groups`: every group, whatever its visibility, with a link to make a new one. */
export function adminGroupsPage(list: Paged<Group>): SafeHtml {
  return html`${adminNav('Groups')}
<h1>Groups (${list.total})</h1>
<a class="button" href="/groups/new">New group</a>
<ul class="projects">${list.items.map(
    (group) => html`<li><a href="/groups/${encodeURIComponent(group.path)}">${group.name}</a> <span class="muted">${group.path}</span>
<span class="badge">${visibilityName(group.visibility_level)}</span></li>`,
  )}</ul>
${pager('/admin/groups', list.page, list.perPage, list.total)}`;
}
