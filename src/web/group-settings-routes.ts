import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Services } from '../services/index';
import type { Group, GroupAttributes } from '../services/groups/groups';
import type { GroupStanding } from '../services/policy';
import type { User } from '../services/users/users';
import { PAGE, pageContext, sendPage } from './request';
import { fieldErrors } from './form-errors';
import { FormText, isDelete } from './settings-scope';
import { type GroupParams, groupPath, ownedGroup } from './group-scope';
import { pageNumber } from './pages/pager';
import { type GroupSettings, type GroupValues, groupProjectsSettingsPage, groupSettingsPage, groupValues } from './pages/groups/settings';

const PER_PAGE = 20;

const UpdateBody = Type.Object({
  authenticity_token: FormText(),
  _method: FormText(10),
  name: FormText(255),
  path: FormText(255),
  description: FormText(10_000),
  visibility_level: FormText(10),
  request_access_enabled: FormText(10),
  lfs_enabled: FormText(10),
  confirm_path: FormText(255),
});
type UpdateBody = Static<typeof UpdateBody>;
const PageQuery = Type.Object({ page: Type.Optional(Type.String({ maxLength: 20 })) });

/**
 * A group's settings (GitLab 8.12's `groups#edit`, `update`, `destroy` and `projects`), for its
 * owners and administrators only; each write through the call of the API's `PUT` and `DELETE /groups/:id`.
 */
export function groupSettingsRoutes(pages: FastifyInstance, { services, config }: { services: Services; config: Config }): void {
  function showEdit(
    request: FastifyRequest,
    reply: FastifyReply,
    group: Group,
    typed: { values?: GroupValues; refused?: GroupSettings['refused'] } = {},
  ) {
    const settings: GroupSettings = {
      group,
      values: typed.values ?? groupValues(group),
      lfsAvailable: config.lfsEnabled,
      refused: typed.refused,
    };
    return sendPage(
      request,
      reply,
      `Settings · ${group.name}`,
      groupSettingsPage(pageContext(request), settings),
      typed.refused ? 400 : 200,
    );
  }

  pages.get<{ Params: GroupParams }>('/groups/:path/edit', { config: PAGE }, async (request, reply) => {
    const { group } = await ownedGroup(services, request);
    return showEdit(request, reply, group);
  });

  /** The form as typed: an unchecked box is off (the form always shows them); LFS only where the form offers it. */
  function typedValues(body: UpdateBody, group: Group): GroupValues {
    return {
      name: body.name ?? '',
      path: body.path ?? '',
      description: body.description ?? '',
      visibilityLevel: body.visibility_level ?? String(group.visibility_level),
      requestAccess: body.request_access_enabled === '1',
      lfs: config.lfsEnabled ? body.lfs_enabled === '1' : group.lfs_enabled === 1,
    };
  }

  async function update(
    request: FastifyRequest,
    reply: FastifyReply,
    found: { group: Group; standing: GroupStanding; user: User },
    body: UpdateBody,
  ) {
    const { group, standing, user } = found;
    const values = typedValues(body, group);
    const attributes: GroupAttributes = {
      name: values.name.trim(),
      path: values.path.trim(),
      description: values.description,
      request_access_enabled: values.requestAccess,
      lfs_enabled: values.lfs,
    };
    if (!/^(0|10|20)$/.test(values.visibilityLevel)) {
      return showEdit(request, reply, group, {
        values,
        refused: { section: 'general', errors: { visibility_level: ['is not included in the list'] } },
      });
    }
    attributes.visibility_level = Number(values.visibilityLevel);
    try {
      // The API's `PUT /groups/:id`: a new path moves every project's URL with it (repositories are kept by project, not by path).
      const updated = await services.groups.update(group, standing, user, attributes);
      return reply.redirect(`${groupPath(updated)}/edit`, 303);
    } catch (error) {
      const errors = fieldErrors(error);
      if (!errors) throw error;
      return showEdit(request, reply, group, { values, refused: { section: 'general', errors } });
    }
  }

  // Rails' `PATCH` and `DELETE /groups/:path`, sent by the forms as a POST with `_method`.
  pages.post<{ Params: GroupParams; Body: UpdateBody }>(
    '/groups/:path',
    { config: PAGE, schema: { body: UpdateBody } },
    async (request, reply) => {
      const found = await ownedGroup(services, request);
      const { group, standing } = found;
      if (!isDelete(request.body)) return update(request, reply, found, request.body);
      if ((request.body.confirm_path ?? '').trim() !== group.path) {
        return showEdit(request, reply, group, {
          refused: { section: 'remove', errors: { confirm_path: ['does not match the group path'] } },
        });
      }
      await services.groups.remove(group, standing);
      return reply.redirect('/', 303);
    },
  );

  pages.get<{ Params: GroupParams; Querystring: Static<typeof PageQuery> }>(
    '/groups/:path/projects',
    { config: PAGE, schema: { querystring: PageQuery } },
    async (request, reply) => {
      const { group } = await ownedGroup(services, request);
      const page = pageNumber(request.query.page);
      const { projects, total } = await services.projects.list(request.web.user, {
        scope: 'visible',
        namespaceId: group.id,
        orderBy: 'name',
        sort: 'asc',
        offset: (page - 1) * PER_PAGE,
        limit: PER_PAGE,
      });
      const body = groupProjectsSettingsPage(group, { projects, total, page, perPage: PER_PAGE });
      return sendPage(request, reply, `Projects · ${group.name}`, body);
    },
  );
}
