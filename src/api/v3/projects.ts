import { Type, type Static } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Api, RouteDeps } from '../shared/types';
import { NameString, RecordId, TextString, givenAttributes } from '../shared/params';
import { BasicProjectDetails, Project, presentBasicProject, presentProject } from './entities/project';
import { Event, presentEvent } from './entities/event';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { sendAs } from '../shared/send-as';
import type { Project as ProjectRecord, ProjectListScope } from '../../services/projects/types';
import type { ProjectAttributes } from '../../services/projects/attributes';
import type { User } from '../../services/users/users';
import { PRIVATE, PUBLIC, can } from '../../services/policy';
import { recordNotFound } from '../../errors';

export const ProjectId = Type.Object({ id: Type.String() });

export const ListFilters = {
  archived: Type.Optional(Type.Boolean()),
  visibility: Type.Optional(Type.Union([Type.Literal('public'), Type.Literal('internal'), Type.Literal('private')])),
  search: Type.Optional(NameString()),
  order_by: Type.Optional(Type.Union(['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at'].map((v) => Type.Literal(v)))),
  sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  simple: Type.Optional(Type.Boolean()),
  page: Type.Optional(Type.Any()),
  per_page: Type.Optional(Type.Any()),
};
const ListQuery = Type.Object(ListFilters);
type ListQuery = Static<typeof ListQuery>;

const projectAttributes = {
  description: Type.Optional(TextString()),
  issues_enabled: Type.Optional(Type.Boolean()),
  merge_requests_enabled: Type.Optional(Type.Boolean()),
  builds_enabled: Type.Optional(Type.Boolean()),
  wiki_enabled: Type.Optional(Type.Boolean()),
  snippets_enabled: Type.Optional(Type.Boolean()),
  container_registry_enabled: Type.Optional(Type.Boolean()),
  shared_runners_enabled: Type.Optional(Type.Boolean()),
  public: Type.Optional(Type.Boolean()),
  visibility_level: Type.Optional(Type.Integer()),
  public_builds: Type.Optional(Type.Boolean()),
  only_allow_merge_if_build_succeeds: Type.Optional(Type.Boolean()),
  lfs_enabled: Type.Optional(Type.Boolean()),
  request_access_enabled: Type.Optional(Type.Boolean()),
};

/**
 * The attributes a create or update gives, as the service takes them: v3's `public` flag is its own
 * way of asking for a visibility (20 or 0), and an explicit `visibility_level` wins over it.
 */
function projectAttributesOf<T extends { public?: boolean; visibility_level?: number }>(body: T): Omit<T, 'public'> {
  const { public: isPublic, ...attributes } = givenAttributes(body);
  if (attributes.visibility_level === undefined && isPublic !== undefined) attributes.visibility_level = isPublic ? PUBLIC : PRIVATE;
  return attributes;
}

const ProjectList = Type.Array(Project);
const BasicProjectList = Type.Array(BasicProjectDetails);
const ProjectOrBasicList = Type.Array(Type.Union([Project, BasicProjectDetails]));

