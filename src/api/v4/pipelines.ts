import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Api, RouteDeps } from '../shared/types';
import { Pipeline, PipelineBasic, presentPipeline, presentPipelineBasic } from './entities/pipeline';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { NameString, RecordId } from '../shared/params';
import type { PipelineRow } from '../../services/ci/types';

const ProjectId = Type.Object({ id: Type.String() });
// A path that is not an id names no pipeline (404).
const PipelinePath = Type.Object({ id: Type.String(), pipeline_id: RecordId });
const NoParams = Type.Object({});
const oneOf = (values: string[]) => Type.Union(values.map((value) => Type.Literal(value)));

/** GitLab 9–11's pipeline list filters, each with its list of values (Grape's `values:`: 400 for another). */
const ListQuery = Type.Object({
  scope: Type.Optional(oneOf(['running', 'pending', 'finished', 'branches', 'tags'])),
  status: Type.Optional(oneOf(['created', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped', 'manual', 'scheduled'])),
  ref: Type.Optional(NameString()),
  sha: Type.Optional(NameString()),
  yaml_errors: Type.Optional(Type.Boolean()),
  username: Type.Optional(NameString()),
  order_by: Type.Optional(oneOf(['id', 'status', 'ref', 'user_id'])),
  sort: Type.Optional(oneOf(['asc', 'desc'])),
  page: Type.Optional(Type.Any()),
  per_page: Type.Optional(Type.Any()),
});

// GitLab's `read_pipeline`: reporters and up, and anyone who may read a project with public jobs (anonymous too, in v4).
const readPipeline = { access: 'optional', project: 'read_pipeline' } as const;
// GitLab's `create_pipeline` and `update_pipeline`: developers and up.
const updatePipeline = { project: 'update_pipeline' } as const;

/** The pipelines of a project: read by reporters, run, retried and canceled by developers. */
export function pipelinesRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const { pipelines, users } = services;

  const presentOne = async (request: FastifyRequest, pipeline: PipelineRow) => {
    const author = pipeline.user_id === null ? undefined : (await users.findMany([pipeline.user_id])).get(pipeline.user_id);
    return presentPipeline(pipeline, author, request.project, presenter);
  };

  api.get(
    '/projects/:id/pipelines',
    { config: readPipeline, schema: { params: ProjectId, querystring: ListQuery, response: { 200: Type.Array(PipelineBasic) } } },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { scope, status, ref, sha, yaml_errors, username, order_by, sort } = request.query;
      const filters = { status, ref, sha, yamlErrors: yaml_errors, username, orderBy: order_by, sort };
      const { pipelines: list, total } = await pipelines.list(request.project, scope, page, filters);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return list.map((pipeline) => presentPipelineBasic(pipeline, request.project, presenter));
    },
  );

  api.get(
    '/projects/:id/pipelines/:pipeline_id',
    { config: readPipeline, schema: { params: PipelinePath, querystring: NoParams, response: { 200: Pipeline } } },
    async (request) => presentOne(request, await pipelines.find(request.project, request.params.pipeline_id)),
  );

  // Singular, as GitLab 9 named it: the pipeline of `ref`'s head commit, made by the caller.
  api.post(
    '/projects/:id/pipeline',
    {
      config: { ...updatePipeline, grapeParams: true },
      schema: { params: ProjectId, body: Type.Object({ ref: NameString() }), response: { 201: Pipeline } },
    },
    async (request, reply) =>
      reply.status(201).send(await presentOne(request, await pipelines.create(request.project, request.body.ref, request.user!))),
  );

  api.post(
    '/projects/:id/pipelines/:pipeline_id/retry',
    { config: updatePipeline, schema: { params: PipelinePath, body: NoParams, response: { 201: Pipeline } } },
    async (request, reply) =>
      reply.status(201).send(await presentOne(request, await pipelines.retry(request.project, request.params.pipeline_id, request.user!))),
  );

  // GitLab 9 answered a cancel with 200, a retry with POST's default 201.
  api.post(
    '/projects/:id/pipelines/:pipeline_id/cancel',
    { config: updatePipeline, schema: { params: PipelinePath, body: NoParams, response: { 200: Pipeline } } },
    async (request) => presentOne(request, await pipelines.cancel(request.project, request.params.pipeline_id)),
  );
}
