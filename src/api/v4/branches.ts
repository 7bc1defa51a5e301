import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Api, RouteDeps } from '../shared/types';
import type { BranchView } from '../../services/repository/branches';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { toBoolean } from '../../http/params';
import { NameString } from '../shared/params';
import { Branch4, presentBranch } from './entities/branch';

const ProjectId = Type.Object({ id: Type.String() });
/** A branch name with `/` is one URL-encoded segment (`feature%2Fx`), decoded by the router. */
const BranchPath = Type.Object({ id: Type.String(), branch: NameString() });
const Paging = { page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) };
const FlagParam = Type.Optional(Type.Union([Type.Boolean(), Type.String()]));

/** Branches of a project's repository (GitLab 9–11's `branches.rb`). */
export function branchesRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const branches = services.branches;
  const present = async (request: FastifyRequest, views: BranchView[]) => {
    const facts = await branches.facts(request.project, request.standing, views);
    return views.map((view, index) => presentBranch(view, facts[index]));
  };

  api.get(
    '/projects/:id/repository/branches',
    {
      config: { access: 'optional', project: 'download_code' },
      schema: {
        params: ProjectId,
        querystring: Type.Object({ search: Type.Optional(NameString()), ...Paging }),
        response: { 200: Type.Array(Branch4) },
      },
    },
    async (request, reply) => {
      const search = request.query.search?.toLowerCase();
      const listed = await branches.list(request.project);
      const all = search ? listed.filter((branch) => branch.name.toLowerCase().includes(search)) : listed;
      const page = pageOf(request.query);
      setPageHeaders(request, reply, presenter.externalUrl, page, all.length);
      return present(request, all.slice(page.offset, page.offset + page.limit));
    },
  );

  api.get(
    '/projects/:id/repository/branches/:branch',
    {
      config: { access: 'optional', project: 'download_code' },
      schema: { params: BranchPath, response: { 200: Branch4 } },
    },
    async (request) => (await present(request, [await branches.find(request.project, request.params.branch)]))[0],
  );

  api.post(
    '/projects/:id/repository/branches',
    {
      config: { project: 'push_code' },
      schema: { params: ProjectId, body: Type.Object({ branch: NameString(), ref: NameString() }), response: { 201: Branch4 } },
    },
    async (request, reply) => {
      const { branch, ref } = request.body;
      const created = await branches.create(request.project, request.standing, request.user!.id, branch, ref);
      return reply.status(201).send((await present(request, [created]))[0]);
    },
  );

  api.delete(
    '/projects/:id/repository/branches/:branch',
    { config: { project: 'push_code' }, schema: { params: BranchPath, response: { 204: Type.Null() } } },
    async (request, reply) => {
      // GitLab 9+ answers an unknown branch `404 Branch Not Found`.
      await branches.find(request.project, request.params.branch);
      await branches.remove(request.project, request.user!.id, request.params.branch);
      return reply.status(204).send(null);
    },
  );

  api.delete(
    '/projects/:id/repository/merged_branches',
    {
      config: { project: 'push_code' },
      schema: { params: ProjectId, response: { 202: Type.Object({ message: Type.String() }) } },
    },
    async (request, reply) => {
      await branches.removeMerged(request.project, request.user!.id);
      return reply.status(202).send({ message: '202 Accepted' });
    },
  );

  // Still served by GitLab 9–11, beside the protected branches resource.
  api.put(
    '/projects/:id/repository/branches/:branch/protect',
    {
      config: { project: 'admin_project' },
      schema: {
        params: BranchPath,
        body: Type.Object({ developers_can_push: FlagParam, developers_can_merge: FlagParam }),
        response: { 200: Branch4 },
      },
    },
    async (request) => {
      const branch = await branches.protect(request.project, request.params.branch, {
        developersCanPush: toBoolean(request.body.developers_can_push),
        developersCanMerge: toBoolean(request.body.developers_can_merge),
      });
      return (await present(request, [branch]))[0];
    },
  );

  api.put(
    '/projects/:id/repository/branches/:branch/unprotect',
    { config: { project: 'admin_project' }, schema: { params: BranchPath, response: { 200: Branch4 } } },
    async (request) => (await present(request, [await branches.unprotect(request.project, request.params.branch)]))[0],
  );
}