export function projectsRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const projects = services.projects;

  async function presentOne(project: ProjectRecord, caller: User | null, runnersToken: boolean) {
    const details = await services.projects.details([project], caller);
    return presentProject(project, details, presenter, {
      withAccess: true,
      runnersToken: runnersToken ? projects.runnersToken(project) : undefined,
    });
  }

  async function presentList(list: ProjectRecord[], caller: User, withAccess: boolean) {
    const details = await services.projects.details(list, caller);
    return list.map((project) => presentProject(project, details, presenter, { withAccess }));
  }

  async function listRoute(
    request: FastifyRequest,
    reply: FastifyReply,
    scope: ProjectListScope,
    withAccess: boolean,
    searchTerm?: string,
  ) {
    const query = request.query as ListQuery;
    const search = searchTerm ?? query.search;
    const page = pageOf(query);
    const result = await projects.list(request.user!, {
      scope,
      archived: query.archived,
      visibility: query.visibility,
      search,
      searchNamespace: scope === 'visible',
      orderBy: query.order_by as never,
      sort: query.sort,
      offset: page.offset,
      limit: page.limit,
    });
    setPageHeaders(request, reply, presenter.externalUrl, page, result.total);
    if (query.simple)
      return sendAs(
        reply,
        BasicProjectList,
        result.projects.map((project) => presentBasicProject(project, presenter)),
      );
    return sendAs(reply, ProjectList, await presentList(result.projects, request.user!, withAccess));
  }

  const listSchema = { querystring: ListQuery, response: { 200: ProjectOrBasicList } };
  api.get('/projects', { schema: listSchema }, (request, reply) => listRoute(request, reply, 'authorized', true));
  api.get('/projects/owned', { schema: listSchema }, (request, reply) => listRoute(request, reply, 'owned', true));
  api.get('/projects/starred', { schema: listSchema }, (request, reply) => listRoute(request, reply, 'starred', false));
  api.get('/projects/all', { config: { access: 'admin' }, schema: listSchema }, (request, reply) => listRoute(request, reply, 'all', true));
  api.get(
    '/projects/search/:query',
    {
      schema: { params: Type.Object({ query: Type.String() }), querystring: ListQuery, response: { 200: ProjectOrBasicList } },
    },
    (request, reply) => listRoute(request, reply, 'visible', false, request.params.query),
  );

  api.get(
    '/projects/:id',
    { config: { project: 'read_project' }, schema: { params: ProjectId, response: { 200: Project } } },
    async (request) => presentOne(request.project, request.user, can(request.standing, 'admin_project')),
  );

  api.get(
    '/projects/:id/events',
    {
      config: { project: 'read_project' },
      schema: {
        params: ProjectId,
        querystring: Type.Object({ page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) }),
        response: { 200: Type.Array(Event) },
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { events, total } = await services.events.list(request.project.id, request.standing, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      const notes = await services.events.notesOf(events);
      const authorIds = [...events.map((event) => event.author_id), ...[...notes.values()].map((note) => note.author_id)];
      const authors = await services.users.findMany(authorIds.filter((id): id is number => id !== null));
      return events.map((event) => presentEvent(event, authors, notes, presenter));
    },
  );

  api.post(
    '/projects',
    {
      schema: {
        body: Type.Object({
          name: Type.String(),
          path: Type.Optional(Type.String()),
          namespace_id: Type.Optional(RecordId),
          import_url: Type.Optional(TextString()),
          ...projectAttributes,
        }),
        response: { 201: Project },
      },
    },
    async (request, reply) => {
      const { namespace_id, ...attributes } = projectAttributesOf(request.body);
      const project = await projects.create(request.user!, attributes as ProjectAttributes, namespace_id);
      return reply.status(201).send(await presentOne(project, request.user, true));
    },
  );

  api.post(
    '/projects/user/:user_id',
    {
      config: { access: 'admin' },
      schema: {
        params: Type.Object({ user_id: RecordId }),
        body: Type.Object({
          name: Type.Optional(Type.String()),
          default_branch: Type.Optional(Type.String()),
          import_url: Type.Optional(TextString()),
          ...projectAttributes,
        }),
        response: { 201: Project },
      },
    },
    async (request, reply) => {
      const owner = await services.users.findById(request.params.user_id);
      if (!owner) throw recordNotFound();
      const project = await projects.createForUser(request.user!, owner, projectAttributesOf(request.body) as ProjectAttributes);
      return reply.status(201).send(await presentOne(project, request.user, true));
    },
  );

  api.put(
    '/projects/:id',
    {
      schema: {
        params: ProjectId,
        body: Type.Object({
          name: Type.Optional(Type.String()),
          path: Type.Optional(Type.String()),
          default_branch: Type.Optional(Type.String()),
          ...projectAttributes,
        }),
        response: { 200: Project },
      },
    },
    async (request) => {
      const { project, standing } = await projects.findReadable(request.params.id, request.user);
      const updated = await projects.update(project, standing, request.user!, projectAttributesOf(request.body) as ProjectAttributes);
      return presentOne(updated, request.user, true);
    },
  );

  api.post(
    '/projects/fork/:id',
    {
      config: { project: 'read_project' },
      schema: {
        params: ProjectId,
        body: Type.Object({ namespace: Type.Optional(Type.Union([Type.String(), Type.Integer()])) }),
        response: { 201: Project },
      },
    },
    async (request, reply) => {
      const namespace = request.body.namespace === undefined ? undefined : String(request.body.namespace);
      const fork = await projects.fork(request.project, request.standing, request.user!, namespace);
      return reply.status(201).send(await presentOne(fork, request.user, true));
    },
  );

  api.post('/projects/:id/star', { schema: { params: ProjectId, response: { 201: Project } } }, async (request, reply) => {
    const { project } = await projects.findReadable(request.params.id, request.user);
    return reply.status(201).send(await presentOne(await projects.star(project, request.user!), request.user, false));
  });

  api.delete('/projects/:id/star', { schema: { params: ProjectId, response: { 200: Project } } }, async (request) => {
    const { project } = await projects.findReadable(request.params.id, request.user);
    return presentOne(await projects.unstar(project, request.user!), request.user, false);
  });

  for (const [action, archived] of [
    ['archive', true],
    ['unarchive', false],
  ] as const) {
    api.post(`/projects/:id/${action}`, { schema: { params: ProjectId, response: { 201: Project } } }, async (request, reply) => {
      const { project, standing } = await projects.findReadable(request.params.id, request.user);
      return reply.status(201).send(await presentOne(await projects.setArchived(project, standing, archived), request.user, false));
    });
  }

  // Deleting answers `true`; the project disappears at once, its repository is removed in the background.
  api.delete('/projects/:id', { schema: { params: ProjectId, response: { 200: Type.Boolean() } } }, async (request) => {
    const { project, standing } = await projects.findReadable(request.params.id, request.user);
    await projects.remove(project, standing);
    return true;
  });

  const GroupLink = Type.Object({ id: Type.Integer(), project_id: Type.Integer(), group_id: Type.Integer(), group_access: Type.Integer() });
  api.post(
    '/projects/:id/share',
    {
      config: { project: 'admin_project' },
      schema: { params: ProjectId, body: Type.Object({ group_id: RecordId, group_access: Type.Integer() }), response: { 201: GroupLink } },
    },
    async (request, reply) => {
      const link = await projects.share(request.project, request.standing, request.body.group_id, request.body.group_access);
      return reply.status(201).send(link);
    },
  );

  api.delete(
    '/projects/:id/share/:group_id',
    {
      schema: { params: Type.Object({ id: Type.String(), group_id: RecordId }), response: { 200: Type.Null() } },
    },
    async (request, reply) => {
      const { project, standing } = await projects.findReadable(request.params.id, request.user);
      await projects.unshare(project, standing, request.params.group_id);
      return reply.status(200).send(null);
    },
  );
}
