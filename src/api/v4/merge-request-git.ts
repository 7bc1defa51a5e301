import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { MergeRequest, presentMergeRequest } from './entities/merge-request';
import {
  MergeRequestDiff,
  MergeRequestDiffFull,
  presentMergeRequestDiff,
  presentMergeRequestDiffFull,
} from './entities/merge-request-diff';
import { Commit4, presentCommit } from './entities/commit';
import { RepoDiff, presentRepoDiff } from '../shared/entities/commit';
import { IssueBasic, presentIssueBasic } from './entities/issue';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { toBoolean } from '../../http/params';
import { RecordId, TextString } from '../shared/params';
import { Loose, PageParams } from './issuable-params';

const MergeRequestPath = Type.Object({ id: Type.String(), merge_request_iid: RecordId });
const VersionPath = Type.Object({ id: Type.String(), merge_request_iid: RecordId, version_id: RecordId });
const PageQuery = Type.Object(PageParams);
const MergeBody = Type.Object({
  merge_commit_message: Type.Optional(TextString()),
  should_remove_source_branch: Loose,
  merge_when_pipeline_succeeds: Loose,
  sha: Type.Optional(Type.String({ maxLength: 64 })),
});

/** The git and CI side of merge requests in v4, by `iid`: commits, changes, versions, merging, the issues a merge closes. */
export function mergeRequestGitRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const { mergeRequests } = services;
  const reads = services.mergeRequestReads;
  const merging = services.mergeRequestMerging;
  const read = { access: 'optional', project: 'read_merge_request' } as const;
  const base = '/projects/:id/merge_requests/:merge_request_iid';

  api.get(
    `${base}/commits`,
    { config: read, schema: { params: MergeRequestPath, querystring: PageQuery, response: { 200: Type.Array(Commit4) } } },
    async (request, reply) => {
      const page = pageOf(request.query);
      const commits = await reads.commits(request.project, { iid: request.params.merge_request_iid });
      setPageHeaders(request, reply, presenter.externalUrl, page, commits.length);
      return commits.slice(page.offset, page.offset + page.limit).map(presentCommit);
    },
  );

  api.get(
    `${base}/changes`,
    {
      config: read,
      schema: {
        params: MergeRequestPath,
        querystring: Type.Object({}),
        response: { 200: Type.Object({ ...MergeRequest.properties, changes: Type.Array(RepoDiff) }) },
      },
    },
    async (request) => {
      const { details, diffs } = await reads.changes(request.project, request.user, { iid: request.params.merge_request_iid });
      return Object.assign(presentMergeRequest(details, presenter), { changes: diffs.map(presentRepoDiff) });
    },
  );

  // 401 for who may not merge, 405 for what cannot be merged (closed, work in progress, no branch),
  // 406 for conflicts, 409 for a `sha` that is not the source's head: the service's refusals, in GitLab's order.
  api.put(
    `${base}/merge`,
    {
      config: read,
      schema: { params: MergeRequestPath, body: Type.Optional(MergeBody), response: { 200: MergeRequest } },
    },
    async (request) => {
      const body = request.body ?? {};
      const id = await mergeRequests.idByIid(request.project, request.params.merge_request_iid);
      const merged = await merging.accept(request.project, request.standing, request.user, id, {
        mergeCommitMessage: body.merge_commit_message,
        shouldRemoveSourceBranch: toBoolean(body.should_remove_source_branch),
        mergeWhenPipelineSucceeds: toBoolean(body.merge_when_pipeline_succeeds),
        sha: body.sha === '' ? undefined : body.sha,
      });
      return presentMergeRequest(await reads.details(request.project, request.user, merged), presenter);
    },
  );

  api.post(
    `${base}/cancel_merge_when_pipeline_succeeds`,
    { config: read, schema: { params: MergeRequestPath, body: Type.Optional(Type.Object({})), response: { 201: MergeRequest } } },
    async (request, reply) => {
      const id = await mergeRequests.idByIid(request.project, request.params.merge_request_iid);
      const row = await merging.cancelAutomaticMerge(request.project, request.standing, request.user, id);
      return reply.status(201).send(presentMergeRequest(await reads.details(request.project, request.user, row), presenter));
    },
  );

  api.get(
    `${base}/closes_issues`,
    { config: read, schema: { params: MergeRequestPath, querystring: PageQuery, response: { 200: Type.Array(IssueBasic) } } },
    async (request, reply) => {
      const page = pageOf(request.query);
      const iid = request.params.merge_request_iid;
      const { issues, total } = await reads.closesIssues(request.project, request.standing, { iid }, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return issues.map((details) => presentIssueBasic(details, presenter));
    },
  );

  api.get(
    `${base}/versions`,
    { config: read, schema: { params: MergeRequestPath, querystring: PageQuery, response: { 200: Type.Array(MergeRequestDiff) } } },
    async (request, reply) => {
      const page = pageOf(request.query);
      const versions = await reads.versions(request.project, { iid: request.params.merge_request_iid });
      setPageHeaders(request, reply, presenter.externalUrl, page, versions.length);
      return versions.slice(page.offset, page.offset + page.limit).map(presentMergeRequestDiff);
    },
  );

  api.get(
    `${base}/versions/:version_id`,
    { config: read, schema: { params: VersionPath, querystring: Type.Object({}), response: { 200: MergeRequestDiffFull } } },
    async (request) => {
      const { merge_request_iid: iid, version_id: versionId } = request.params;
      return presentMergeRequestDiffFull(await reads.version(request.project, { iid }, versionId));
    },
  );
}
