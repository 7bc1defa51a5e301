import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { Group, GroupDetail, GroupRecord, presentGroup, presentGroupRecord } from './entities/group';
import { Project, presentProject } from './entities/project';
import { ListFilters } from './projects';
import { pageOf, setPageHeaders } from '../../http/pagination';
import type { Group as GroupRow, GroupAttributes } from '../../services/groups/groups';
import type { Project as ProjectRecord } from '../../services/projects/types';
import type { User } from '../../services/users/users';
import { recordNotFound } from '../../errors';
import { NameString, givenAttributes, RecordId } from '../shared/params';

const GroupId = Type.Object({ id: Type.String() });
const Paging = { page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) };

const groupAttributes = {
  description: Type.Optional(Type.String()),
  visibility_level: Type.Optional(Type.Integer()),
  lfs_enabled: Type.Optional(Type.Boolean()),
  request_access_enabled: Type.Optional(Type.Boolean()),
};

// A group's project list takes the project list filters (not `simple`) plus `ci_enabled_first`.
const { simple: _simple, ...projectFilters } = ListFilters;
const GroupProjectsQuery = Type.Object({ ...projectFilters, ci_enabled_first: Type.Optional(Type.Boolean()) });

export function groupsRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const groups = services.groups;

  async function presentProjects(list: ProjectRecord[], caller: User) {
    const details = await services.projects.details(list, caller);
    return list.map((project) => presentProject(project, details, presenter));
  }

  async function presentDetail(group: GroupRow, caller: User) {
    const { projects, sharedProjects } = await groups.projectsOf(group, caller);
    const presented = await presentProjects([...projects, ...sharedProjects], caller);
    return Object.assign(presentGroup(group, presenter), {
      projects: presented.slice(0, projects.length),
      shared_projects: presented.slice(projects.length),
    });
  }

  api.get(
    '/groups',
    {
      schema: { querystring: Type.Object({ search: Type.Optional(NameString()), ...Paging }), response: { 200: Type.Array(Group) } },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const result = await groups.list(request.user!, { search: request.query.search, offset: page.offset, limit: page.limit });
      setPageHeaders(request, reply, presenter.externalUrl, page, result.total);
      return result.groups.map((group) => presentGroup(group, presenter));
    },
  );

  // Required in the order GitLab checks them: `name` is named first when both are missing.
  api.post(
    '/groups',
    {
      schema: { body: Type.Object({ name: Type.String(), path: Type.String(), ...groupAttributes }), response: { 201: Group } },
    },
    async (request, reply) => {
      // GitLab 8.12 answers an invalid group with `{"message":"Failed to save group {:path=>[...]}"}`, a Ruby hash
      // inspected into a string; so do we (the service renders it), as clients match on that text.
      const group = await groups.create(request.user!, givenAttributes(request.body));
      return reply.status(201).send(presentGroup(group, presenter));
    },
  );

  api.get(
    '/groups/:id',
    { config: { group: 'read_group' }, schema: { params: GroupId, response: { 200: GroupDetail } } },
    async (request) => {
      return presentDetail(request.group, request.user!);
    },
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
      const updated = await groups.update(
        request.group,
        request.groupStanding,
        request.user!,
        givenAttributes(request.body) as GroupAttributes,
      );
      return presentDetail(updated, request.user!);
    },
  );

  // Answers the removed group's record, as GitLab 8.12 does.
  api.delete(
    '/groups/:id',
    { config: { group: 'admin_group' }, schema: { params: GroupId, response: { 200: GroupRecord } } },
    async (request) => {
      return presentGroupRecord(await groups.remove(request.group, request.groupStanding));
    },
  );

  api.get(
    '/groups/:id/projects',
    {
      config: { group: 'read_group' },
      schema: { params: GroupId, querystring: GroupProjectsQuery, response: { 200: Type.Array(Project) } },
    },
    async (request, reply) => {
      const group = request.group;
      const query = request.query;
      const page = pageOf(query);
      // Members (and administrators) see every project of the group and shared with it; others what they may read.
      const result = await services.projects.list(request.user!, {
        scope: 'visible',
        groupId: group.id,
        archived: query.archived,
        visibility: query.visibility,
        search: query.search,
        orderBy: query.order_by as never,
        sort: query.sort,
        ciEnabledFirst: query.ci_enabled_first,
        offset: page.offset,
        limit: page.limit,
      });
      setPageHeaders(request, reply, presenter.externalUrl, page, result.total);
      return presentProjects(result.projects, request.user!);
    },
  );

  api.post(
    '/groups/:id/projects/:project_id',
    {
      // Administrators read every group: the guard only finds it (404 Group Not Found when missing).
      config: { access: 'admin', group: 'read_group' },
      schema: { params: Type.Object({ id: Type.String(), project_id: RecordId }), response: { 201: GroupRecord } },
    },
    async (request, reply) => {
      const group = request.group;
      const project = await services.projects.find(request.params.project_id);
      if (!project) throw recordNotFound();
      await services.projects.transfer(project, group);
      return reply.status(201).send(presentGroupRecord(group));
    },
  );
}
