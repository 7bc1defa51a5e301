import { Type } from '@sinclair/typebox';
import type { FastifyContextConfig } from 'fastify';
import type { Api, RouteDeps } from '../shared/types';
import type { CommitAction, CommitRequest } from '../../services/repository/commit-actions';
import { FilePathString, NameString, TextString } from '../shared/params';
import { RawBytes, sendRaw } from '../shared/raw-bytes';
import { FileCommit4, RepoFile4, fileFacts, fileHeaders, presentFile } from './entities/file';

/** The file's path is one URL-encoded segment (`lib%2Fclass.rb`), decoded by the router. */
const FilePath = Type.Object({ id: Type.String(), file_path: FilePathString() });
const Ref = Type.Object({ ref: NameString() });
const RawRef = Type.Object({ ref: Type.Optional(NameString()) });

// Required in the order GitLab checks them, so that the first missing one is named.
const WriteFields = {
  branch: NameString(),
  commit_message: TextString(),
  start_branch: Type.Optional(NameString()),
  author_email: Type.Optional(NameString()),
  author_name: Type.Optional(NameString()),
};
const ContentBody = Type.Object({
  ...WriteFields,
  content: Type.String(),
  encoding: Type.Optional(Type.Union([Type.Literal('text'), Type.Literal('base64')])),
  last_commit_id: Type.Optional(NameString()),
  execute_filemode: Type.Optional(Type.Boolean()),
});
const DeleteBody = Type.Object({ ...WriteFields, last_commit_id: Type.Optional(NameString()) });

interface WriteParams {
  branch: string;
  commit_message: string;
  start_branch?: string;
  author_email?: string;
  author_name?: string;
  content?: string;
  encoding?: string;
  last_commit_id?: string;
  execute_filemode?: boolean;
}

/** One file's write as a commit of one action. */
function commitOf(action: CommitAction['action'], filePath: string, params: WriteParams): CommitRequest {
  return {
    branch: params.branch,
    startBranch: params.start_branch,
    commitMessage: params.commit_message,
    authorEmail: params.author_email,
    authorName: params.author_name,
    actions: [
      {
        action,
        filePath,
        content: params.content,
        encoding: params.encoding,
        lastCommitId: params.last_commit_id,
        executeFilemode: params.execute_filemode,
      },
    ],
  };
}

/** Files by their URL-encoded path, each write a commit (GitLab 9–11's `files.rb`). */
export function filesRoutes(api: Api, { services }: RouteDeps): void {
  const files = services.files;
  const read = { access: 'optional', project: 'download_code' } as const;

  // Fastify answers HEAD from this route: the headers, no body.
  api.get(
    '/projects/:id/repository/files/:file_path',
    { config: read, schema: { params: FilePath, querystring: Ref, response: { 200: RepoFile4 } } },
    async (request, reply) => {
      const file = await files.get(request.project, request.params.file_path, request.query.ref);
      const facts = fileFacts(file);
      reply.headers(fileHeaders(facts));
      return presentFile(file, facts);
    },
  );

  api.get(
    '/projects/:id/repository/files/:file_path/raw',
    { config: read, schema: { params: FilePath, querystring: RawRef, response: RawBytes } },
    async (request, reply) => {
      const ref = await services.repositoryReads.refOrDefault(request.project, request.query.ref);
      return sendRaw(reply, await services.repositoryReads.blobAt(request.project, ref, request.params.file_path));
    },
  );

  const write: FastifyContextConfig = { access: 'user', project: 'push_code', nulBytesIn: ['content'] };

  api.post(
    '/projects/:id/repository/files/:file_path',
    { config: write, schema: { params: FilePath, body: ContentBody, response: { 201: FileCommit4 } } },
    async (request, reply) => {
      const { file_path } = request.params;
      await files.commit(request.project, request.standing, request.user!, commitOf('create', file_path, request.body));
      return reply.status(201).send({ file_path, branch: request.body.branch });
    },
  );

  api.put(
    '/projects/:id/repository/files/:file_path',
    { config: write, schema: { params: FilePath, body: ContentBody, response: { 200: FileCommit4 } } },
    async (request) => {
      const { file_path } = request.params;
      await files.commit(request.project, request.standing, request.user!, commitOf('update', file_path, request.body));
      return { file_path, branch: request.body.branch };
    },
  );

  // python-gitlab sends the parameters of a DELETE in a JSON body; others in the query string (merged with it).
  api.delete(
    '/projects/:id/repository/files/:file_path',
    { config: write, schema: { params: FilePath, body: DeleteBody, response: { 204: Type.Null() } } },
    async (request, reply) => {
      await files.commit(request.project, request.standing, request.user!, commitOf('delete', request.params.file_path, request.body));
      return reply.status(204).send(null);
    },
  );
}
