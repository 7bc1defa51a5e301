import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import {
  CommitNote,
  CommitNoteListItem,
  RepoCommitDetail,
  RepoCommitListItem,
  RepoDiff,
  presentCommitNote,
  presentCommitNoteListItem,
  presentRepoCommitDetail,
  presentRepoCommitListItem,
  presentRepoDiff,
} from './entities/commit';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { FilePathString, NameString, TextString } from '../shared/params';

const ProjectId = Type.Object({ id: Type.String() });
const ProjectSha = Type.Object({ id: Type.String(), sha: Type.String() });

// Commit reads need `download_code`: reporters and up, or anyone who may read a public or internal project.
const read = { project: 'download_code' } as const;

export function commitsRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const commits = services.commitReads;
  const comments = services.commitComments;

  // GitLab's own paging: `page` counts from 0, no page headers.
  api.get(
    '/projects/:id/repository/commits',
    {
      config: read,
      schema: {
        params: ProjectId,
        querystring: Type.Object({
          ref_name: Type.Optional(Type.String()),
          since: Type.Optional(NameString()),
          until: Type.Optional(NameString()),
          path: Type.Optional(FilePathString()),
          page: Type.Optional(Type.Any()),
          per_page: Type.Optional(Type.Any()),
        }),
        response: { 200: Type.Array(RepoCommitListItem) },
      },
    },
    async (request) => {
      const { ref_name, since, until, path, page, per_page } = request.query;
      const list = await commits.list(request.project, { ref: ref_name, since, until, path, page, perPage: per_page });
      return list.map(presentRepoCommitListItem);
    },
  );

  api.get(
    '/projects/:id/repository/commits/:sha',
    {
      config: read,
      schema: { params: ProjectSha, response: { 200: RepoCommitDetail } },
    },
    async (request) => presentRepoCommitDetail(await commits.detail(request.project, request.params.sha)),
  );

  api.get(
    '/projects/:id/repository/commits/:sha/diff',
    {
      config: read,
      schema: { params: ProjectSha, response: { 200: Type.Array(RepoDiff) } },
    },
    async (request) => (await commits.diff(request.project, request.params.sha)).map(presentRepoDiff),
  );

  api.get(
    '/projects/:id/repository/commits/:sha/comments',
    {
      config: read,
      schema: {
        params: ProjectSha,
        querystring: Type.Object({ page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) }),
        response: { 200: Type.Array(CommitNoteListItem) },
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { notes, total } = await comments.list(request.project, request.params.sha, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      const authors = await services.users.findMany(notes.flatMap((note) => (note.author_id === null ? [] : [note.author_id])));
      return notes.map((note) =>
        presentCommitNoteListItem(note, note.author_id === null ? undefined : authors.get(note.author_id), presenter),
      );
    },
  );

  // GitLab asked for `download_code` only: whoever may read the code may comment on it.
  api.post(
    '/projects/:id/repository/commits/:sha/comments',
    {
      config: { project: 'download_code' },
      schema: {
        params: ProjectSha,
        body: Type.Object({
          note: TextString(),
          path: Type.Optional(FilePathString()),
          line: Type.Optional(Type.Any()),
          line_type: Type.Optional(NameString()),
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
}
