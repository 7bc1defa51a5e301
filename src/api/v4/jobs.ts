import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { Job, presentJob } from './entities/job';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { notFound } from '../../errors';
import { listParam, RecordId } from '../shared/params';
import { sendArtifacts, sendTrace } from '../shared/send-file';
import type { BuildRecord } from '../../services/ci/types';
import type { Project } from '../../services/projects/types';

const ProjectId = Type.Object({ id: Type.String() });
// A string, so that `abc` is an unknown job (404), not a 400.
const JobPath = Type.Object({ id: Type.String(), job_id: Type.String() });
const PipelinePath = Type.Object({ id: Type.String(), pipeline_id: RecordId });
const ListQuery = Type.Object({ scope: Type.Optional(Type.Any()), page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) });
const NoParams = Type.Object({});

const RawBytes = {
  200: { description: 'the stored file', content: { 'application/octet-stream': { schema: Type.String({ format: 'binary' }) } } },
};
const PlainText = {
  200: { description: 'the trace', content: { 'text/plain': { schema: Type.String() } } },
};

// GitLab's `read_build`: reporters and up, and users who may read a project with public jobs. GitLab's
// jobs API asks a signed-in caller (`authenticate!`), even for a public project.
const readJob = { project: 'read_build' } as const;
// GitLab's `job_token_allowed`: a running job (CI_JOB_TOKEN) reads artifacts as the user it runs for.
const readArtifacts = { ...readJob, jobToken: true } as const;
// GitLab's `update_build`: developers and up.
const updateJob = { project: 'update_build' } as const;

/** The jobs of a project (v3's builds under GitLab 9's name): lists, one job, its trace and artifacts, and what a caller may do to it. */
export function jobsRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const { builds, buildActions } = services;

  const present = async (project: Project, list: BuildRecord[]) =>
    (await builds.details(project, list)).map((details) => presentJob(details, project, presenter));
  const presentOne = async (project: Project, build: BuildRecord) => (await present(project, [build]))[0];

  api.get(
    '/projects/:id/jobs',
    { config: readJob, schema: { params: ProjectId, querystring: ListQuery, response: { 200: Type.Array(Job) } } },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { builds: list, total } = await builds.list(request.project, listParam(request.query, 'scope'), page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return present(request.project, list);
    },
  );

  api.get(
    '/projects/:id/pipelines/:pipeline_id/jobs',
    { config: readJob, schema: { params: PipelinePath, querystring: ListQuery, response: { 200: Type.Array(Job) } } },
    async (request, reply) => {
      const page = pageOf(request.query);
      const scope = listParam(request.query, 'scope');
      const { builds: list, total } = await builds.listForPipeline(request.project, request.params.pipeline_id, scope, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return present(request.project, list);
    },
  );

  api.get(
    '/projects/:id/jobs/:job_id',
    { config: readJob, schema: { params: JobPath, querystring: NoParams, response: { 200: Job } } },
    async (request) => presentOne(request.project, await builds.find(request.project, request.params.job_id)),
  );

  api.get(
    '/projects/:id/jobs/:job_id/artifacts',
    { config: readArtifacts, schema: { params: JobPath, querystring: NoParams, response: RawBytes } },
    async (request, reply) => sendArtifacts(reply, await builds.artifacts(request.project, request.params.job_id)),
  );

  // The ref may hold slashes (`improve/awesome`): everything between `artifacts/` and `/download`.
  api.get(
    '/projects/:id/jobs/artifacts/*',
    {
      config: readArtifacts,
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
    '/projects/:id/jobs/:job_id/trace',
    { config: readJob, schema: { params: JobPath, querystring: NoParams, response: PlainText } },
    async (request, reply) => sendTrace(reply, await builds.trace(request.project, request.params.job_id)),
  );

  api.post(
    '/projects/:id/jobs/:job_id/cancel',
    { config: updateJob, schema: { params: JobPath, body: NoParams, response: { 201: Job } } },
    async (request, reply) =>
      reply.status(201).send(await presentOne(request.project, await buildActions.cancel(request.project, request.params.job_id))),
  );

  api.post(
    '/projects/:id/jobs/:job_id/retry',
    { config: updateJob, schema: { params: JobPath, body: NoParams, response: { 201: Job } } },
    async (request, reply) =>
      reply
        .status(201)
        .send(await presentOne(request.project, await buildActions.retry(request.project, request.params.job_id, request.user!))),
  );

  api.post(
    '/projects/:id/jobs/:job_id/erase',
    { config: updateJob, schema: { params: JobPath, body: NoParams, response: { 201: Job } } },
    async (request, reply) =>
      reply
        .status(201)
        .send(await presentOne(request.project, await buildActions.erase(request.project, request.params.job_id, request.user!))),
  );

  api.post(
    '/projects/:id/jobs/:job_id/artifacts/keep',
    { config: updateJob, schema: { params: JobPath, body: NoParams, response: { 200: Job } } },
    async (request) => presentOne(request.project, await buildActions.keep(request.project, request.params.job_id)),
  );

  // GitLab 9 asked `update_build` to play a manual job (8.12 asked only `read_build`), and answered 200.
  api.post(
    '/projects/:id/jobs/:job_id/play',
    { config: updateJob, schema: { params: JobPath, body: NoParams, response: { 200: Job } } },
    async (request) => presentOne(request.project, await buildActions.play(request.project, request.params.job_id, request.user!)),
  );
}
