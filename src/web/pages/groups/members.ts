import { html, type SafeHtml } from '../../html';
import type { PageContext } from '../../context';
import type { FieldErrors } from '../../form-errors';
import type { Group } from '../../../services/groups/groups';
import type { MemberWithUser } from '../../../services/members/types';
import { groupPath } from '../../group-scope';
import { formField, hiddenToken, otherErrors } from '../form-field';
import { selectField } from '../create/fields';
import { methodButton } from '../settings/frame';
import { PROJECT_ROLES } from '../settings/members';
import { groupHeader } from './nav';
import { joiningActions, type Joining } from './access';

/** A group's roles, as GitLab 8.12 named them: a project's, and owners. */
export const GROUP_ROLES = [...PROJECT_ROLES, { value: '50', label: 'Owner' }];

const roleName = (level: number) => GROUP_ROLES.find((role) => role.value === String(level))?.label ?? `Level ${level}`;

export interface GroupMembers {
  group: Group;
  members: MemberWithUser[];
  total: number;
  /** Owners and administrators manage members; anyone else who reads the group sees the list. */
  manages: boolean;
  requests: MemberWithUser[];
  joining?: Joining;
  /** What was typed into a refused form, and its messages. */
  add?: { user?: string; accessLevel?: string; expiresAt?: string; errors?: FieldErrors };
  /** A refused change of one member's row (or request's). */
  rowError?: { userId: number; messages: string[] };
}

/** `/groups/:path/group_members`: who is a member at which level until when; for owners the forms that change it and the pending requests. */
export function groupMembersPage(page: PageContext, list: GroupMembers): SafeHtml {
  const { group, add = {} } = list;
  const base = `${groupPath(group)}/group_members`;
  const joining = joiningActions(group, list.joining);
  return html`${groupHeader(group, 'members', { owner: list.manages })}
${joining && html`<div class="actions">${joining}</div>`}
${
  list.manages &&
  html`<h2>Add a member</h2>
${otherErrors(add.errors, ['user', 'access_level', 'expires_at'])}
<form class="stacked" method="post" action="${base}">
${hiddenToken(page.csrfToken)}
${formField({ name: 'user', label: 'Username', value: add.user, errors: add.errors, required: true })}
${selectField({ name: 'access_level', label: 'Role', choices: GROUP_ROLES, chosen: add.accessLevel ?? '30', errors: add.errors })}
${formField({ name: 'expires_at', label: 'Access expires on (YYYY-MM-DD, optional)', value: add.expiresAt, errors: add.errors })}
<button type="submit" class="primary">Add to group</button>
</form>`
}
${list.manages && list.requests.length > 0 && requestsSection(page, base, list)}
<h2>Members <span class="badge">${String(list.total)}</span></h2>
<div class="table-wrap"><table class="admin">
<thead><tr><th scope="col">User</th><th scope="col">Role and expiry</th>${list.manages && html`<th scope="col"><span class="visually-hidden">Remove</span></th>`}</tr></thead>
<tbody>${list.members.map((entry) => (list.manages ? managedRow(page, base, entry, list.rowError) : readRow(entry)))}</tbody>
</table></div>
${list.total > list.members.length && html`<p class="muted">The first ${String(list.members.length)} members are shown.</p>`}`;
}

const userCell = ({ user }: MemberWithUser) =>
  html`<a href="/u/${user.username}">${user.name}</a> <span class="muted">@${user.username}</span>`;

function readRow(entry: MemberWithUser): SafeHtml {
  const { member } = entry;
  return html`<tr><td>${userCell(entry)}</td><td>${roleName(member.access_level)}${member.expires_at && html` <span class="muted">until ${member.expires_at}</span>`}</td></tr>
`;
}

const rowMessages = (userId: number, rowError: GroupMembers['rowError']) =>
  rowError?.userId === userId && html`<p class="field-error" role="alert">${rowError.messages.join(', ')}</p>`;

function managedRow(page: PageContext, base: string, entry: MemberWithUser, rowError: GroupMembers['rowError']): SafeHtml {
  const { member, user } = entry;
  const action = `${base}/${user.id}`;
  const id = `member-${user.id}`;
  return html`<tr id="${id}"><td>${userCell(entry)}</td>
<td><form class="inline" method="post" action="${action}">
${hiddenToken(page.csrfToken)}<input type="hidden" name="_method" value="patch">
<label class="visually-hidden" for="${id}-level">Role of ${user.username}</label>
<select id="${id}-level" name="access_level">${GROUP_ROLES.map(
    (role) => html`<option value="${role.value}"${role.value === String(member.access_level) ? ' selected' : ''}>${role.label}</option>`,
  )}</select>
<label class="visually-hidden" for="${id}-expires">Access of ${user.username} expires on</label>
<input type="text" id="${id}-expires" name="expires_at" value="${member.expires_at ?? ''}" placeholder="YYYY-MM-DD" size="10">
<button type="submit">Save</button></form>
${rowMessages(user.id, rowError)}</td>
<td>${methodButton({ action, method: 'delete', csrfToken: page.csrfToken, label: 'Remove' })}</td></tr>
`;
}

function requestsSection(page: PageContext, base: string, list: GroupMembers): SafeHtml {
  return html`<h2>Users requesting access <span class="badge">${String(list.requests.length)}</span></h2>
<ul class="refs">${list.requests.map((entry) => {
    const { member, user } = entry;
    const id = `request-${user.id}`;
    return html`<li id="${id}">${userCell(entry)} <span class="muted">requested ${member.requested_at?.slice(0, 10) ?? ''}</span>
<form class="inline" method="post" action="${base}/${user.id}/approve_access_request">
${hiddenToken(page.csrfToken)}
<label class="visually-hidden" for="${id}-level">Role to give ${user.username}</label>
<select id="${id}-level" name="access_level">${GROUP_ROLES.map(
      (role) => html`<option value="${role.value}"${role.value === '30' ? ' selected' : ''}>${role.label}</option>`,
    )}</select>
<button type="submit">Grant access</button></form>
${methodButton({ action: `${base}/${user.id}`, method: 'delete', csrfToken: page.csrfToken, label: 'Deny access' })}
${rowMessages(user.id, list.rowError)}</li>
`;
  })}</ul>`;
}
