import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { Pipeline, presentPipeline } from './entities/pipeline';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { RecordId } from '../shared/params';
import type { PipelineRow } from '../../services/ci/types';

const ProjectId = Type.Object({ id: Type.String() });
// 8.12 declared `pipeline_id` an Integer; a path that is not one names no pipeline here (404).
const PipelinePath = Type.Object({ id: Type.String(), pipeline_id: RecordId });
const NoParams = Type.Object({});

/** The pipelines of a project: read by reporters and readers of public projects, retried and canceled by developers. */
export function pipelinesRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const { pipelines, users } = services;

  const present = async (list: PipelineRow[]) => {
    const authors = await users.findMany(list.flatMap((pipeline) => (pipeline.user_id === null ? [] : [pipeline.user_id])));
    return list.map((pipeline) => presentPipeline(pipeline, authors, presenter));
  };
  const presentOne = async (pipeline: PipelineRow) => (await present([pipeline]))[0];

  api.get(
    '/projects/:id/pipelines',
    {
      config: { project: 'read_pipeline' },
      schema: {
        params: ProjectId,
        querystring: Type.Object({
          scope: Type.Optional(Type.String()),
          page: Type.Optional(Type.Any()),
          per_page: Type.Optional(Type.Any()),
        }),
        response: { 200: Type.Array(Pipeline) },
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { pipelines: list, total } = await pipelines.list(request.project, request.query.scope, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return present(list);
    },
  );

  api.get(
    '/projects/:id/pipelines/:pipeline_id',
    {
      config: { project: 'read_pipeline' },
      schema: { params: PipelinePath, querystring: NoParams, response: { 200: Pipeline } },
    },
    async (request) => presentOne(await pipelines.find(request.project, request.params.pipeline_id)),
  );

  api.post(
    '/projects/:id/pipelines/:pipeline_id/retry',
    {
      config: { project: 'update_pipeline' },
      schema: { params: PipelinePath, body: NoParams, response: { 201: Pipeline } },
    },
    async (request, reply) =>
      reply.status(201).send(await presentOne(await pipelines.retry(request.project, request.params.pipeline_id, request.user!))),
  );

  // 8.12 answered a cancel with 200, a retry with POST's default 201.
  api.post(
    '/projects/:id/pipelines/:pipeline_id/cancel',
    {
      config: { project: 'update_pipeline' },
      schema: { params: PipelinePath, body: NoParams, response: { 200: Pipeline } },
    },
    async (request) => presentOne(await pipelines.cancel(request.project, request.params.pipeline_id)),
  );
}
