import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { CommitStatus, presentCommitStatus } from '../shared/entities/commit-status';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { toBoolean } from '../../http/params';
import { NameString, TextString } from '../shared/params';

const CommitPath = Type.Object({ id: Type.String(), sha: Type.String() });
// GitLab keeps a status's ref and name in `varchar(255)` columns, its URL and description in text.
const Name = Type.Optional(NameString());
const LongText = Type.Optional(TextString());

/** Statuses of a commit: posted by outside CI systems, listed together with the project's builds. */
export function commitStatusesRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const statuses = services.commitStatuses;

  // GitLab's `read_commit_status` is granted exactly as `download_code` is: to reporters and to
  // readers of public and internal projects; anonymous callers get 401 even there.
  api.get(
    '/projects/:id/repository/commits/:sha/statuses',
    {
      config: { project: 'download_code' },
      schema: {
        params: CommitPath,
        // GitLab 8.12 filters by `ref`; its documentation (and the spec) call it `ref_name`: both work.
        querystring: Type.Object({
          ref: Name,
          ref_name: Name,
          stage: Name,
          name: Name,
          all: Type.Optional(Type.Any()),
          page: Type.Optional(Type.Any()),
          per_page: Type.Optional(Type.Any()),
        }),
        response: { 200: Type.Array(CommitStatus) },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const page = pageOf(query);
      // The spec: without a ref, the statuses of the default branch (8.12's code applied no default).
      const ref = query.ref || query.ref_name || request.project.default_branch || undefined;
      const filters = { ref, stage: query.stage, name: query.name, all: toBoolean(query.all) === true };
      const { statuses: list, total } = await statuses.list(request.project, request.params.sha, filters, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      const authors = await services.users.findMany([...new Set(list.flatMap((row) => (row.user_id === null ? [] : [row.user_id])))]);
      return list.map((row) => presentCommitStatus(row, authors, presenter));
    },
  );

  api.post(
    '/projects/:id/statuses/:sha',
    {
      config: { project: 'create_commit_status' },
      schema: {
        params: CommitPath,
        body: Type.Object({ state: NameString(), ref: Name, name: Name, context: Name, target_url: LongText, description: LongText }),
        response: { 201: CommitStatus },
      },
    },
    async (request, reply) => {
      const { state, ref, name, context, target_url, description } = request.body;
      const user = request.user!;
      const row = await statuses.post(request.project, user, {
        sha: request.params.sha,
        state,
        ref,
        name: name || context,
        targetUrl: target_url,
        description,
      });
      return reply.status(201).send(presentCommitStatus(row, new Map([[user.id, user]]), presenter));
    },
  );
}
