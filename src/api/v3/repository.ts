import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { Api, RouteDeps } from '../shared/types';
import { RepoTreeObject, presentTreeObject } from '../shared/entities/tree';
import { Compare, presentCompare } from './entities/compare';
import { Contributor, presentContributor } from './entities/commit';
import { notFound } from '../../errors';
import { ARCHIVE_EXTENSIONS } from '../../services/repository/reads';
import { RawBytes, sendArchive, sendRaw } from '../shared/raw-bytes';
import type { Project } from '../../services/projects/types';
import { FilePathString } from '../shared/params';
import { KeptBodies } from '../shared/kept-bodies';

const ProjectId = Type.Object({ id: Type.String() });
const ProjectSha = Type.Object({ id: Type.String(), sha: Type.String() });

// Repository reads need `download_code`: reporters and up, or anyone who may read a public or internal project.
const read = { project: 'download_code' } as const;

export function repositoryRoutes(api: Api, { services }: RouteDeps): void {
  const reads = services.repositoryReads;
  // A comparison can run to megabytes of JSON: it is serialized once per comparison the service keeps.
  const compareBodies = new KeptBodies(presentCompare, 'application/json; charset=utf-8');

  api.get(
    '/projects/:id/repository/tree',
    {
      config: read,
      schema: {
        params: ProjectId,
        querystring: Type.Object({ path: Type.Optional(FilePathString()), ref_name: Type.Optional(Type.String()) }),
        response: { 200: Type.Array(RepoTreeObject) },
      },
    },
    async (request) => {
      const entries = await reads.tree(request.project, { ref: request.query.ref_name, path: request.query.path });
      return entries.map(presentTreeObject);
    },
  );

  // GitLab answered both paths with the same raw file.
  for (const path of ['/projects/:id/repository/blobs/:sha', '/projects/:id/repository/commits/:sha/blob']) {
    api.get(
      path,
      {
        config: read,
        schema: { params: ProjectSha, querystring: Type.Object({ filepath: FilePathString() }), response: RawBytes },
      },
      async (request, reply) => sendRaw(reply, await reads.blobAt(request.project, request.params.sha, request.query.filepath)),
    );
  }

  api.get(
    '/projects/:id/repository/raw_blobs/:sha',
    {
      config: read,
      schema: { params: ProjectSha, response: RawBytes },
    },
    async (request, reply) => sendRaw(reply, await reads.rawBlob(request.project, request.params.sha)),
  );

  const ArchiveQuery = Type.Object({ sha: Type.Optional(Type.String()), format: Type.Optional(Type.String()) });
  const archiveHandler = async (
    project: Project,
    query: { sha?: string; format?: string },
    extension: string | undefined,
    reply: FastifyReply,
  ) => {
    return sendArchive(reply, await reads.archive(project, { sha: query.sha, format: extension ?? query.format }));
  };

  api.get(
    '/projects/:id/repository/archive',
    {
      config: read,
      schema: { params: ProjectId, querystring: ArchiveQuery, response: RawBytes },
    },
    async (request, reply) => archiveHandler(request.project, request.query, undefined, reply),
  );

  // `archive.zip`, `archive.tar.bz2` …: the extension picks the format, as GitLab's route did.
  api.get(
    '/projects/:id/repository/archive.:format',
    {
      config: read,
      schema: { params: Type.Object({ id: Type.String(), format: Type.String() }), querystring: ArchiveQuery, response: RawBytes },
    },
    async (request, reply) => {
      if (!ARCHIVE_EXTENSIONS.has(request.params.format.toLowerCase())) throw notFound();
      return archiveHandler(request.project, request.query, request.params.format, reply);
    },
  );

  api.get(
    '/projects/:id/repository/compare',
    {
      config: read,
      schema: { params: ProjectId, querystring: Type.Object({ from: Type.String(), to: Type.String() }), response: { 200: Compare } },
    },
    async (request, reply) => {
      const result = await reads.compare(request.project, request.query.from, request.query.to);
      return compareBodies.send(reply, result);
    },
  );

  // Not paginated (GitLab listed them all).
  api.get(
    '/projects/:id/repository/contributors',
    {
      config: read,
      schema: { params: ProjectId, response: { 200: Type.Array(Contributor) } },
    },
    async (request) => (await reads.contributors(request.project)).map(presentContributor),
  );
}
