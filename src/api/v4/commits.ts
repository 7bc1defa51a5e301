import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { toBoolean } from '../../http/params';
import { CommitNote, RepoDiff, presentCommitNote, presentRepoDiff } from '../shared/entities/commit';
import { CommitStatus, presentCommitStatus } from '../shared/entities/commit-status';
import { FilePathString, NameString, TextString } from '../shared/params';
import { Commit4, CommitDetail4, CommitRef, presentCommit, presentCommitDetail, presentCommitRef } from './entities/commit';

const ProjectId = Type.Object({ id: Type.String() });
const ProjectSha = Type.Object({ id: Type.String(), sha: Type.String() });
const Paging = { page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) };
const Flag = Type.Optional(Type.Union([Type.Boolean(), Type.String()]));
const Name = Type.Optional(NameString());

// Anyone who may read the code, anonymous callers of public projects included (GitLab 9+).
const read = { access: 'optional', project: 'download_code' } as const;

const Action = Type.Object({
  action: Type.Union(['create', 'delete', 'move', 'update', 'chmod'].map((name) => Type.Literal(name))),
  file_path: FilePathString(),
  previous_path: Type.Optional(FilePathString()),
  content: Type.Optional(Type.String()),
  encoding: Type.Optional(Type.Union([Type.Literal('text'), Type.Literal('base64')])),
  last_commit_id: Type.Optional(NameString()),
  execute_filemode: Type.Optional(Type.Boolean()),
});

