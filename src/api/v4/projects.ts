import { Type, type Static } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Api, RouteDeps } from '../shared/types';
import { NameString, RecordId, TextString } from '../shared/params';
import { sendAs } from '../shared/send-as';
import { BasicProject, Project, presentBasicProject, presentProject } from './entities/project';
import { Visibility } from './entities/visibility';
import { projectAttributes, projectAttributesOf } from './project-attributes';
import { type Page, pageOf, setPageHeaders } from '../../http/pagination';
import type { Project as ProjectRecord, ProjectListOptions } from '../../services/projects/types';
import type { User } from '../../services/users/users';
import { can } from '../../services/policy';
import { grapeError, notFound } from '../../errors';

const ProjectId = Type.Object({ id: Type.String() });
const Paging = { page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) };

/** v4's project list filters (`GET /projects`, a user's and a group's projects, forks). */
export const ProjectFilters = {
  archived: Type.Optional(Type.Boolean()),
  visibility: Type.Optional(Visibility),
  search: Type.Optional(NameString()),
  order_by: Type.Optional(Type.Union(['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at'].map((v) => Type.Literal(v)))),
  sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  simple: Type.Optional(Type.Boolean()),
  owned: Type.Optional(Type.Boolean()),
  starred: Type.Optional(Type.Boolean()),
  membership: Type.Optional(Type.Boolean()),
  ...Paging,
};
const ListQuery = Type.Object(ProjectFilters);
type ListQuery = Static<typeof ListQuery>;

/** What a list of projects asks the projects service for: the filters and one page, among what the caller may see. */
export function projectListOptions(query: ListQuery, page: Page): ProjectListOptions {
  return {
    scope: 'visible',
    owned: query.owned,
    starred: query.starred,
    membership: query.membership,
    archived: query.archived,
    visibility: query.visibility,
    search: query.search,
    orderBy: query.order_by as ProjectListOptions['orderBy'],
    sort: query.sort,
    offset: page.offset,
    limit: page.limit,
  };
}

const ProjectList = Type.Array(Project);
const BasicProjectList = Type.Array(BasicProject);
const ProjectOrBasicList = Type.Array(Type.Union([Project, BasicProject]));
const listSchema = { querystring: ListQuery, response: { 200: ProjectOrBasicList } };

const GroupLink = Type.Object({ id: Type.Integer(), project_id: Type.Integer(), group_id: Type.Integer(), group_access: Type.Integer() });
const Accepted = Type.Object({ message: Type.Literal('202 Accepted') });

