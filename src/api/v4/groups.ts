import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { NameString, RecordId, givenAttributes } from '../shared/params';
import { sendAs } from '../shared/send-as';
import { Group, GroupDetail, presentGroup } from './entities/group';
import { BasicProject, Project, presentBasicProject, presentProject } from './entities/project';
import { Visibility, type VisibilityName, visibilityLevelOf } from './entities/visibility';
import { ProjectFilters, projectListOptions } from './projects';
import { pageOf, setPageHeaders } from '../../http/pagination';
import type { Group as GroupRow, GroupAttributes } from '../../services/groups/groups';
import type { Project as ProjectRecord } from '../../services/projects/types';
import type { User } from '../../services/users/users';
import { notFound } from '../../errors';

const GroupId = Type.Object({ id: Type.String() });
const ProjectsQuery = Type.Object(ProjectFilters);
const ProjectList = Type.Array(Project);
const BasicProjectList = Type.Array(BasicProject);

const groupAttributes = {
  description: Type.Optional(Type.String()),
  visibility: Type.Optional(Visibility),
  lfs_enabled: Type.Optional(Type.Boolean()),
  request_access_enabled: Type.Optional(Type.Boolean()),
};

const ListQuery = Type.Object({
  search: Type.Optional(NameString()),
  owned: Type.Optional(Type.Boolean()),
  all_available: Type.Optional(Type.Boolean()),
  order_by: Type.Optional(Type.Union([Type.Literal('name'), Type.Literal('path'), Type.Literal('id')])),
  sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  page: Type.Optional(Type.Any()),
  per_page: Type.Optional(Type.Any()),
});

/** A v4 body's attributes as the service takes them. */
function groupAttributesOf(body: { visibility?: VisibilityName } & Omit<GroupAttributes, 'visibility_level'>): GroupAttributes {
  const { visibility, ...same } = givenAttributes(body);
  return visibility === undefined ? same : { ...same, visibility_level: visibilityLevelOf(visibility) };
}

/** Groups in v4's form: listed to anonymous callers too (the public ones). Subgroups are not served. */
export function groupsRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const groups = services.groups;

  async function presentProjects(list: ProjectRecord[], caller: User | null) {
    const details = await services.projects.details(list, caller);
    return list.map((project) => presentProject(project, details, presenter));
  }

  async function presentDetail(group: GroupRow, caller: User | null) {
    const { projects, sharedProjects } = await groups.projectsOf(group, caller);
    const presented = await presentProjects([...projects, ...sharedProjects], caller);
    return Object.assign(presentGroup(group, presenter), {
      projects: presented.slice(0, projects.length),
      shared_projects: presented.slice(projects.length),
    });
  }

  api.get(
    '/groups',
    { config: { access: 'optional' }, schema: { querystring: ListQuery, response: { 200: Type.Array(Group) } } },
    async (request, reply) => {
      const query = request.query;
      const page = pageOf(query);
      const result = await groups.list(request.user, {
        search: query.search,
        owned: query.owned,
        allAvailable: query.all_available,
        // GitLab v4 orders groups by name unless told otherwise.
        orderBy: query.order_by ?? 'name',
        sort: query.sort,
        offset: page.offset,
        limit: page.limit,
      });
      setPageHeaders(request, reply, presenter.externalUrl, page, result.total);
      return result.groups.map((group) => presentGroup(group, presenter));
    },
  );

  api.post(
    '/groups',
    {
      schema: {
        body: Type.Object({ name: Type.String(), path: Type.String(), ...groupAttributes }),
        response: { 201: Group },
      },
    },
    async (request, reply) => {
      const { name, path, ...rest } = request.body;
      const group = await groups.create(request.user!, { ...groupAttributesOf(rest), name, path });
      return reply.status(201).send(presentGroup(group, presenter));
    },
  );

  api.get(
    '/groups/:id',
    { config: { access: 'optional', group: 'read_group' }, schema: { params: GroupId, response: { 200: GroupDetail } } },
    async (request) => presentDetail(request.group, request.user),
  );

  api.put(
    '/groups/:id',
    {
      config: { group: 'admin_group' },
      schema: {
        params: GroupId,
        body: Type.Object({ name: Type.Optional(Type.String()), path: Type.Optional(Type.String()), ...groupAttributes }),
        response: { 200: GroupDetail },
      },
    },
    async (request) => {
      const updated = await groups.update(request.group, request.groupStanding, request.user!, groupAttributesOf(request.body));
      return presentDetail(updated, request.user);
    },
  );

  // The group and its projects go at once; their repositories are removed in the background.
  api.delete(
    '/groups/:id',
    {
      config: { group: 'admin_group' },
      schema: { params: GroupId, response: { 202: Type.Object({ message: Type.Literal('202 Accepted') }) } },
    },
    async (request, reply) => {
      await groups.remove(request.group, request.groupStanding);
      return reply.status(202).send({ message: '202 Accepted' as const });
    },
  );

  api.get(
    '/groups/:id/projects',
    {
      config: { access: 'optional', group: 'read_group' },
      schema: { params: GroupId, querystring: ProjectsQuery, response: { 200: Type.Array(Type.Union([Project, BasicProject])) } },
    },
    async (request, reply) => {
      const query = request.query;
      const page = pageOf(query);
      const result = await services.projects.list(request.user, { ...projectListOptions(query, page), groupId: request.group.id });
      setPageHeaders(request, reply, presenter.externalUrl, page, result.total);
      if (query.simple) {
        const details = await services.projects.details(result.projects, request.user);
        return sendAs(
          reply,
          BasicProjectList,
          result.projects.map((project) => presentBasicProject(project, presenter, details)),
        );
      }
      return sendAs(reply, ProjectList, await presentProjects(result.projects, request.user));
    },
  );

  api.post(
    '/groups/:id/projects/:project_id',
    {
      // Administrators read every group: the guard only finds it (404 Group Not Found when missing).
      config: { access: 'admin', group: 'read_group' },
      schema: { params: Type.Object({ id: Type.String(), project_id: RecordId }), response: { 201: Group } },
    },
    async (request, reply) => {
      const project = await services.projects.find(request.params.project_id);
      if (!project) throw notFound('Project');
      await services.projects.transfer(project, request.group);
      return reply.status(201).send(presentGroup(request.group, presenter));
    },
  );
}
