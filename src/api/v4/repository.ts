import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { notFound } from '../../errors';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { toBoolean } from '../../http/params';
import { ARCHIVE_EXTENSIONS } from '../../services/repository/reads';
import { Contributor, presentContributor } from '../shared/entities/commit';
import { FilePathString, NameString } from '../shared/params';
import { RawBytes, sendArchive, sendRaw } from '../shared/raw-bytes';
import { Compare4, presentCompare } from './entities/compare';
import { KeptBodies } from '../shared/kept-bodies';
import { TreeObject4, presentTreeEntry } from './entities/tree';

const ProjectId = Type.Object({ id: Type.String() });
const ProjectSha = Type.Object({ id: Type.String(), sha: Type.String() });
const Paging = { page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) };
const Flag = Type.Optional(Type.Union([Type.Boolean(), Type.String()]));

// Anyone who may read the code, anonymous callers of public projects included (GitLab 9+).
const read = { access: 'optional', project: 'download_code' } as const;

/** A project repository's trees, blobs, archives, comparisons and contributors (GitLab 11's `repositories.rb`). */
export function repositoryRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const reads = services.repositoryReads;
  // A comparison can run to megabytes of JSON: it is serialized once per comparison the service keeps.
  const compareBodies = new KeptBodies(presentCompare, 'application/json');

  api.get(
    '/projects/:id/repository/tree',
    {
      config: read,
      schema: {
        params: ProjectId,
        querystring: Type.Object({ ref: Type.Optional(NameString()), path: Type.Optional(FilePathString()), recursive: Flag, ...Paging }),
        response: { 200: Type.Array(TreeObject4) },
      },
    },
    async (request, reply) => {
      const { ref, path, recursive } = request.query;
      const entries = await reads.tree(request.project, { ref, path, recursive: toBoolean(recursive) === true });
      const page = pageOf(request.query);
      setPageHeaders(request, reply, presenter.externalUrl, page, entries.length);
      return entries.slice(page.offset, page.offset + page.limit).map(presentTreeEntry);
    },
  );

  api.get(
    '/projects/:id/repository/blobs/:sha',
    {
      config: read,
      schema: {
        params: ProjectSha,
        response: {
          200: Type.Object({ size: Type.Integer(), encoding: Type.Literal('base64'), content: Type.String(), sha: Type.String() }),
        },
      },
    },
    async (request) => {
      const blob = await reads.blob(request.project, request.params.sha);
      return { size: blob.size, encoding: 'base64' as const, content: blob.content.toString('base64'), sha: blob.id };
    },
  );

  api.get(
    '/projects/:id/repository/blobs/:sha/raw',
    { config: read, schema: { params: ProjectSha, response: RawBytes } },
    async (request, reply) => sendRaw(reply, await reads.rawBlob(request.project, request.params.sha)),
  );

  const ArchiveQuery = Type.Object({ sha: Type.Optional(Type.String()), format: Type.Optional(Type.String()) });
  api.get(
    '/projects/:id/repository/archive',
    { config: read, schema: { params: ProjectId, querystring: ArchiveQuery, response: RawBytes } },
    async (request, reply) => sendArchive(reply, await reads.archive(request.project, request.query)),
  );

  // `archive.zip`, `archive.tar.bz2` …: the extension picks the format.
  api.get(
    '/projects/:id/repository/archive.:format',
    {
      config: read,
      schema: { params: Type.Object({ id: Type.String(), format: Type.String() }), querystring: ArchiveQuery, response: RawBytes },
    },
    async (request, reply) => {
      if (!ARCHIVE_EXTENSIONS.has(request.params.format.toLowerCase())) throw notFound();
      return sendArchive(reply, await reads.archive(request.project, { sha: request.query.sha, format: request.params.format }));
    },
  );

  api.get(
    '/projects/:id/repository/compare',
    {
      config: read,
      schema: {
        params: ProjectId,
        querystring: Type.Object({ from: Type.String(), to: Type.String(), straight: Flag }),
        response: { 200: Compare4 },
      },
    },
    async (request, reply) => {
      const { from, to, straight } = request.query;
      return compareBodies.send(reply, await reads.compare(request.project, from, to, toBoolean(straight) === true));
    },
  );

  api.get(
    '/projects/:id/repository/contributors',
    {
      config: read,
      schema: { params: ProjectId, querystring: Type.Object(Paging), response: { 200: Type.Array(Contributor) } },
    },
    async (request, reply) => {
      const all = await reads.contributors(request.project);
      const page = pageOf(request.query);
      setPageHeaders(request, reply, presenter.externalUrl, page, all.length);
      return all.slice(page.offset, page.offset + page.limit).map(presentContributor);
    },
  );
}
