import { html, type SafeHtml } from '../../html';
import type { User } from '../../../services/users/users';
import type { Project } from '../../../services/projects/types';
import type { RunnerRow } from '../../../services/ci/types';
import { projectPath, visibilityName } from '../../paths';
import { actionButton } from '../ci/action-button';
import { timeOf } from '../ci/status';
import { pager } from '../pager';

const TABS: Array<[string, string]> = [
  ['Overview', '/admin'],
  ['Users', '/admin/users'],
  ['Projects', '/admin/projects'],
  ['Runners', '/admin/runners'],
];

function adminNav(current: string): SafeHtml {
  return html`<nav class="project-nav" aria-label="Admin area">${TABS.map(
    ([label, href]) => html`<a href="${href}"${label === current ? html` aria-current="page"` : ''}>${label}</a>`,
  )}</nav>`;
}

export interface Paged<T> {
  items: T[];
  page: number;
  perPage: number;
  total: number;
}

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

/** `/admin/users`: every user, blocked or not, with block and unblock. */
export function adminUsersPage(list: Paged<User>, csrfToken: string, selfId: number): SafeHtml {
  return html`${adminNav('Users')}
<h1>Users (${list.total})</h1>
<div class="table-wrap"><table class="admin">
<thead><tr><th scope="col">User</th><th scope="col">Email</th><th scope="col">State</th><th scope="col">Created</th><th scope="col"><span class="muted">Actions</span></th></tr></thead>
<tbody>${list.items.map(
    (user) => html`<tr>
<td><a href="/u/${encodeURIComponent(user.username)}">${user.name}</a> <span class="muted">@${user.username}</span>${user.admin ? html` <span class="badge">admin</span>` : ''}</td>
<td>${user.email}</td>
<td>${user.state}</td>
<td>${timeOf(user.created_at)}</td>
<td>${
      user.id === selfId
        ? ''
        : user.state === 'active'
          ? actionButton(`/admin/users/${user.id}/block`, `Block ${user.username}`, csrfToken)
          : user.state === 'blocked'
            ? actionButton(`/admin/users/${user.id}/unblock`, `Unblock ${user.username}`, csrfToken)
            : ''
    }</td>
</tr>`,
  )}</tbody></table></div>
${pager('/admin/users', list.page, list.perPage, list.total)}`;
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

/** `/admin/runners`: the shared runners' registration token (and a new one), and every runner. */
export function adminRunnersPage(list: Paged<RunnerRow>, registrationToken: string, csrfToken: string): SafeHtml {
  return html`${adminNav('Runners')}
<h1>Runners (${list.total})</h1>
<section aria-labelledby="registration">
<h2 id="registration">Registration</h2>
<p>Register a shared runner with this URL and token (for example <code>forge runner --registration-token …</code>):</p>
<label for="registration-token">Registration token</label>
<input type="text" id="registration-token" readonly value="${registrationToken}">
${actionButton('/admin/application_settings/reset_runners_token', 'Reset runners registration token', csrfToken)}
</section>
<div class="table-wrap"><table class="admin">
<thead><tr><th scope="col">Runner</th><th scope="col">Type</th><th scope="col">Description</th><th scope="col">Version</th><th scope="col">Last contact</th></tr></thead>
<tbody>${list.items.map(
    (runner) => html`<tr>
<td>#${runner.id}${runner.active ? '' : html` <span class="badge">paused</span>`}</td>
<td>${runner.is_shared ? 'shared' : 'specific'}</td>
<td>${runner.description ?? ''}</td>
<td>${runner.version ?? ''}</td>
<td>${runner.contacted_at ? timeOf(runner.contacted_at) : 'never'}</td>
</tr>`,
  )}</tbody></table></div>
${pager('/admin/runners', list.page, list.perPage, list.total)}`;
}
