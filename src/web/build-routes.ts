import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { can } from '../services/policy';
import type { Services } from '../services/index';
import type { Project } from '../services/projects/types';
import type { User } from '../services/users/users';
import type { BuildRecord } from '../services/ci/types';
import type { StoredFile } from '../services/ci/builds/builds';
import { hasArtifacts, isRetryable } from '../services/ci/builds/rules';
import { buildTestSummary } from '../services/ci/test-reports/summary';
import { PAGE, pageContext, sendPage } from './request';
import { projectFor, type ProjectParams } from './project-scope';
import { recordId } from './pipeline-routes';
import { buildPath } from './ci-paths';
import { tracePart } from './build-trace';
import { buildPage } from './pages/ci/build';

type BuildParams = ProjectParams & { id: string };
const TokenBody = Type.Object({ authenticity_token: Type.Optional(Type.String({ maxLength: 255 })) });
const TraceQuery = Type.Object({ offset: Type.Optional(Type.String({ maxLength: 20 })) });

const ACTIVE = new Set(['created', 'pending', 'running']);
/** A build in these states may still print: its trace is live. */
const isComplete = (build: BuildRecord) => !ACTIVE.has(build.status);

/**
 * A build's page (GitLab 8.12's `…/builds/:id`), its trace as a live part (`trace.json`) and as
 * text, its artifacts, and cancel, retry and play. Read as the API's `read_build`, changed as its
 * `update_build`; the trace is the API's, masked the same way (`BuildTraces.read`).
 */
export function buildRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  const { builds, buildActions } = services;

  const findBuild = async (request: FastifyRequest<{ Params: BuildParams }>, ability: 'read_build' | 'update_build') => {
    const { project, standing } = await projectFor(services, request, ability);
    return { project, standing, build: await builds.find(project, recordId(request.params.id)) };
  };
  const trace = async (build: BuildRecord) => (await builds.traces.read(build)) ?? Buffer.alloc(0);

  pages.get<{ Params: BuildParams }>('/:namespace/:project/builds/:id', { config: PAGE }, async (request, reply) => {
    const { project, standing, build } = await findBuild(request, 'read_build');
    const [[details], text] = await Promise.all([builds.details(project, [build]), trace(build)]);
    const mayUpdate = can(standing, 'update_build');
    const complete = isComplete(build);
    const view = {
      project,
      details,
      trace: tracePart(text, 0, complete),
      complete,
      actions: {
        cancel: mayUpdate && ACTIVE.has(build.status),
        retry: mayUpdate && isRetryable(build),
        play: mayUpdate && build.when === 'manual' && build.status === 'skipped' && build.commands !== '',
      },
      artifacts: hasArtifacts(build),
      tests: buildTestSummary(build),
      csrfToken: pageContext(request).csrfToken,
    };
    return sendPage(request, reply, `${build.name} (#${build.id}) · ${project.name}`, buildPage(view), 200, { live: true });
  });

  // What the page's script asks while the build runs: the part of the trace after `offset` (bytes).
  pages.get<{ Params: BuildParams; Querystring: typeof TraceQuery.static }>(
    '/:namespace/:project/builds/:id/trace.json',
    { config: PAGE, schema: { querystring: TraceQuery } },
    async (request, reply) => {
      const { build } = await findBuild(request, 'read_build');
      const complete = isComplete(build);
      const offset = /^\d{1,15}$/.test(request.query.offset ?? '') ? Number(request.query.offset) : 0;
      const part = tracePart(await trace(build), offset, complete);
      return reply
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send({ id: build.id, status: build.status, complete, offset: part.offset, append: part.append, html: part.html.value });
    },
  );

  pages.get<{ Params: BuildParams }>('/:namespace/:project/builds/:id/raw', { config: PAGE }, async (request, reply) => {
    const { build } = await findBuild(request, 'read_build');
    return reply
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .type('text/plain; charset=utf-8')
      .send(await trace(build));
  });

  pages.get<{ Params: BuildParams }>('/:namespace/:project/builds/:id/artifacts/download', { config: PAGE }, async (request, reply) => {
    const { project } = await projectFor(services, request, 'read_build');
    return sendDownload(reply, await builds.artifacts(project, recordId(request.params.id)));
  });

  // Each answers the build to show next: the same one, or the new try a retry (or a late play) made.
  const actions = {
    cancel: (project: Project, build: BuildRecord) => buildActions.cancel(project, build.id),
    retry: (project: Project, build: BuildRecord, user: User) => buildActions.retry(project, build.id, user),
    play: (project: Project, build: BuildRecord, user: User) => buildActions.play(project, build.id, user),
  };
  for (const [name, perform] of Object.entries(actions)) {
    pages.post<{ Params: BuildParams }>(
      `/:namespace/:project/builds/:id/${name}`,
      { config: PAGE, schema: { body: TokenBody } },
      async (request, reply) => {
        const { project, build } = await findBuild(request, 'update_build');
        // `update_build` is a developer's: the caller is signed in.
        const shown = await perform(project, build, request.web.user!);
        return reply.redirect(buildPath(project, shown.id), 303);
      },
    );
  }

  // Later GitLab's job addresses (the API v4's `web_url`, `/-/jobs/:id`) open the same page.
  const toBuild = async (request: FastifyRequest<{ Params: BuildParams }>, reply: FastifyReply) => {
    const { namespace, project, id } = request.params;
    return reply.redirect(`/${encodeURIComponent(namespace)}/${encodeURIComponent(project)}/builds/${encodeURIComponent(id)}`, 301);
  };
  pages.get<{ Params: BuildParams }>('/:namespace/:project/-/jobs/:id', { config: PAGE }, toBuild);
  pages.get<{ Params: BuildParams }>('/:namespace/:project/jobs/:id', { config: PAGE }, toBuild);
}

/** A stored file as a download, never shown inline (an archive a build made). */
function sendDownload(reply: FastifyReply, file: StoredFile) {
  const name = file.fileName.replace(/[^\w.-]/g, '_') || 'artifacts.zip';
  return reply
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('content-length', String(file.size))
    .type('application/octet-stream')
    .send(file.body);
}
