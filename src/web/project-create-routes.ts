import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors';
import type { Services } from '../services/index';
import type { User } from '../services/users/users';
import { PAGE, pageContext, sendPage, WebError } from './request';
import { projectFor, type ProjectParams } from './project-scope';
import { projectPath } from './paths';
import { fieldErrors, type FieldErrors } from './form-errors';
import { signInFirst } from './issue-routes';
import { forkPage, newProjectPage, type ProjectFormValues } from './pages/create/project-form';
import { newGroupPage, type GroupFormValues } from './pages/create/group-form';
import { redirectWithNotice } from './flash';

export interface ProjectCreateRouteDeps {
  services: Services;
}

const Text = Type.Optional(Type.String({ maxLength: 1000 }));
const Name = Type.Optional(Type.String({ maxLength: 255 }));
const Description = Type.Optional(Type.String({ maxLength: 100_000 }));
const NewProjectQuery = Type.Object({ namespace_id: Text });
const ProjectBody = Type.Object({
  authenticity_token: Text,
  namespace_id: Text,
  name: Name,
  path: Name,
  description: Description,
  visibility_level: Text,
});
const ForkBody = Type.Object({ authenticity_token: Text, namespace_key: Text });
const GroupBody = Type.Object({ authenticity_token: Text, path: Name, name: Name, description: Description, visibility_level: Text });

/** A visibility level as the form sends it: one of GitLab's three, else undefined (the instance's default). */
const visibilityOf = (value: string | undefined) => (value === '0' || value === '10' || value === '20' ? Number(value) : undefined);

/** A number from a select, else undefined. */
const idOf = (value: string | undefined) => (value && /^\d{1,9}$/.test(value) ? Number(value) : undefined);

/**
 * What a refusal says by field: a service's validation messages, and the project limit (8.12
 * answers it 403 with an `error` list) as the form's own message.
 */
function formErrors(error: unknown): FieldErrors | undefined {
  if (error instanceof ApiError && error.status === 403) {
    const list = (error.body as { error?: unknown } | undefined)?.error;
    if (Array.isArray(list)) return { base: list.map(String) };
  }
  return fieldErrors(error);
}

/**
 * `/projects/new` and its fork (`/:namespace/:project/forks/new`), and `/groups/new`: GitLab 8.12's
 * forms, each write through the same service call as the API's `POST /projects`, `POST
 * /projects/:id/fork` and `POST /groups`, so the same records, events and system hooks follow.
 */