/** A project's commits, their diffs, comments, statuses and refs, and commits of several file actions (GitLab 11's `commits.rb`). */
export function commitsRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const commits = services.commitReads;
  const comments = services.commitComments;

  // Pages count from 1 with the pagination headers (8.12 counted from 0 and sent none).
  api.get(
    '/projects/:id/repository/commits',
    {
      config: read,
      schema: {
        params: ProjectId,
        querystring: Type.Object({
          ref_name: Name,
          since: Name,
          until: Name,
          path: Type.Optional(FilePathString()),
          all: Flag,
          ...Paging,
        }),
        response: { 200: Type.Array(Commit4) },
      },
    },
    async (request, reply) => {
      const { ref_name, since, until, path, all } = request.query;
      const page = pageOf(request.query);
      const options = { ref: ref_name, since, until, path, all: toBoolean(all) === true, offset: page.offset, limit: page.limit };
      const { commits: list, total } = await commits.page(request.project, options);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return list.map(presentCommit);
    },
  );

  // Answers the commit made, with its stats (GitLab's `Entities::CommitDetail`).
  api.post(
    '/projects/:id/repository/commits',
    {
      config: { access: 'user', project: 'push_code', nulBytesIn: ['actions'] },
      schema: {
        params: ProjectId,
        body: Type.Object({
          branch: NameString(),
          commit_message: TextString(),
          actions: Type.Array(Action, { minItems: 1 }),
          start_branch: Name,
          author_email: Name,
          author_name: Name,
        }),
        response: { 201: CommitDetail4 },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const commitId = await services.files.commit(request.project, request.standing, request.user!, {
        branch: body.branch,
        startBranch: body.start_branch,
        commitMessage: body.commit_message,
        authorEmail: body.author_email,
        authorName: body.author_name,
        actions: body.actions.map((action) => ({
          action: action.action as 'create' | 'delete' | 'move' | 'update' | 'chmod',
          filePath: action.file_path,
          previousPath: action.previous_path,
          content: action.content,
          encoding: action.encoding,
          lastCommitId: action.last_commit_id,
          executeFilemode: action.execute_filemode,
        })),
      });
      const detail = await commits.detail(request.project, commitId);
      return reply.status(201).send(presentCommitDetail(detail, request.project, presenter));
    },
  );

  api.get(
    '/projects/:id/repository/commits/:sha',
    { config: read, schema: { params: ProjectSha, response: { 200: CommitDetail4 } } },
    async (request) => presentCommitDetail(await commits.detail(request.project, request.params.sha), request.project, presenter),
  );

  api.get(
    '/projects/:id/repository/commits/:sha/diff',
    { config: read, schema: { params: ProjectSha, querystring: Type.Object(Paging), response: { 200: Type.Array(RepoDiff) } } },
    async (request, reply) => {
      const diffs = await commits.diff(request.project, request.params.sha);
      const page = pageOf(request.query);
      setPageHeaders(request, reply, presenter.externalUrl, page, diffs.length);
      return diffs.slice(page.offset, page.offset + page.limit).map(presentRepoDiff);
    },
  );

  api.get(
    '/projects/:id/repository/commits/:sha/refs',
    {
      config: read,
      schema: {
        params: ProjectSha,
        querystring: Type.Object({
          type: Type.Optional(Type.Union([Type.Literal('branch'), Type.Literal('tag'), Type.Literal('all')])),
          ...Paging,
        }),
        response: { 200: Type.Array(CommitRef) },
      },
    },
    async (request, reply) => {
      const refs = await commits.refsContaining(request.project, request.params.sha, request.query.type ?? 'all');
      const page = pageOf(request.query);
      setPageHeaders(request, reply, presenter.externalUrl, page, refs.length);
      return refs.slice(page.offset, page.offset + page.limit).map(presentCommitRef);
    },
  );

  api.get(
    '/projects/:id/repository/commits/:sha/comments',
    {
      config: read,
      schema: { params: ProjectSha, querystring: Type.Object(Paging), response: { 200: Type.Array(CommitNote) } },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { notes, total } = await comments.list(request.project, request.params.sha, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      const authors = await services.users.findMany(notes.flatMap((note) => (note.author_id === null ? [] : [note.author_id])));
      return notes.map((note) => presentCommitNote(note, note.author_id === null ? undefined : authors.get(note.author_id), presenter));
    },
  );

  api.post(
    '/projects/:id/repository/commits/:sha/comments',
    {
      config: { access: 'user', project: 'download_code' },
      schema: {
        params: ProjectSha,
        body: Type.Object({
          note: TextString(),
          path: Type.Optional(FilePathString()),
          line: Type.Optional(Type.Any()),
          line_type: Name,
        }),
        response: { 201: CommitNote },
      },
    },
    async (request, reply) => {
      const { note, path, line, line_type } = request.body;
      const created = await comments.create(request.project, request.user!, request.params.sha, { note, path, line, lineType: line_type });
      return reply.status(201).send(presentCommitNote(created, request.user!, presenter));
    },
  );

  api.get(
    '/projects/:id/repository/commits/:sha/statuses',
    {
      config: read,
      schema: {
        params: ProjectSha,
        querystring: Type.Object({ ref: Name, stage: Name, name: Name, all: Type.Optional(Type.Any()), ...Paging }),
        response: { 200: Type.Array(CommitStatus) },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const page = pageOf(query);
      const filters = { ref: query.ref || undefined, stage: query.stage, name: query.name, all: toBoolean(query.all) === true };
      const { statuses, total } = await services.commitStatuses.list(request.project, request.params.sha, filters, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      const authors = await services.users.findMany([...new Set(statuses.flatMap((row) => (row.user_id === null ? [] : [row.user_id])))]);
      return statuses.map((row) => presentCommitStatus(row, authors, presenter));
    },
  );

  api.post(
    '/projects/:id/statuses/:sha',
    {
      config: { access: 'user', project: 'create_commit_status' },
      schema: {
        params: ProjectSha,
        body: Type.Object({
          state: NameString(),
          ref: Name,
          name: Name,
          context: Name,
          target_url: Type.Optional(TextString()),
          description: Type.Optional(TextString()),
        }),
        response: { 201: CommitStatus },
      },
    },
    async (request, reply) => {
      const { state, ref, name, context, target_url, description } = request.body;
      const user = request.user!;
      const row = await services.commitStatuses.post(request.project, user, {
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
