import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { FileCommit, RepoFile, presentFile } from './entities/file';
import type { FileWrite } from '../../services/repository/files';
import { FilePathString, NameString, TextString } from '../shared/params';

const ProjectId = Type.Object({ id: Type.String() });

// Required in the order GitLab checks them, so that the first missing one is named.
const target = {
  file_path: FilePathString(),
  branch_name: Type.String(),
};
const author = {
  author_email: Type.Optional(NameString()),
  author_name: Type.Optional(NameString()),
};
const ContentBody = Type.Object({
  ...target,
  content: Type.String(),
  commit_message: TextString(),
  encoding: Type.Optional(NameString({ description: '`base64`, else text' })),
  ...author,
});
const DeleteQuery = Type.Object({ ...target, commit_message: TextString(), ...author });

interface WriteParams {
  file_path: string;
  branch_name: string;
  commit_message: string;
  content?: string;
  encoding?: string;
  author_email?: string;
  author_name?: string;
}

const fileWrite = (action: FileWrite['action'], params: WriteParams): FileWrite => ({
  action,
  filePath: params.file_path,
  branch: params.branch_name,
  commitMessage: params.commit_message,
  content: params.content,
  encoding: params.encoding,
  authorEmail: params.author_email,
  authorName: params.author_name,
});

/** One file read or written per request, each write a commit (GitLab's `files.rb`). */
export function filesRoutes(api: Api, { services }: RouteDeps): void {
  const files = services.files;

  api.get(
    '/projects/:id/repository/files',
    {
      config: { project: 'download_code' },
      schema: {
        params: ProjectId,
        querystring: Type.Object({ file_path: FilePathString(), ref: Type.String() }),
        response: { 200: RepoFile },
      },
    },
    async (request) => presentFile(await files.get(request.project, request.query.file_path, request.query.ref)),
  );

  api.post(
    '/projects/:id/repository/files',
    {
      config: { project: 'push_code', nulBytesIn: ['content'] },
      schema: { params: ProjectId, body: ContentBody, response: { 201: FileCommit } },
    },
    async (request, reply) => {
      const filePath = await files.write(request.project, request.standing, request.user!, fileWrite('create', request.body));
      return reply.status(201).send({ file_path: filePath, branch_name: request.body.branch_name });
    },
  );

  api.put(
    '/projects/:id/repository/files',
    {
      config: { project: 'push_code', nulBytesIn: ['content'] },
      schema: { params: ProjectId, body: ContentBody, response: { 200: FileCommit } },
    },
    async (request) => {
      const filePath = await files.write(request.project, request.standing, request.user!, fileWrite('update', request.body));
      return { file_path: filePath, branch_name: request.body.branch_name };
    },
  );

  api.delete(
    '/projects/:id/repository/files',
    {
      config: { project: 'push_code', nulBytesIn: ['content'] },
      schema: { params: ProjectId, querystring: DeleteQuery, response: { 200: FileCommit } },
    },
    async (request) => {
      const filePath = await files.write(request.project, request.standing, request.user!, fileWrite('delete', request.query));
      return { file_path: filePath, branch_name: request.query.branch_name };
    },
  );
}
