import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { MergeRequest, presentMergeRequest } from './entities/merge-request';
import {
  MergeRequestDiff,
  MergeRequestDiffFull,
  presentMergeRequestDiff,
  presentMergeRequestDiffFull,
} from './entities/merge-request-diff';
import { RepoCommit, RepoDiff, presentRepoCommit, presentRepoDiff } from './entities/commit';
import { Issue, presentIssue } from './entities/issue';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { RecordId, TextString } from '../shared/params';

const MergeRequestPath = Type.Object({ id: Type.String(), merge_request_id: RecordId });
const VersionPath = Type.Object({ id: Type.String(), merge_request_id: RecordId, version_id: RecordId });
const read = { project: 'read_merge_request' } as const;

/** Every route here but the versions is also served on 8.12's deprecated singular `merge_request`. */
const PREFIXES = ['/projects/:id/merge_requests/:merge_request_id', '/projects/:id/merge_request/:merge_request_id'];

/** The git and CI side of merge requests: commits, changes, versions, merging, the issues a merge closes. */
export function mergeRequestGitRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const reads = services.mergeRequestReads;
  const merging = services.mergeRequestMerging;

  for (const prefix of PREFIXES) {
    api.get(
      `${prefix}/commits`,
      {
        config: read,
        schema: { params: MergeRequestPath, response: { 200: Type.Array(RepoCommit) } },
      },
      async (request) => (await reads.commits(request.project, request.params.merge_request_id)).map(presentRepoCommit),
    );

    api.get(
      `${prefix}/changes`,
      {
        config: read,
        schema: { params: MergeRequestPath, response: { 200: Type.Object({ ...MergeRequest.properties, changes: Type.Array(RepoDiff) }) } },
      },
      async (request) => {
        const { details, diffs } = await reads.changes(request.project, request.user, request.params.merge_request_id);
        return Object.assign(presentMergeRequest(details, presenter), { changes: diffs.map(presentRepoDiff) });
      },
    );

    api.put(
      `${prefix}/merge`,
      {
        config: read,
        schema: {
          params: MergeRequestPath,
          body: Type.Optional(
            Type.Object({
              merge_commit_message: Type.Optional(TextString()),
              should_remove_source_branch: Type.Optional(Type.Boolean()),
              merge_when_build_succeeds: Type.Optional(Type.Boolean()),
              sha: Type.Optional(Type.String({ maxLength: 64 })),
            }),
          ),
          response: { 200: MergeRequest },
        },
      },
      async (request) => {
        const body = request.body ?? {};
        const merged = await merging.accept(request.project, request.standing, request.user, request.params.merge_request_id, {
          mergeCommitMessage: body.merge_commit_message,
          shouldRemoveSourceBranch: body.should_remove_source_branch,
          mergeWhenPipelineSucceeds: body.merge_when_build_succeeds,
          sha: body.sha,
        });
        return presentMergeRequest(await reads.details(request.project, request.user, merged), presenter);
      },
    );

    api.post(
      `${prefix}/cancel_merge_when_build_succeeds`,
      {
        config: read,
        schema: { params: MergeRequestPath, response: { 201: MergeRequest } },
      },
      async (request, reply) => {
        const row = await merging.cancelAutomaticMerge(request.project, request.standing, request.user, request.params.merge_request_id);
        return reply.status(201).send(presentMergeRequest(await reads.details(request.project, request.user, row), presenter));
      },
    );

    api.get(
      `${prefix}/closes_issues`,
      {
        config: read,
        schema: {
          params: MergeRequestPath,
          querystring: Type.Object({ page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) }),
          response: { 200: Type.Array(Issue) },
        },
      },
      async (request, reply) => {
        const page = pageOf(request.query);
        const { issues, total } = await reads.closesIssues(request.project, request.standing, request.params.merge_request_id, page);
        setPageHeaders(request, reply, presenter.externalUrl, page, total);
        return issues.map((details) => presentIssue(details, presenter));
      },
    );
  }

  api.get(
    '/projects/:id/merge_requests/:merge_request_id/versions',
    {
      config: read,
      schema: { params: MergeRequestPath, response: { 200: Type.Array(MergeRequestDiff) } },
    },
    async (request) => (await reads.versions(request.project, request.params.merge_request_id)).map(presentMergeRequestDiff),
  );

  api.get(
    '/projects/:id/merge_requests/:merge_request_id/versions/:version_id',
    {
      config: read,
      schema: { params: VersionPath, response: { 200: MergeRequestDiffFull } },
    },
    async (request) =>
      presentMergeRequestDiffFull(await reads.version(request.project, request.params.merge_request_id, request.params.version_id)),
  );
}