/** Projects in v4's form: `GET /projects` lists every project the caller may see, anonymous callers the public ones. */
export function projectsRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const projects = services.projects;

  async function presentOne(project: ProjectRecord, caller: User | null, runnersToken: boolean) {
    const details = await projects.details([project], caller);
    return presentProject(project, details, presenter, {
      withAccess: caller !== null,
      runnersToken: runnersToken ? projects.runnersToken(project) : undefined,
    });
  }

  /** A page of projects; `narrow` fixes what the route itself filters on (a user's, a project's forks). */
  async function listRoute(request: FastifyRequest, reply: FastifyReply, narrow: Partial<ProjectListOptions> = {}) {
    const query = request.query as ListQuery;
    const page = pageOf(query);
    const caller = request.user;
    const result = await projects.list(caller, { ...projectListOptions(query, page), ...narrow });
    setPageHeaders(request, reply, presenter.externalUrl, page, result.total);
    const details = await projects.details(result.projects, caller);
    if (query.simple) {
      return sendAs(
        reply,
        BasicProjectList,
        result.projects.map((project) => presentBasicProject(project, presenter, details)),
      );
    }
    const list = result.projects.map((project) => presentProject(project, details, presenter, { withAccess: caller !== null }));
    return sendAs(reply, ProjectList, list);
  }

  api.get('/projects', { config: { access: 'optional' }, schema: listSchema }, (request, reply) => listRoute(request, reply));

  api.get(
    '/users/:user_id/projects',
    { config: { access: 'optional' }, schema: { ...listSchema, params: Type.Object({ user_id: Type.String() }) } },
    async (request, reply) => {
      const owner = await services.users.findByIdOrUsername(request.params.user_id);
      if (!owner) throw notFound('User');
      return listRoute(request, reply, { ownerId: owner.id });
    },
  );

  api.get(
    '/projects/:id/forks',
    { config: { access: 'optional', project: 'read_project' }, schema: { ...listSchema, params: ProjectId } },
    (request, reply) => listRoute(request, reply, { forkedFromId: request.project.id }),
  );

  api.get(
    '/projects/:id',
    { config: { access: 'optional', project: 'read_project' }, schema: { params: ProjectId, response: { 200: Project } } },
    async (request) => presentOne(request.project, request.user, can(request.standing, 'admin_project')),
  );

  // GitLab v4 needs a name or a path; either makes the other.
  api.post(
    '/projects',
    {
      schema: {
        body: Type.Object({
          name: Type.Optional(Type.String()),
          path: Type.Optional(Type.String()),
          namespace_id: Type.Optional(RecordId),
          import_url: Type.Optional(TextString()),
          default_branch: Type.Optional(Type.String()),
          ...projectAttributes,
        }),
        response: { 201: Project },
      },
    },
    async (request, reply) => {
      const { namespace_id, ...body } = request.body;
      if (!body.name && !body.path) throw grapeError(400, 'name, path are missing, at least one parameter must be provided');
      const attributes = projectAttributesOf({ ...body, name: body.name || body.path });
      const project = await projects.create(request.user!, attributes, namespace_id);
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
          name: Type.String(),
          path: Type.Optional(Type.String()),
          default_branch: Type.Optional(Type.String()),
          import_url: Type.Optional(TextString()),
          ...projectAttributes,
        }),
        response: { 201: Project },
      },
    },
    async (request, reply) => {
      const owner = await services.users.findById(request.params.user_id);
      if (!owner) throw notFound('User');
      const project = await projects.createForUser(request.user!, owner, projectAttributesOf(request.body));
      return reply.status(201).send(await presentOne(project, request.user, true));
    },
  );

  api.put(
    '/projects/:id',
    {
      config: { project: 'read_project' },
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
      const updated = await projects.update(request.project, request.standing, request.user!, projectAttributesOf(request.body));
      return presentOne(updated, request.user, true);
    },
  );

  api.post(
    '/projects/:id/fork',
    {
      config: { project: 'read_project' },
      schema: {
        params: ProjectId,
        body: Type.Object({ namespace: Type.Optional(Type.Union([Type.String(), Type.Integer()])) }),
        response: { 201: Project },
      },
    },
    async (request, reply) => {
      const namespace = request.body?.namespace === undefined ? undefined : String(request.body.namespace);
      const fork = await projects.fork(request.project, request.standing, request.user!, namespace);
      return reply.status(201).send(await presentOne(fork, request.user, true));
    },
  );

  // Both answer 201 with the project, and 304 when there is nothing to change (the service says so).
  api.post(
    '/projects/:id/star',
    { config: { project: 'read_project' }, schema: { params: ProjectId, response: { 201: Project } } },
    async (request, reply) => {
      const starred = await projects.star(request.project, request.user!);
      return reply.status(201).send(await presentOne(starred, request.user, false));
    },
  );

  api.post(
    '/projects/:id/unstar',
    { config: { project: 'read_project' }, schema: { params: ProjectId, response: { 201: Project } } },
    async (request, reply) => {
      const unstarred = await projects.unstar(request.project, request.user!);
      return reply.status(201).send(await presentOne(unstarred, request.user, false));
    },
  );

  for (const [action, archived] of [
    ['archive', true],
    ['unarchive', false],
  ] as const) {
    api.post(
      `/projects/:id/${action}`,
      { config: { project: 'read_project' }, schema: { params: ProjectId, response: { 201: Project } } },
      async (request, reply) => {
        const changed = await projects.setArchived(request.project, request.standing, archived);
        return reply.status(201).send(await presentOne(changed, request.user, false));
      },
    );
  }

  // The project disappears at once; its repository is removed in the background, hence GitLab v4's 202.
  api.delete(
    '/projects/:id',
    { config: { project: 'read_project' }, schema: { params: ProjectId, response: { 202: Accepted } } },
    async (request, reply) => {
      await projects.remove(request.project, request.standing);
      return reply.status(202).send({ message: '202 Accepted' as const });
    },
  );

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
      config: { project: 'read_project' },
      schema: { params: Type.Object({ id: Type.String(), group_id: RecordId }), response: { 204: Type.Null() } },
    },
    async (request, reply) => {
      await projects.unshare(request.project, request.standing, request.params.group_id);
      return reply.status(204).send(null);
    },
  );
}
