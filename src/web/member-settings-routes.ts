import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services/index';
import type { ProjectStanding } from '../services/policy';
import type { Project } from '../services/projects/types';
import { ApiError } from '../errors';
import { PAGE, pageContext, sendPage, WebError } from './request';
import { projectFor, recordNumber, type ProjectParams } from './project-scope';
import { projectPath } from './paths';
import { fieldErrors } from './form-errors';
import { administeredProject, FormText, isDelete } from './settings-scope';
import { type MembersSettings, membersSettingsPage } from './pages/settings/members';
import { redirectWithNotice } from './flash';
import { signInFirst } from './issue-routes';
import { addMember, approveRequest, askToJoin, changeMember } from './member-actions';

const MEMBERS_SHOWN = 200;
/** The API's 403 on a row: a personal project's owner, or the last owner. */
const CANNOT_CHANGE = 'This member cannot be changed or removed.';

const AddBody = Type.Object({ authenticity_token: FormText(), user: FormText(255), access_level: FormText(10), expires_at: FormText(64) });
const ChangeBody = Type.Object({
  authenticity_token: FormText(),
  _method: FormText(10),
  access_level: FormText(10),
  expires_at: FormText(64),
});
const ShareBody = Type.Object({ authenticity_token: FormText(), group: FormText(255), group_access: FormText(10) });
const TokenBody = Type.Object({ authenticity_token: FormText(), _method: FormText(10) });
type MemberParams = ProjectParams & { user_id: string };
type GroupParams = ProjectParams & { group_id: string };

/**
 * `…/project_members` and `…/group_links`: a project's members, its pending access requests and
 * the groups it is shared with, each change through the call of the API's members, access-request
 * and share routes (their events and system hooks). Asking to join, withdrawing and leaving are
 * the signed-in reader's own (GitLab 8.12's `request_access` and `leave`).
 */