export function projectCreateRoutes(pages: FastifyInstance, { services }: ProjectCreateRouteDeps): void {
  const showProjectForm = async (
    request: FastifyRequest,
    reply: FastifyReply,
    user: User,
    values: ProjectFormValues,
    errors?: FieldErrors,
  ) => {
    const namespaces = await services.projects.creatableNamespaces(user);
    const body = newProjectPage(pageContext(request), { namespaces, values, errors });
    return sendPage(request, reply, 'New project', body, errors ? 400 : 200);
  };

  pages.get<{ Querystring: Static<typeof NewProjectQuery> }>(
    '/projects/new',
    { config: PAGE, schema: { querystring: NewProjectQuery } },
    async (request, reply) => {
      const user = request.web.user;
      if (!user) return signInFirst(request, reply);
      return showProjectForm(request, reply, user, { namespaceId: request.query.namespace_id, visibilityLevel: '0' });
    },
  );

  pages.post<{ Body: Static<typeof ProjectBody> }>('/projects', { config: PAGE, schema: { body: ProjectBody } }, async (request, reply) => {
    const user = request.web.user;
    if (!user) throw new WebError(404);
    const { body } = request;
    const values: ProjectFormValues = {
      name: body.name,
      path: body.path,
      namespaceId: body.namespace_id,
      description: body.description,
      visibilityLevel: body.visibility_level,
    };
    try {
      const project = await services.projects.create(
        user,
        {
          // As the API: a name or a path, either makes the other.
          name: body.name?.trim() || body.path?.trim() || undefined,
          path: body.path?.trim() || undefined,
          description: body.description || undefined,
          visibility_level: visibilityOf(body.visibility_level),
        },
        idOf(body.namespace_id),
      );
      return redirectWithNotice(request, reply, projectPath(project), `Project '${project.name}' was successfully created.`);
    } catch (error) {
      const errors = formErrors(error);
      if (!errors) throw error;
      return showProjectForm(request, reply, user, values, errors);
    }
  });

  /** The project to fork: one the caller may read and fork, else the page's 404. */
  const forkSource = (request: FastifyRequest<{ Params: ProjectParams }>) => projectFor(services, request, 'fork_project');

  const showForkForm = async (
    request: FastifyRequest<{ Params: ProjectParams }>,
    reply: FastifyReply,
    user: User,
    errors?: FieldErrors,
  ) => {
    const { project } = await forkSource(request);
    const namespaces = await services.projects.creatableNamespaces(user);
    const body = forkPage(pageContext(request), {
      action: `${projectPath(project)}/forks`,
      source: `${project.namespace.path}/${project.path}`,
      namespaces,
      errors,
    });
    return sendPage(request, reply, `Fork · ${project.name}`, body, errors ? 400 : 200);
  };

  pages.get<{ Params: ProjectParams }>('/:namespace/:project/forks/new', { config: PAGE }, async (request, reply) => {
    const user = request.web.user;
    if (!user) return signInFirst(request, reply);
    return showForkForm(request, reply, user);
  });

  pages.post<{ Params: ProjectParams; Body: Static<typeof ForkBody> }>(
    '/:namespace/:project/forks',
    { config: PAGE, schema: { body: ForkBody } },
    async (request, reply) => {
      const user = request.web.user;
      if (!user) throw new WebError(404);
      const { project, standing } = await forkSource(request);
      try {
        const fork = await services.projects.fork(project, standing, user, request.body.namespace_key || undefined);
        return redirectWithNotice(request, reply, projectPath(fork), 'The project was successfully forked.');
      } catch (error) {
        // A namespace the caller may not use is a choice the page did not offer: said above the choices.
        const errors =
          error instanceof ApiError && error.status === 404 ? { base: ['That namespace cannot hold your fork.'] } : formErrors(error);
        if (!errors) throw error;
        return showForkForm(request, reply, user, errors);
      }
    },
  );

  const showGroupForm = (request: FastifyRequest, reply: FastifyReply, values: GroupFormValues, errors?: FieldErrors) =>
    sendPage(request, reply, 'New group', newGroupPage(pageContext(request), { values, errors }), errors ? 400 : 200);

  /** GitLab 8.12 answers 404 to a user who may not create groups. */
  const groupCreator = (user: User | null) => {
    if (user && user.can_create_group !== 1) throw new WebError(404);
    return user;
  };

  pages.get('/groups/new', { config: PAGE }, async (request, reply) => {
    if (!groupCreator(request.web.user)) return signInFirst(request, reply);
    return showGroupForm(request, reply, { visibilityLevel: '0' });
  });

  pages.post<{ Body: Static<typeof GroupBody> }>('/groups', { config: PAGE, schema: { body: GroupBody } }, async (request, reply) => {
    const user = groupCreator(request.web.user);
    if (!user) throw new WebError(404);
    const { body } = request;
    const values: GroupFormValues = {
      path: body.path,
      name: body.name,
      description: body.description,
      visibilityLevel: body.visibility_level,
    };
    const path = body.path?.trim() ?? '';
    if (path === '') return showGroupForm(request, reply, values, { path: ["can't be blank"] });
    try {
      const group = await services.groups.create(user, {
        path,
        name: body.name?.trim() || path,
        description: body.description || undefined,
        visibility_level: visibilityOf(body.visibility_level),
      });
      return redirectWithNotice(
        request,
        reply,
        `/groups/${encodeURIComponent(group.path)}`,
        `Group '${group.name}' was successfully created.`,
      );
    } catch (error) {
      const errors = formErrors(error);
      if (!errors) throw error;
      return showGroupForm(request, reply, values, errors);
    }
  });
}
