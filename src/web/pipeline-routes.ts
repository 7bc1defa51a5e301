import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors';
import { can } from '../services/policy';
import type { Services } from '../services/index';
import type { BuildRecord } from '../services/ci/types';
import { PAGE, pageContext, sendPage } from './request';
import { projectFor, type ProjectParams } from './project-scope';
import { pipelinePath } from './ci-paths';
import { pageNumber } from './pages/pager';
import { pipelinesPage } from './pages/ci/pipelines';
import { pipelinePage } from './pages/ci/pipeline';

const PER_PAGE = 20;
/** A pipeline page shows its builds in one list: more than this many is past any real pipeline. */
const BUILDS_LIMIT = 1000;

type PipelineParams = ProjectParams & { id: string };
const TokenBody = Type.Object({ authenticity_token: Type.Optional(Type.String({ maxLength: 255 })) });
const PageQuery = Type.Object({ page: Type.Optional(Type.String({ maxLength: 10 })) });

/** A pipeline's id from its path, or 404 (`abc`, `0`, a number past any record's). */
export function recordId(value: string): number {
  if (!/^[1-9]\d{0,9}$/.test(value) || Number(value) > 2_147_483_647) throw notFound();
  return Number(value);
}

/** `…/pipelines` and `…/pipelines/:id` (GitLab 8.12's), read as the API's `read_pipeline`, changed as its `update_pipeline`. */
export function pipelineRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  pages.get<{ Params: ProjectParams; Querystring: typeof PageQuery.static }>(
    '/:namespace/:project/pipelines',
    { config: PAGE, schema: { querystring: PageQuery } },
    async (request, reply) => {
      const { project } = await projectFor(services, request, 'read_pipeline');
      const page = pageNumber(request.query.page);
      const { pipelines, total } = await services.pipelines.list(project, undefined, { offset: (page - 1) * PER_PAGE, limit: PER_PAGE });
      return sendPage(request, reply, `Pipelines · ${project.name}`, pipelinesPage({ project, pipelines, page, perPage: PER_PAGE, total }));
    },
  );

  pages.get<{ Params: PipelineParams }>('/:namespace/:project/pipelines/:id', { config: PAGE }, async (request, reply) => {
    const { project, standing } = await projectFor(services, request, 'read_pipeline');
    const pipeline = await services.pipelines.find(project, recordId(request.params.id));
    const { builds } = await services.builds.listForPipeline(project, pipeline.id, undefined, { offset: 0, limit: BUILDS_LIMIT });
    const view = {
      project,
      pipeline,
      builds: latestTries(builds),
      mayUpdate: can(standing, 'update_pipeline'),
      csrfToken: pageContext(request).csrfToken,
    };
    return sendPage(request, reply, `Pipeline #${pipeline.id} · ${project.name}`, pipelinePage(view));
  });

  for (const action of ['retry', 'cancel'] as const) {
    pages.post<{ Params: PipelineParams }>(
      `/:namespace/:project/pipelines/:id/${action}`,
      { config: PAGE, schema: { body: TokenBody } },
      async (request, reply) => {
        const { project } = await projectFor(services, request, 'update_pipeline');
        const id = recordId(request.params.id);
        if (action === 'retry') await services.pipelines.retry(project, id, request.web.user!);
        else await services.pipelines.cancel(project, id);
        return reply.redirect(pipelinePath(project, id), 303);
      },
    );
  }
}

/** The newest build of each name: a retried build's earlier tries are history, not the pipeline's state. */
export function latestTries(builds: BuildRecord[]): BuildRecord[] {
  const latest = new Map<string, BuildRecord>();
  for (const build of builds) {
    const known = latest.get(build.name);
    if (!known || known.id < build.id) latest.set(build.name, build);
  }
  return [...latest.values()];
}
