import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { RepoBranch, presentBranch } from './entities/branch';
import { notFound } from '../../errors';
import { toBoolean } from '../../http/params';

const ProjectId = Type.Object({ id: Type.String() });
/** Branch names may hold `/` (encoded or not) and dots, so the name is the rest of the path. */
const BranchPath = Type.Object({ id: Type.String(), '*': Type.String() });
const FlagParam = Type.Optional(
  Type.Union([Type.Boolean(), Type.String()], { description: "GitLab's to_boolean; other values leave an existing rule's flag as it is" }),
);

/** `<branch>/protect` or `<branch>/unprotect`: the branch is everything before the last segment. */
function protectionTarget(rest: string): { branch: string; action: 'protect' | 'unprotect' } {
  const slash = rest.lastIndexOf('/');
  const action = rest.slice(slash + 1);
  if (slash <= 0 || (action !== 'protect' && action !== 'unprotect')) throw notFound();
  return { branch: rest.slice(0, slash), action };
}

/** Branches of a project's repository (GitLab's `branches.rb`). */
export function branchesRoutes(api: Api, { services }: RouteDeps): void {
  const branches = services.branches;

  api.get(
    '/projects/:id/repository/branches',
    {
      config: { project: 'download_code' },
      schema: { params: ProjectId, querystring: Type.Object({}), response: { 200: Type.Array(RepoBranch) } },
    },
    async (request) => (await branches.list(request.project)).map(presentBranch),
  );

  api.get(
    '/projects/:id/repository/branches/*',
    {
      config: { project: 'download_code' },
      schema: { params: BranchPath, querystring: Type.Object({}), response: { 200: RepoBranch } },
    },
    async (request) => presentBranch(await branches.find(request.project, request.params['*'])),
  );

  api.put(
    '/projects/:id/repository/branches/*',
    {
      config: { project: 'admin_project' },
      schema: {
        params: BranchPath,
        body: Type.Object({ developers_can_push: FlagParam, developers_can_merge: FlagParam }),
        response: { 200: RepoBranch },
      },
    },
    async (request) => {
      const { branch, action } = protectionTarget(request.params['*']);
      if (action === 'unprotect') return presentBranch(await branches.unprotect(request.project, branch));
      return presentBranch(
        await branches.protect(request.project, branch, {
          developersCanPush: toBoolean(request.body.developers_can_push),
          developersCanMerge: toBoolean(request.body.developers_can_merge),
        }),
      );
    },
  );

  // The spec answers 200 here (GitLab 8.12 answered 201).
  api.post(
    '/projects/:id/repository/branches',
    {
      config: { project: 'push_code' },
      schema: { params: ProjectId, body: Type.Object({ branch_name: Type.String(), ref: Type.String() }), response: { 200: RepoBranch } },
    },
    async (request) =>
      presentBranch(await branches.create(request.project, request.standing, request.user!.id, request.body.branch_name, request.body.ref)),
  );

  api.delete(
    '/projects/:id/repository/branches/*',
    {
      config: { project: 'push_code' },
      schema: { params: BranchPath, querystring: Type.Object({}), response: { 200: Type.Object({ branch_name: Type.String() }) } },
    },
    async (request) => {
      await branches.remove(request.project, request.user!.id, request.params['*']);
      return { branch_name: request.params['*'] };
    },
  );
}
