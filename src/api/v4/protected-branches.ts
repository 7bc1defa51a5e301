import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { badRequest } from '../../errors';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { NameString } from '../shared/params';
import { ProtectedBranch4, presentProtectedBranch } from './entities/protected-branch';

const ProjectId = Type.Object({ id: Type.String() });
/** A name (or wildcard such as `release-*`) with `/` is one URL-encoded segment. */
const RulePath = Type.Object({ id: Type.String(), name: NameString() });
const Paging = { page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) };
const Level = Type.Optional(Type.Union([Type.Integer(), Type.String()]));

/**
 * An access level as the rule stores it: no one (0), developers too (30) or maintainers only (40, the
 * default); anything else is refused rather than widened.
 */
function accessLevel(name: string, value: number | string | undefined): { developers: boolean; nobody: boolean } {
  const level = value === undefined || value === '' ? 40 : Number(value);
  if (level === 0) return { developers: false, nobody: true };
  if (level === 30) return { developers: true, nobody: false };
  if (level === 40) return { developers: false, nobody: false };
  throw badRequest(`${name} does not have a valid value`);
}

/** Protected branches as a resource of their own (GitLab 9–11's `protected_branches.rb`): maintainers only. */
export function protectedBranchesRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const rules = services.protectedBranches;
  const guard = { project: 'admin_project' } as const;

  api.get(
    '/projects/:id/protected_branches',
    {
      config: guard,
      schema: { params: ProjectId, querystring: Type.Object(Paging), response: { 200: Type.Array(ProtectedBranch4) } },
    },
    async (request, reply) => {
      const all = await rules.list(request.project.id);
      const page = pageOf(request.query);
      setPageHeaders(request, reply, presenter.externalUrl, page, all.length);
      return all.slice(page.offset, page.offset + page.limit).map(presentProtectedBranch);
    },
  );

  api.get(
    '/projects/:id/protected_branches/:name',
    { config: guard, schema: { params: RulePath, response: { 200: ProtectedBranch4 } } },
    async (request) => presentProtectedBranch(await rules.find(request.project.id, request.params.name)),
  );

  api.post(
    '/projects/:id/protected_branches',
    {
      config: guard,
      schema: {
        params: ProjectId,
        body: Type.Object({ name: NameString({ minLength: 1 }), push_access_level: Level, merge_access_level: Level }),
        response: { 201: ProtectedBranch4 },
      },
    },
    async (request, reply) => {
      const { name, push_access_level, merge_access_level } = request.body;
      const push = accessLevel('push_access_level', push_access_level);
      const merge = accessLevel('merge_access_level', merge_access_level);
      const flags = {
        developersCanPush: push.developers,
        developersCanMerge: merge.developers,
        nobodyCanPush: push.nobody,
        nobodyCanMerge: merge.nobody,
      };
      return reply.status(201).send(presentProtectedBranch(await rules.create(request.project.id, name, flags)));
    },
  );

  api.delete(
    '/projects/:id/protected_branches/:name',
    { config: guard, schema: { params: RulePath, response: { 204: Type.Null() } } },
    async (request, reply) => {
      await rules.remove(request.project.id, request.params.name);
      return reply.status(204).send(null);
    },
  );
}
