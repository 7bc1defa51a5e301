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
import { joiningActions, memberCell, requestsSection, rowMessages, type Joining, type JoinTarget, type RowError } from '../access-requests';

/** A group's members page and the buttons that join it. */
export const groupJoinTarget = (group: Group): JoinTarget => ({
  membersPath: `${groupPath(group)}/group_members`,
  takesRequests: group.request_access_enabled === 1,
  noun: 'group',
});

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
  rowError?: RowError;
}

/** `/groups/:path/group_members`: who is a member at which level until when; for owners the forms that change it and the pending requests. */
export function groupMembersPage(page: PageContext, list: GroupMembers): SafeHtml {
  const { group, add = {} } = list;
  const base = `${groupPath(group)}/group_members`;
  const joining = joiningActions(groupJoinTarget(group), list.joining);
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
${list.manages && requestsSection(page, base, list.requests, GROUP_ROLES, list.rowError)}
<h2>Members <span class="badge">${String(list.total)}</span></h2>
<div class="table-wrap"><table class="admin">
<thead><tr><th scope="col">User</th><th scope="col">Role and expiry</th>${list.manages && html`<th scope="col"><span class="visually-hidden">Remove</span></th>`}</tr></thead>
<tbody>${list.members.map((entry) => (list.manages ? managedRow(page, base, entry, list.rowError) : readRow(entry)))}</tbody>
</table></div>
${list.total > list.members.length && html`<p class="muted">The first ${String(list.members.length)} members are shown.</p>`}`;
}

function readRow(entry: MemberWithUser): SafeHtml {
  const { member } = entry;
  return html`<tr><td>${memberCell(entry)}</td><td>${roleName(member.access_level)}${member.expires_at && html` <span class="muted">until ${member.expires_at}</span>`}</td></tr>
`;
}

function managedRow(page: PageContext, base: string, entry: MemberWithUser, rowError: RowError | undefined): SafeHtml {
  const { member, user } = entry;
  const action = `${base}/${user.id}`;
  const id = `member-${user.id}`;
  return html`<tr id="${id}"><td>${memberCell(entry)}</td>
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
