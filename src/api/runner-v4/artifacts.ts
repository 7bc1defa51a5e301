import { Type } from '@sinclair/typebox';
import type { Api } from '../../http/api';
import type { RunnerV4Deps } from './deps';
import { JobPayload, presentJob } from './entities/job';
import { drainParts, idOf, receiveArtifacts, receiveFilePart, sendRunnerJson, textOf } from '../shared/runner-requests';
import { jobToken } from './tokens';
import { grapeError } from '../../errors';

const JobPath = Type.Object({ id: Type.String() });
const UploadQuery = Type.Object({
  token: Type.Optional(Type.String()),
  expire_in: Type.Optional(Type.String()),
  artifact_type: Type.Optional(Type.String()),
  artifact_format: Type.Optional(Type.String()),
});
const DownloadQuery = Type.Object({ token: Type.Optional(Type.String()) });

/**
 * A job's artifacts (GitLab's `POST|GET /jobs/:id/artifacts`): the runner uploads its archive as a
 * multipart `file`, streamed into the file store; a later job downloads each dependency's with that
 * dependency's own token. The `archive` (a zip) and the `junit` report (gzip, or raw XML) are
 * kept; the other reports are read and dropped.
 */
export function artifactsRoutes(api: Api, { services }: RunnerV4Deps): void {
  const jobs = services.buildRequests;

  api.post(
    '/jobs/:id/artifacts',
    { config: { ownBody: true }, schema: { params: JobPath, querystring: UploadQuery, response: { 201: JobPayload } } },
    async (request, reply) => {
      const query = request.query;
      const build = await jobs.authorizeJob(idOf(request.params.id), jobToken(request, query), { running: true });
      const type = query.artifact_type ?? 'archive';
      const format = query.artifact_format ?? 'zip';
      if (!['zip', 'gzip', 'raw'].includes(format)) throw grapeError(400, 'artifact_format does not have a valid value');
      if (type === 'archive' && format !== 'zip') throw grapeError(400, 'artifact_format does not have a valid value');
      const expireIn = jobs.expireInSeconds(textOf(query.expire_in));
      if (type === 'junit') {
        if (format === 'zip') throw grapeError(400, 'artifact_format does not have a valid value');
        const job = await receiveFilePart(request, jobs.artifactsLimitBytes, (part) =>
          jobs.storeJunitReport(
            build,
            { format: format === 'gzip' ? 'gzip' : 'raw', source: part.source, expireInSeconds: expireIn },
            { jobNames: true },
          ),
        );
        return sendRunnerJson(reply, 201, presentJob(job));
      }
      if (type !== 'archive') {
        await drainParts(request);
        return sendRunnerJson(reply, 201, presentJob(await jobs.jobOf(build, { jobNames: true })));
      }
      return sendRunnerJson(reply, 201, presentJob(await receiveArtifacts(request, jobs, build, expireIn, { jobNames: true })));
    },
  );

  api.get('/jobs/:id/artifacts', { schema: { params: JobPath, querystring: DownloadQuery } }, async (request, reply) => {
    const job = await jobs.authorizeJob(idOf(request.params.id), jobToken(request, request.query), { running: false });
    const file = await jobs.readArtifacts(job);
    const headers: Record<string, string> = {
      'Content-Type': 'application/octet-stream',
      'Content-Disposition': `attachment; filename=${file.filename}`,
      'Content-Transfer-Encoding': 'binary',
    };
    if (file.size !== undefined) headers['Content-Length'] = String(file.size);
    return reply.headers(headers).send(file.stream);
  });
}
