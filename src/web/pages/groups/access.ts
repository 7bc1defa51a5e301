import type { SafeHtml } from '../../html';
import type { Group } from '../../../services/groups/groups';
import { groupPath } from '../../group-scope';
import { methodButton } from '../settings/frame';

/** Where the signed-in viewer stands towards joining the group; undefined for an anonymous one. */
export interface Joining {
  member: boolean;
  pending: boolean;
  csrfToken: string;
}

/** GitLab's buttons beside a group's name: request access (when the group takes requests), withdraw the request, or leave. */
export function joiningActions(group: Group, joining: Joining | undefined): SafeHtml | false {
  if (!joining) return false;
  const base = `${groupPath(group)}/group_members`;
  const { csrfToken } = joining;
  if (joining.member) return methodButton({ action: `${base}/leave`, method: 'delete', csrfToken, label: 'Leave group' });
  if (joining.pending) return methodButton({ action: `${base}/leave`, method: 'delete', csrfToken, label: 'Withdraw access request' });
  return (
    group.request_access_enabled === 1 &&
    methodButton({ action: `${base}/request_access`, method: 'post', csrfToken, label: 'Request access' })
  );
}
