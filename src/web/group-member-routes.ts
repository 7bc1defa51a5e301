import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services/index';
import type { Group } from '../services/groups/groups';
import { canOnGroup, type GroupStanding } from '../services/policy';
import { ApiError } from '../errors';
import { PAGE, pageContext, sendPage, WebError } from './request';
import { recordNumber } from './project-scope';
import { FormText } from './settings-scope';
import { type GroupParams, groupPath, ownedGroup, readableGroup } from './group-scope';
import { signInFirst } from './issue-routes';
import { addMember, approveRequest, askToJoin, changeMember } from './member-actions';
import { type GroupMembers, groupMembersPage } from './pages/groups/members';

const MEMBERS_SHOWN = 200;

const AddBody = Type.Object({ authenticity_token: FormText(), user: FormText(255), access_level: FormText(10), expires_at: FormText(64) });
const ChangeBody = Type.Object({
  authenticity_token: FormText(),
  _method: FormText(10),
  access_level: FormText(10),
  expires_at: FormText(64),
});
const TokenBody = Type.Object({ authenticity_token: FormText(), _method: FormText(10) });
type MemberParams = GroupParams & { user_id: string };

/** The API's 403 on a row: the last owner of a group, changed, removed or leaving. */
const LAST_OWNER = 'This member cannot be changed or removed: a group keeps at least one owner.';

/**
 * `/groups/:path/group_members`: the members of a group, read by all who read the group; adding,
 * changing and removing members and answering access requests for its owners (anyone else: 404),
 * each through the call of the API's members and access-request routes (their events and system hooks).
 */
export function groupMemberRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  async function show(
    request: FastifyRequest,
    reply: FastifyReply,
    found: { group: Group; standing: GroupStanding },
    typed: Pick<GroupMembers, 'add' | 'rowError'> = {},
  ) {
    const { group, standing } = found;
    const source = services.members.groupSource(group, standing);
    const manages = canOnGroup(standing, 'admin_group_member');
    const user = request.web.user;
    const member = standing.memberAccess !== null;
    const [list, requests, pending] = await Promise.all([
      services.members.list(source, { offset: 0, limit: MEMBERS_SHOWN }),
      manages ? services.accessRequests.list(source, { offset: 0, limit: MEMBERS_SHOWN }) : undefined,
      user && !member ? services.accessRequests.pending(source, user) : false,
    ]);
    const members: GroupMembers = {
      group,
      members: list.members,
      total: list.total,
      manages,
      requests: requests?.requests ?? [],
      joining: user ? { member, pending, csrfToken: request.web.csrfToken } : undefined,
      ...typed,
    };
    const refused = typed.add?.errors || typed.rowError;
    return sendPage(request, reply, `Members · ${group.name}`, groupMembersPage(pageContext(request), members), refused ? 400 : 200);
  }

  const back = (reply: FastifyReply, group: Group) => reply.redirect(`${groupPath(group)}/group_members`, 303);

  pages.get<{ Params: GroupParams }>('/groups/:path/group_members', { config: PAGE }, async (request, reply) =>
    show(request, reply, await readableGroup(services, request)),
  );

  pages.post<{ Params: GroupParams; Body: Static<typeof AddBody> }>(
    '/groups/:path/group_members',
    { config: PAGE, schema: { body: AddBody } },
    async (request, reply) => {
      const found = await ownedGroup(services, request);
      const source = services.members.groupSource(found.group, found.standing);
      const add = await addMember(services, source, found.user, request.body);
      if (add) return show(request, reply, found, { add });
      return back(reply, found.group);
    },
  );

  // The viewer's own joining: asking (GitLab's `request_access`), and withdrawing the request or leaving (`leave`).
  pages.post<{ Params: GroupParams; Body: Static<typeof TokenBody> }>(
    '/groups/:path/group_members/request_access',
    { config: PAGE, schema: { body: TokenBody } },
    async (request, reply) => {
      const user = request.web.user;
      if (!user) return signInFirst(request, reply);
      const found = await readableGroup(services, request);
      const source = services.members.groupSource(found.group, found.standing);
      await askToJoin(services, source, user);
      return reply.redirect(groupPath(found.group), 303);
    },
  );

  pages.post<{ Params: GroupParams; Body: Static<typeof TokenBody> }>(
    '/groups/:path/group_members/leave',
    { config: PAGE, schema: { body: TokenBody } },
    async (request, reply) => {
      const user = request.web.user;
      if (!user) throw new WebError(404);
      const found = await readableGroup(services, request);
      const source = services.members.groupSource(found.group, found.standing);
      if (found.standing.memberAccess === null) {
        await services.accessRequests.remove(source, user, user.id);
        return reply.redirect(groupPath(found.group), 303);
      }
      try {
        await services.members.remove(source, user, user.id);
      } catch (error) {
        // The last owner leaving: the API's 403, said beside their row.
        if (!(error instanceof ApiError && error.status === 403)) throw error;
        return show(request, reply, found, { rowError: { userId: user.id, messages: [LAST_OWNER] } });
      }
      // A private group is no longer the leaver's to see.
      return reply.redirect('/', 303);
    },
  );

  pages.post<{ Params: MemberParams; Body: Static<typeof ChangeBody> }>(
    '/groups/:path/group_members/:user_id',
    { config: PAGE, schema: { body: ChangeBody } },
    async (request, reply) => {
      const found = await ownedGroup(services, request);
      const userId = recordNumber(request.params.user_id);
      const source = services.members.groupSource(found.group, found.standing);
      const rowError = await changeMember(services, source, found.user, userId, request.body, LAST_OWNER);
      if (rowError) return show(request, reply, found, { rowError });
      return back(reply, found.group);
    },
  );

  pages.post<{ Params: MemberParams; Body: Static<typeof ChangeBody> }>(
    '/groups/:path/group_members/:user_id/approve_access_request',
    { config: PAGE, schema: { body: ChangeBody } },
    async (request, reply) => {
      const found = await ownedGroup(services, request);
      const userId = recordNumber(request.params.user_id);
      const source = services.members.groupSource(found.group, found.standing);
      const rowError = await approveRequest(services, source, userId, request.body.access_level, LAST_OWNER);
      if (rowError) return show(request, reply, found, { rowError });
      return back(reply, found.group);
    },
  );
}
