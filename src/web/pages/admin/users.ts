import { html, type SafeHtml } from '../../html';
import type { User } from '../../../services/users/users';
import type { Project } from '../../../services/projects/types';
import type { FieldErrors } from '../../form-errors';
import { projectPath, visibilityName } from '../../paths';
import { actionButton } from '../ci/action-button';
import { timeOf } from '../ci/status';
import { formField, hiddenToken, otherErrors } from '../form-field';
import { pager } from '../pager';
import { adminNav, type Paged } from './nav';

const userPath = (user: Pick<User, 'username'>) => `/admin/users/${encodeURIComponent(user.username)}`;

/** Block or unblock, for anyone but the administrator looking (who would lock themselves out). */
function blockButton(user: User, csrfToken: string, selfId: number): SafeHtml | '' {
  if (user.id === selfId) return '';
  if (user.state === 'active') return actionButton(`/admin/users/${user.id}/block`, `Block ${user.username}`, csrfToken);
  if (user.state === 'blocked') return actionButton(`/admin/users/${user.id}/unblock`, `Unblock ${user.username}`, csrfToken);
  return '';
}

/** `/admin/users`: every user, blocked or not, searchable by name, e-mail or username, with block and unblock. */
export function adminUsersPage(list: Paged<User>, search: string, csrfToken: string, selfId: number): SafeHtml {
  const path = search ? `/admin/users?search=${encodeURIComponent(search)}` : '/admin/users';
  return html`${adminNav('Users')}
<h1>Users (${list.total})</h1>
<form method="get" action="/admin/users" role="search" class="inline">
<label for="user-search">Search users</label>
<input type="search" id="user-search" name="search" value="${search}">
<button type="submit">Search</button>
</form>
<a class="button" href="/admin/users/new">New user</a>
<div class="table-wrap"><table class="admin">
<thead><tr><th scope="col">User</th><th scope="col">Email</th><th scope="col">State</th><th scope="col">Created</th><th scope="col"><span class="muted">Actions</span></th></tr></thead>
<tbody>${list.items.map(
    (user) => html`<tr>
<td><a href="${userPath(user)}">${user.name}</a> <span class="muted">@${user.username}</span>${user.admin ? html` <span class="badge">admin</span>` : ''}</td>
<td>${user.email}</td>
<td>${user.state}</td>
<td>${timeOf(user.created_at)}</td>
<td>${blockButton(user, csrfToken, selfId)}</td>
</tr>`,
  )}</tbody></table></div>
${pager(path, list.page, list.perPage, list.total)}`;
}

/** What the user form shows: what was typed (or the user's own values), as strings and ticks. */
export interface UserFormValues {
  name: string;
  username: string;
  email: string;
  projects_limit: string;
  admin: boolean;
  can_create_group: boolean;
}

export interface UserForm {
  csrfToken: string;
  values: UserFormValues;
  errors?: FieldErrors;
  /** A refused removal's messages (the confirmation mistyped, oneself, the only owner of a group). */
  removeErrors?: FieldErrors;
  notice?: string;
}

const USER_FIELDS = ['name', 'username', 'email', 'password', 'projects_limit'];

function userFields(form: UserForm, creating: boolean): SafeHtml {
  const { values, errors } = form;
  const limitErrors = errors?.projects_limit ?? [];
  const tick = (name: 'admin' | 'can_create_group', label: string) =>
    html`<label class="checkbox"><input type="hidden" name="${name}" value="0"><input type="checkbox" name="${name}" value="1"${values[name] ? html` checked` : ''}> ${label}</label>`;
  return html`${otherErrors(errors, USER_FIELDS)}
${hiddenToken(form.csrfToken)}
${formField({ name: 'name', label: 'Name', value: values.name, errors, required: true })}
${formField({ name: 'username', label: 'Username', value: values.username, errors, required: true })}
${formField({ name: 'email', label: 'Email', type: 'email', value: values.email, errors, required: true })}
${formField({ name: 'password', label: creating ? 'Password' : 'New password (leave blank to keep it)', type: 'password', errors, autocomplete: 'new-password', required: creating })}
<label for="field-projects_limit">Projects limit</label>
<input type="number" min="0" id="field-projects_limit" name="projects_limit" value="${values.projects_limit}"${
    limitErrors.length > 0 ? html` aria-invalid="true" aria-describedby="field-projects_limit-error"` : ''
  }>
${limitErrors.length > 0 && html`<p class="field-error" id="field-projects_limit-error">Projects limit ${limitErrors.join(', ')}</p>`}
${tick('can_create_group', 'Can create group')}
${tick('admin', 'Administrator')}`;
}

/** `/admin/users/new`. */
export function newUserPage(form: UserForm): SafeHtml {
  return html`${adminNav('Users')}
<h1>New user</h1>
<form class="stacked" method="post" action="/admin/users">
${userFields(form, true)}
<button type="submit" class="primary">Create user</button>
</form>`;
}

/** `/admin/users/:username`: the account, a form to edit it, block or unblock, and (read only) the projects in their namespace. */
export function adminUserPage(user: User, projects: Project[], form: UserForm, selfId: number): SafeHtml {
  return html`${adminNav('Users')}
<h1>${user.name} <span class="muted">@${user.username}</span></h1>
${form.notice && html`<p class="notice" role="status">${form.notice}</p>`}
<dl>
<dt>State</dt><dd>${user.state}</dd>
<dt>Created</dt><dd>${timeOf(user.created_at)}</dd>
<dt>Last sign-in</dt><dd>${user.last_sign_in_at ? timeOf(user.last_sign_in_at) : 'never'}</dd>
</dl>
${blockButton(user, form.csrfToken, selfId)}
<section aria-labelledby="edit-user">
<h2 id="edit-user">Account</h2>
<form class="stacked" method="post" action="${userPath(user)}">
${userFields(form, false)}
<button type="submit" class="primary">Save changes</button>
</form>
</section>
${user.id === selfId ? otherErrors(form.removeErrors, []) : removeSection(user, form)}
<section aria-labelledby="user-projects">
<h2 id="user-projects">Projects</h2>
${
  projects.length === 0
    ? html`<p class="muted">No projects in this user's namespace.</p>`
    : html`<ul class="projects">${projects.map(
        (project) =>
          html`<li><a href="${projectPath(project)}">${project.namespace.name} / ${project.name}</a> <span class="badge">${visibilityName(project.visibility_level)}</span></li>`,
      )}</ul>`
}
</section>`;
}

/**
 * GitLab's "Remove user", confirmed by typing the username (the pages need no script for a
 * confirm box): their personal projects, memberships, keys and e-mails go with them.
 */
function removeSection(user: User, form: UserForm): SafeHtml {
  const errors = form.removeErrors;
  return html`<section aria-labelledby="remove-user">
<h2 id="remove-user">Remove user</h2>
<p>Removing ${user.username} removes their personal projects, memberships, SSH keys and e-mails. It cannot be undone.</p>
${otherErrors(errors, ['confirm_username'])}
<form class="stacked" method="post" action="${userPath(user)}">
${hiddenToken(form.csrfToken)}<input type="hidden" name="_method" value="delete">
${formField({ name: 'confirm_username', label: `Type ${user.username} to confirm`, errors, required: true, autocomplete: 'off' })}
<button type="submit" class="danger">Remove user</button>
</form>
</section>`;
}
