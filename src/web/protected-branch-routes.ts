import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services/index';
import type { Project } from '../services/projects/types';
import { PAGE, pageContext, sendPage } from './request';
import type { ProjectParams } from './project-scope';
import { projectPath } from './paths';
import { fieldErrors, type FieldErrors } from './form-errors';
import { administeredProject, FormText } from './settings-scope';
import { type ProtectedBranchesSettings, protectedBranchesPage } from './pages/settings/protected-branches';
import { redirectWithNotice } from './flash';

const ProtectBody = Type.Object({
  authenticity_token: FormText(),
  name: FormText(255),
  push_access_level: FormText(10),
  merge_access_level: FormText(10),
});
const TokenBody = Type.Object({ authenticity_token: FormText(), _method: FormText(10) });

/** A level as the rule stores it (the API's `protected_branches` translation): no one, developers too, or masters only. */
function levelFlags(value: string | undefined): { developers: boolean; nobody: boolean } | undefined {
  if (value === undefined || value === '' || value === '40') return { developers: false, nobody: false };
  if (value === '30') return { developers: true, nobody: false };
  if (value === '0') return { developers: false, nobody: true };
  return undefined;
}

/**
 * `…/protected_branches`: the project's rules, added and removed through `ProtectedBranchesService`
 * as the API's v4 `protected_branches` routes do; pushes are judged by them at once.
 */
export function protectedBranchRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  async function show(request: FastifyRequest, reply: FastifyReply, project: Project, typed?: ProtectedBranchesSettings['typed']) {
    const [rules, refs] = await Promise.all([services.protectedBranches.list(project.id), services.repositoryBrowse.refNames(project)]);
    const body = protectedBranchesPage(pageContext(request), { project, rules, branches: refs.branches, typed });
    return sendPage(request, reply, `Protected branches · ${project.name}`, body, typed?.errors ? 400 : 200);
  }

  pages.get<{ Params: ProjectParams }>('/:namespace/:project/protected_branches', { config: PAGE }, async (request, reply) =>
    show(request, reply, (await administeredProject(services, request)).project),
  );

  pages.post<{ Params: ProjectParams; Body: Static<typeof ProtectBody> }>(
    '/:namespace/:project/protected_branches',
    { config: PAGE, schema: { body: ProtectBody } },
    async (request, reply) => {
      const { project } = await administeredProject(services, request);
      const { name = '', push_access_level: push, merge_access_level: merge } = request.body;
      const typed = { name, push, merge };
      const pushFlags = levelFlags(push);
      const mergeFlags = levelFlags(merge);
      const errors: FieldErrors = {};
      if (name.trim() === '') errors.name = ["can't be blank"];
      if (!pushFlags) errors.push_access_level = ['is not a known level'];
      if (!mergeFlags) errors.merge_access_level = ['is not a known level'];
      if (Object.keys(errors).length > 0) return show(request, reply, project, { ...typed, errors });
      try {
        await services.protectedBranches.create(project.id, name.trim(), {
          developersCanPush: pushFlags!.developers,
          developersCanMerge: mergeFlags!.developers,
          nobodyCanPush: pushFlags!.nobody,
          nobodyCanMerge: mergeFlags!.nobody,
        });
      } catch (error) {
        const refused = fieldErrors(error);
        if (!refused) throw error;
        return show(request, reply, project, { ...typed, errors: { name: ['is already protected'] } });
      }
      return redirectWithNotice(request, reply, `${projectPath(project)}/protected_branches`, 'Branch was successfully protected.');
    },
  );

  pages.post<{ Params: ProjectParams & { name: string }; Body: Static<typeof TokenBody> }>(
    '/:namespace/:project/protected_branches/:name',
    { config: PAGE, schema: { body: TokenBody } },
    async (request, reply) => {
      const { project } = await administeredProject(services, request);
      await services.protectedBranches.remove(project.id, request.params.name);
      return redirectWithNotice(request, reply, `${projectPath(project)}/protected_branches`, 'Branch was successfully unprotected.');
    },
  );
}
