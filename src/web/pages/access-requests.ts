import { html, type SafeHtml } from '../html';
import type { PageContext } from '../context';
import type { MemberWithUser } from '../../services/members/types';
import { hiddenToken } from './form-field';
import { methodButton } from './settings/frame';

/** Where the signed-in viewer stands towards joining a group or project; undefined for an anonymous one. */
export interface Joining {
  member: boolean;
  pending: boolean;
  csrfToken: string;
}

/** What one asks to join: its members page (`…/group_members`, `…/project_members`), whether it takes requests, and its noun for the buttons. */
export interface JoinTarget {
  membersPath: string;
  takesRequests: boolean;
  noun: 'group' | 'project';
}

/** GitLab's buttons beside a group's or project's name: request access (when it takes requests), withdraw the request, or leave. */
export function joiningActions(target: JoinTarget, joining: Joining | undefined): SafeHtml | false {
  if (!joining) return false;
  const base = target.membersPath;
  const { csrfToken } = joining;
  if (joining.member) return methodButton({ action: `${base}/leave`, method: 'delete', csrfToken, label: `Leave ${target.noun}` });
  if (joining.pending) return methodButton({ action: `${base}/leave`, method: 'delete', csrfToken, label: 'Withdraw access request' });
  return target.takesRequests && methodButton({ action: `${base}/request_access`, method: 'post', csrfToken, label: 'Request access' });
}

export const memberCell = ({ user }: MemberWithUser) =>
  html`<a href="/u/${user.username}">${user.name}</a> <span class="muted">@${user.username}</span>`;

/** A refused change of one member's or requester's row, said beside it. */
export type RowError = { userId: number; messages: string[] };

export const rowMessages = (userId: number, rowError: RowError | undefined) =>
  rowError?.userId === userId && html`<p class="field-error" role="alert">${rowError.messages.join(', ')}</p>`;

/** The pending requests of a members page, for those who manage it: each granted at a chosen role (developer first) or denied. */
export function requestsSection(
  page: PageContext,
  membersPath: string,
  requests: MemberWithUser[],
  roles: { value: string; label: string }[],
  rowError: RowError | undefined,
): SafeHtml | false {
  if (requests.length === 0) return false;
  return html`<h2>Users requesting access <span class="badge">${String(requests.length)}</span></h2>
<ul class="refs">${requests.map((entry) => {
    const { member, user } = entry;
    const id = `request-${user.id}`;
    return html`<li id="${id}">${memberCell(entry)} <span class="muted">requested ${member.requested_at?.slice(0, 10) ?? ''}</span>
<form class="inline" method="post" action="${membersPath}/${user.id}/approve_access_request">
${hiddenToken(page.csrfToken)}
<label class="visually-hidden" for="${id}-level">Role to give ${user.username}</label>
<select id="${id}-level" name="access_level">${roles.map(
      (role) => html`<option value="${role.value}"${role.value === '30' ? ' selected' : ''}>${role.label}</option>`,
    )}</select>
<button type="submit">Grant access</button></form>
${methodButton({ action: `${membersPath}/${user.id}`, method: 'delete', csrfToken: page.csrfToken, label: 'Deny access' })}
${rowMessages(user.id, rowError)}</li>
`;
  })}</ul>`;
}
