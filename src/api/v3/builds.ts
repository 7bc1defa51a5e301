import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { Build, BuildWithDownloadUrl, presentBuild, presentBuildWithDownloadUrl } from './entities/build';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { notFound } from '../../errors';
import { sendArtifacts, sendTrace } from '../shared/send-file';
import { listParam } from '../shared/params';
import type { BuildRecord } from '../../services/ci/types';
import type { Project } from '../../services/projects/types';

const ProjectId = Type.Object({ id: Type.String() });
// A string, so that `abc` is an unknown build (8.12's `find_by(id: build_id.to_i)`: 404), not a 400.
const BuildPath = Type.Object({ id: Type.String(), build_id: Type.String() });
const ListQuery = Type.Object({ scope: Type.Optional(Type.Any()), page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) });
const NoParams = Type.Object({});

const RawBytes = {
  200: { description: 'the stored file', content: { 'application/octet-stream': { schema: Type.String({ format: 'binary' }) } } },
};
const PlainText = {
  200: { description: 'the trace', content: { 'text/plain': { schema: Type.String() } } },
};

// GitLab's `read_build`: reporters and up, and readers of a public or internal project with public builds.
const readBuild = { project: 'read_build' } as const;
// GitLab's `update_build`: developers and up.
const updateBuild = { project: 'update_build' } as const;

/** The builds of a project: lists, one build, its trace and artifacts, and what a caller may do to it. */
export function buildsRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const { builds, buildActions } = services;

  const present = async (project: Project, list: BuildRecord[]) =>
    (await builds.details(project, list)).map((details) => presentBuild(details, presenter));
  const presentOne = async (project: Project, build: BuildRecord) => (await present(project, [build]))[0];
  const presentWithDownloadUrl = async (project: Project, build: BuildRecord) =>
    presentBuildWithDownloadUrl((await builds.details(project, [build]))[0], presenter);

  // 8.12 asked only `read_project` here (a guest of a private project could list builds and their
  // commits, which `read_build` hides from them everywhere else); the list asks `read_build` as the other build reads do.
  api.get(
    '/projects/:id/builds',
    {
      config: readBuild,
      schema: { params: ProjectId, querystring: ListQuery, response: { 200: Type.Array(Build) } },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { builds: list, total } = await builds.list(request.project, listParam(request.query, 'scope'), page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return present(request.project, list);
    },
  );

  api.get(
    '/projects/:id/repository/commits/:sha/builds',
    {
      config: readBuild,
      schema: {
        params: Type.Object({ id: Type.String(), sha: Type.String() }),
        querystring: ListQuery,
        response: { 200: Type.Array(Build) },
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { builds: list, total } = await builds.listForCommit(
        request.project,
        request.params.sha,
        listParam(request.query, 'scope'),
        page,
      );
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return present(request.project, list);
    },
  );

  api.get(
    '/projects/:id/builds/:build_id',
    {
      config: readBuild,
      schema: { params: BuildPath, querystring: NoParams, response: { 200: Build } },
    },
    async (request) => presentOne(request.project, await builds.find(request.project, request.params.build_id)),
  );

  api.get(
    '/projects/:id/builds/:build_id/artifacts',
    {
      config: readBuild,
      schema: { params: BuildPath, querystring: NoParams, response: RawBytes },
    },
    async (request, reply) => sendArtifacts(reply, await builds.artifacts(request.project, request.params.build_id)),
  );

  // The ref may hold slashes (`improve/awesome`): everything between `artifacts/` and `/download`.
  api.get(
    '/projects/:id/builds/artifacts/*',
    {
      config: readBuild,
      schema: {
        params: Type.Object({ id: Type.String(), '*': Type.String() }),
        querystring: Type.Object({ job: Type.Optional(Type.String()) }),
        response: RawBytes,
      },
    },
    async (request, reply) => {
      const match = /^(.+)\/download$/.exec(request.params['*']);
      if (!match) throw notFound();
      return sendArtifacts(reply, await builds.artifactsForRef(request.project, match[1], request.query.job));
    },
  );

  api.get(
    '/projects/:id/builds/:build_id/trace',
    {
      config: readBuild,
      schema: { params: BuildPath, querystring: NoParams, response: PlainText },
    },
    async (request, reply) => sendTrace(reply, await builds.trace(request.project, request.params.build_id)),
  );

  api.post(
    '/projects/:id/builds/:build_id/cancel',
    {
      config: updateBuild,
      schema: { params: BuildPath, body: NoParams, response: { 201: Build } },
    },
    async (request, reply) =>
      reply.status(201).send(await presentOne(request.project, await buildActions.cancel(request.project, request.params.build_id))),
  );

  api.post(
    '/projects/:id/builds/:build_id/retry',
    {
      config: updateBuild,
      schema: { params: BuildPath, body: NoParams, response: { 201: Build } },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await presentOne(request.project, await buildActions.retry(request.project, request.params.build_id, request.user!))),
  );

  api.post(
    '/projects/:id/builds/:build_id/erase',
    {
      config: updateBuild,
      schema: { params: BuildPath, body: NoParams, response: { 201: BuildWithDownloadUrl } },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await presentWithDownloadUrl(request.project, await buildActions.erase(request.project, request.params.build_id, request.user!)),
        ),
  );

  api.post(
    '/projects/:id/builds/:build_id/artifacts/keep',
    {
      config: updateBuild,
      schema: { params: BuildPath, body: NoParams, response: { 200: BuildWithDownloadUrl } },
    },
    async (request) => presentWithDownloadUrl(request.project, await buildActions.keep(request.project, request.params.build_id)),
  );

  // 8.12 asked only `read_build` to play a manual build (8.13 asked `update_build`), and answered 200.
  api.post(
    '/projects/:id/builds/:build_id/play',
    {
      config: readBuild,
      schema: { params: BuildPath, body: NoParams, response: { 200: Build } },
    },
    async (request) => {
      const played = await presentOne(request.project, await buildActions.play(request.project, request.params.build_id, request.user!));
      // The spec's Build status table: a played build is answered as `started`, while it waits
      // `pending` for a runner (8.12's documentation showed the same).
      return Object.assign(played, { status: 'started' });
    },
  );
}
