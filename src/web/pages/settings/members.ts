import { html, type SafeHtml } from '../../html';
import type { PageContext } from '../../context';
import type { FieldErrors } from '../../form-errors';
import type { Project } from '../../../services/projects/types';
import type { MemberWithUser } from '../../../services/members/types';
import type { SharedGroup } from '../../../services/projects/details';
import { projectPath } from '../../paths';
import { formField, hiddenToken, otherErrors } from '../form-field';
import { selectField } from '../create/fields';
import { methodButton, settingsFrame } from './frame';
import { requestsSection, type RowError } from '../access-requests';

/** A project's roles, as GitLab 8.12 named them (a project has no owners among its members). */
export const PROJECT_ROLES = [
  { value: '10', label: 'Guest' },
  { value: '20', label: 'Reporter' },
  { value: '30', label: 'Developer' },
  { value: '40', label: 'Master' },
];

export const roleName = (level: number) => PROJECT_ROLES.find((role) => role.value === String(level))?.label ?? `Level ${level}`;

export interface MembersSettings {
  project: Project;
  members: MemberWithUser[];
  total: number;
  /** Pending access requests, each granted or denied here. */
  requests: MemberWithUser[];
  groups: SharedGroup[];
  /** What was typed into a refused form, and its messages. */
  add?: { user?: string; accessLevel?: string; expiresAt?: string; errors?: FieldErrors };
  share?: { group?: string; groupAccess?: string; errors?: FieldErrors };
  /** A refused change of one member's (or requester's) row. */
  rowError?: RowError;
}

/** `…/project_members`: who is a member at which level, the form that adds one, and the groups the project is shared with. */
export function membersSettingsPage(page: PageContext, settings: MembersSettings): SafeHtml {
  const { project, add = {}, share = {} } = settings;
  const base = `${projectPath(project)}/project_members`;
  const body = html`<h2>Add a member</h2>
${otherErrors(add.errors, ['user', 'access_level', 'expires_at'])}
<form class="stacked" method="post" action="${base}">
${hiddenToken(page.csrfToken)}
${formField({ name: 'user', label: 'Username', value: add.user, errors: add.errors, required: true })}
${selectField({ name: 'access_level', label: 'Role', choices: PROJECT_ROLES, chosen: add.accessLevel ?? '30', errors: add.errors })}
${formField({ name: 'expires_at', label: 'Access expires on (YYYY-MM-DD, optional)', value: add.expiresAt, errors: add.errors })}
<button type="submit" class="primary">Add to project</button>
</form>
${requestsSection(page, base, settings.requests, PROJECT_ROLES, settings.rowError)}
<h2>Members <span class="badge">${String(settings.total)}</span></h2>
<div class="table-wrap"><table class="admin">
<thead><tr><th scope="col">User</th><th scope="col">Role and expiry</th><th scope="col"><span class="visually-hidden">Remove</span></th></tr></thead>
<tbody>${settings.members.map((entry) => memberRow(page, base, entry, settings.rowError))}</tbody>
</table></div>
${settings.total > settings.members.length && html`<p class="muted">The first ${String(settings.members.length)} members are shown.</p>`}
<h2>Groups</h2>
${
  settings.groups.length === 0
    ? html`<p class="muted">The project is shared with no group.</p>`
    : html`<ul class="refs">${settings.groups.map(
        (group) => html`<li>${group.group_name} <span class="badge">${roleName(group.group_access_level)}</span>
${methodButton({ action: `${projectPath(project)}/group_links/${group.group_id}`, method: 'delete', csrfToken: page.csrfToken, label: 'Unshare' })}</li>`,
      )}</ul>`
}
<h3>Share with a group</h3>
${otherErrors(share.errors, ['group', 'group_access'])}
<form class="stacked" method="post" action="${projectPath(project)}/group_links">
${hiddenToken(page.csrfToken)}
${formField({ name: 'group', label: 'Group path', value: share.group, errors: share.errors, required: true })}
${selectField({ name: 'group_access', label: 'Role of its members', choices: PROJECT_ROLES, chosen: share.groupAccess ?? '30', errors: share.errors })}
<button type="submit">Share</button>
</form>`;
  return settingsFrame(project, 'members', body);
}

function memberRow(page: PageContext, base: string, { member, user }: MemberWithUser, rowError: MembersSettings['rowError']): SafeHtml {
  const action = `${base}/${user.id}`;
  const id = `member-${user.id}`;
  const messages = rowError?.userId === user.id ? rowError.messages : [];
  return html`<tr id="${id}"><td><a href="/u/${user.username}">${user.name}</a> <span class="muted">@${user.username}</span></td>
<td><form class="inline" method="post" action="${action}">
${hiddenToken(page.csrfToken)}<input type="hidden" name="_method" value="patch">
<label class="visually-hidden" for="${id}-level">Role of ${user.username}</label>
<select id="${id}-level" name="access_level">${PROJECT_ROLES.map(
    (role) => html`<option value="${role.value}"${role.value === String(member.access_level) ? ' selected' : ''}>${role.label}</option>`,
  )}</select>
<label class="visually-hidden" for="${id}-expires">Access of ${user.username} expires on</label>
<input type="text" id="${id}-expires" name="expires_at" value="${member.expires_at ?? ''}" placeholder="YYYY-MM-DD" size="10">
<button type="submit">Save</button></form>
${messages.length > 0 && html`<p class="field-error" role="alert">${messages.join(', ')}</p>`}</td>
<td>${methodButton({ action, method: 'delete', csrfToken: page.csrfToken, label: 'Remove' })}</td></tr>
`;
}