export function memberSettingsRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  async function show(
    request: FastifyRequest,
    reply: FastifyReply,
    found: { project: Project; standing: ProjectStanding },
    typed: Pick<MembersSettings, 'add' | 'share' | 'rowError'> = {},
  ) {
    const { project, standing } = found;
    const source = services.members.projectSource(project, standing);
    const [list, requests, details] = await Promise.all([
      services.members.list(source, { offset: 0, limit: MEMBERS_SHOWN }),
      services.accessRequests.list(source, { offset: 0, limit: MEMBERS_SHOWN }),
      services.projects.details([project], request.web.user),
    ]);
    const settings: MembersSettings = {
      project,
      members: list.members,
      total: list.total,
      requests: requests.requests,
      groups: details.sharedWith.get(project.id) ?? [],
      ...typed,
    };
    const refused = typed.add?.errors || typed.share?.errors || typed.rowError;
    return sendPage(request, reply, `Members · ${project.name}`, membersSettingsPage(pageContext(request), settings), refused ? 400 : 200);
  }

  const back = (request: FastifyRequest, reply: FastifyReply, project: Project, notice: string) =>
    redirectWithNotice(request, reply, `${projectPath(project)}/project_members`, notice);

  pages.get<{ Params: ProjectParams }>('/:namespace/:project/project_members', { config: PAGE }, async (request, reply) =>
    show(request, reply, await administeredProject(services, request)),
  );

  pages.post<{ Params: ProjectParams; Body: Static<typeof AddBody> }>(
    '/:namespace/:project/project_members',
    { config: PAGE, schema: { body: AddBody } },
    async (request, reply) => {
      const found = await administeredProject(services, request);
      const source = services.members.projectSource(found.project, found.standing);
      const add = await addMember(services, source, found.user, request.body);
      if (add) return show(request, reply, found, { add });
      return back(request, reply, found.project, 'Users were successfully added.');
    },
  );

  pages.post<{ Params: MemberParams; Body: Static<typeof ChangeBody> }>(
    '/:namespace/:project/project_members/:user_id',
    { config: PAGE, schema: { body: ChangeBody } },
    async (request, reply) => {
      const found = await administeredProject(services, request);
      const userId = recordNumber(request.params.user_id);
      const source = services.members.projectSource(found.project, found.standing);
      const rowError = await changeMember(services, source, found.user, userId, request.body, CANNOT_CHANGE);
      if (rowError) return show(request, reply, found, { rowError });
      return back(
        request,
        reply,
        found.project,
        isDelete(request.body) ? 'User was successfully removed from project.' : 'Member was successfully updated.',
      );
    },
  );

  pages.post<{ Params: MemberParams; Body: Static<typeof ChangeBody> }>(
    '/:namespace/:project/project_members/:user_id/approve_access_request',
    { config: PAGE, schema: { body: ChangeBody } },
    async (request, reply) => {
      const found = await administeredProject(services, request);
      const userId = recordNumber(request.params.user_id);
      const source = services.members.projectSource(found.project, found.standing);
      const rowError = await approveRequest(services, source, userId, request.body.access_level, CANNOT_CHANGE);
      if (rowError) return show(request, reply, found, { rowError });
      return back(request, reply, found.project, 'Access was granted.');
    },
  );

  // The reader's own joining, from the project's home: asking, and withdrawing the request or leaving.
  pages.post<{ Params: ProjectParams; Body: Static<typeof TokenBody> }>(
    '/:namespace/:project/project_members/request_access',
    { config: PAGE, schema: { body: TokenBody } },
    async (request, reply) => {
      const user = request.web.user;
      if (!user) return signInFirst(request, reply);
      const found = await projectFor(services, request, 'read_project');
      await askToJoin(services, services.members.projectSource(found.project, found.standing), user);
      return redirectWithNotice(request, reply, projectPath(found.project), 'Your request for access has been queued for review.');
    },
  );

  pages.post<{ Params: ProjectParams; Body: Static<typeof TokenBody> }>(
    '/:namespace/:project/project_members/leave',
    { config: PAGE, schema: { body: TokenBody } },
    async (request, reply) => {
      const user = request.web.user;
      if (!user) throw new WebError(404);
      const found = await projectFor(services, request, 'read_project');
      const source = services.members.projectSource(found.project, found.standing);
      if (found.standing.projectAccess === null) {
        await services.accessRequests.remove(source, user, user.id);
        return redirectWithNotice(request, reply, projectPath(found.project), 'Your access request to the project has been withdrawn.');
      }
      try {
        await services.members.remove(source, user, user.id);
      } catch (error) {
        // The owner of a personal project: the API's 403.
        if (error instanceof ApiError && error.status === 403) throw new WebError(403, 'The owner of a personal project cannot leave it.');
        throw error;
      }
      // A private project is no longer the leaver's to see.
      return redirectWithNotice(request, reply, '/', `You left the "${found.project.name}" project.`);
    },
  );

  pages.post<{ Params: ProjectParams; Body: Static<typeof ShareBody> }>(
    '/:namespace/:project/group_links',
    { config: PAGE, schema: { body: ShareBody } },
    async (request, reply) => {
      const found = await administeredProject(services, request);
      const { group: groupPath = '', group_access } = request.body;
      const typed = { group: groupPath, groupAccess: group_access };
      // A group the caller may not read is as unknown as a missing one.
      const group =
        groupPath.trim() === '' ? undefined : await services.groups.findReadable(groupPath.trim(), found.user).catch(() => undefined);
      if (!group) return show(request, reply, found, { share: { ...typed, errors: { group: ['is not a known group'] } } });
      try {
        await services.projects.share(found.project, found.standing, group.group.id, Number(group_access));
      } catch (error) {
        const errors = fieldErrors(error);
        if (!errors) throw error;
        return show(request, reply, found, { share: { ...typed, errors } });
      }
      return back(request, reply, found.project, 'Project was successfully shared with the group.');
    },
  );

  pages.post<{ Params: GroupParams; Body: Static<typeof TokenBody> }>(
    '/:namespace/:project/group_links/:group_id',
    { config: PAGE, schema: { body: TokenBody } },
    async (request, reply) => {
      const found = await administeredProject(services, request);
      await services.projects.unshare(found.project, found.standing, recordNumber(request.params.group_id));
      return back(request, reply, found.project, 'Group link was successfully removed.');
    },
  );
}
