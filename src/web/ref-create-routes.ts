import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services/index';
import type { Project } from '../services/projects/types';
import { PAGE, pageContext, sendPage, WebError } from './request';
import { projectFor, type ProjectParams } from './project-scope';
import { projectPath } from './paths';
import { fieldErrors, type FieldErrors } from './form-errors';
import { signInFirst } from './issue-routes';
import { newBranchPage, newTagPage, type NewBranchValues, type NewTagValues } from './pages/create/ref-forms';
import { refUrl } from './pages/repository/urls';

export interface RefCreateRouteDeps {
  services: Services;
}

const Text = Type.Optional(Type.String({ maxLength: 1000 }));
const RefName = Type.Optional(Type.String({ maxLength: 255 }));
const NewBranchQuery = Type.Object({ branch_name: RefName, ref: RefName });
const BranchBody = Type.Object({ authenticity_token: Text, branch_name: RefName, ref: RefName });
const TagBody = Type.Object({
  authenticity_token: Text,
  tag_name: RefName,
  ref: RefName,
  message: Type.Optional(Type.String({ maxLength: 100_000 })),
  release_description: Type.Optional(Type.String({ maxLength: 100_000 })),
});
const TokenBody = Type.Object({ authenticity_token: Text, _method: Text });

/** The services' refusals of a branch or a tag, beside the field they are about. */
function refErrors(error: unknown, nameField: string): FieldErrors | undefined {
  const errors = fieldErrors(error);
  const base = errors?.base?.[0];
  if (!errors || base === undefined) return errors;
  if (/name invalid|name is invalid|already exists|conflicts/i.test(base)) return { [nameField]: [base] };
  if (/reference name|^Target /i.test(base)) return { ref: [base] };
  return errors;
}

const blank = (value: string | undefined) => (value ?? '').trim() === '';

/**
 * `…/branches/new`, `…/tags/new` and deleting a branch from the branches page: GitLab 8.12's
 * forms, each write through the service call of the API's branches and tags routes (their push
 * rules, push processing, hooks and events).
 */
export function refCreateRoutes(pages: FastifyInstance, { services }: RefCreateRouteDeps): void {
  /** Creating refs is pushing code: the API's `push_code`, else the page's 404. */
  const writable = (request: FastifyRequest<{ Params: ProjectParams }>) => projectFor(services, request, 'push_code');

  const showBranchForm = (request: FastifyRequest, reply: FastifyReply, project: Project, values: NewBranchValues, errors?: FieldErrors) =>
    sendPage(
      request,
      reply,
      `New branch · ${project.name}`,
      newBranchPage(pageContext(request), project, { values, errors }),
      errors ? 400 : 200,
    );

  pages.get<{ Params: ProjectParams; Querystring: Static<typeof NewBranchQuery> }>(
    '/:namespace/:project/branches/new',
    { config: PAGE, schema: { querystring: NewBranchQuery } },
    async (request, reply) => {
      if (!request.web.user) return signInFirst(request, reply);
      const { project } = await writable(request);
      const ref = request.query.ref || (await services.repositoryReads.defaultRef(project).catch(() => ''));
      return showBranchForm(request, reply, project, { branchName: request.query.branch_name, ref });
    },
  );

  pages.post<{ Params: ProjectParams; Body: Static<typeof BranchBody> }>(
    '/:namespace/:project/branches',
    { config: PAGE, schema: { body: BranchBody } },
    async (request, reply) => {
      const user = request.web.user;
      if (!user) throw new WebError(404);
      const { project, standing } = await writable(request);
      const { branch_name: name, ref } = request.body;
      const values = { branchName: name, ref };
      const missing: FieldErrors = {};
      if (blank(name)) missing.branch_name = ["can't be blank"];
      if (blank(ref)) missing.ref = ["can't be blank"];
      if (Object.keys(missing).length > 0) return showBranchForm(request, reply, project, values, missing);
      try {
        const branch = await services.branches.create(project, standing, user.id, name!.trim(), ref!.trim());
        return reply.redirect(refUrl(project, 'tree', branch.name), 303);
      } catch (error) {
        const errors = refErrors(error, 'branch_name');
        if (!errors) throw error;
        return showBranchForm(request, reply, project, values, errors);
      }
    },
  );

  // A form can only POST: `_method=delete` as Rails reads it; DELETE itself for a script.
  const removeBranch = async (request: FastifyRequest<{ Params: ProjectParams & { branch: string } }>, reply: FastifyReply) => {
    const user = request.web.user;
    if (!user) throw new WebError(404);
    const { project } = await writable(request);
    try {
      await services.branches.remove(project, user.id, request.params.branch);
    } catch (error) {
      const errors = fieldErrors(error);
      if (!errors) throw error;
      throw new WebError(400, errors.base?.join(', '));
    }
    return reply.redirect(`${projectPath(project)}/branches`, 303);
  };
  pages.post<{ Params: ProjectParams & { branch: string }; Body: Static<typeof TokenBody> }>(
    '/:namespace/:project/branches/:branch',
    { config: PAGE, schema: { body: TokenBody } },
    removeBranch,
  );
  pages.delete<{ Params: ProjectParams & { branch: string } }>('/:namespace/:project/branches/:branch', { config: PAGE }, removeBranch);

  const showTagForm = (request: FastifyRequest, reply: FastifyReply, project: Project, values: NewTagValues, errors?: FieldErrors) =>
    sendPage(
      request,
      reply,
      `New tag · ${project.name}`,
      newTagPage(pageContext(request), project, { values, errors }),
      errors ? 400 : 200,
    );

  pages.get<{ Params: ProjectParams; Querystring: Static<typeof NewBranchQuery> }>(
    '/:namespace/:project/tags/new',
    { config: PAGE, schema: { querystring: NewBranchQuery } },
    async (request, reply) => {
      if (!request.web.user) return signInFirst(request, reply);
      const { project } = await writable(request);
      const ref = request.query.ref || (await services.repositoryReads.defaultRef(project).catch(() => ''));
      return showTagForm(request, reply, project, { ref });
    },
  );

  pages.post<{ Params: ProjectParams; Body: Static<typeof TagBody> }>(
    '/:namespace/:project/tags',
    { config: PAGE, schema: { body: TagBody } },
    async (request, reply) => {
      const user = request.web.user;
      if (!user) throw new WebError(404);
      const { project } = await writable(request);
      const { body } = request;
      const values = { tagName: body.tag_name, ref: body.ref, message: body.message, releaseDescription: body.release_description };
      const missing: FieldErrors = {};
      if (blank(body.tag_name)) missing.tag_name = ["can't be blank"];
      if (blank(body.ref)) missing.ref = ["can't be blank"];
      if (Object.keys(missing).length > 0) return showTagForm(request, reply, project, values, missing);
      try {
        const tag = await services.tags.create(project, user, {
          name: body.tag_name!.trim(),
          ref: body.ref!.trim(),
          // A blank message makes a lightweight tag, as GitLab's form did.
          message: blank(body.message) ? undefined : body.message,
          releaseDescription: body.release_description || undefined,
        });
        return reply.redirect(`${projectPath(project)}/tags#${encodeURIComponent(tag.name)}`, 303);
      } catch (error) {
        const errors = refErrors(error, 'tag_name');
        if (!errors) throw error;
        return showTagForm(request, reply, project, values, errors);
      }
    },
  );
}
