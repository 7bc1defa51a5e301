import type { FastifyRequest } from 'fastify';
import type { Api } from '../../http/api';
import type { RunnerApiDeps } from './deps';
import { BuildPayload, presentBuildPayload } from './entities/build';
import { idOf, sendRunnerJson, textOf } from './request';
import { buildCredential } from './tokens';
import { authenticate } from '../../http/tokens';
import { receiveArtifacts } from '../shared/runner-requests';

/** A build's artifacts archive: upload (streamed), download, removal (reference §2.7–2.9). */
export function artifactsRoutes(api: Api, { services }: RunnerApiDeps): void {
  const builds = services.buildRequests;
  const authorized = async (request: FastifyRequest) => {
    const token = await authenticate(buildCredential, request, request.query as Record<string, unknown>);
    return builds.authorize(idOf((request.params as { id: string }).id), token);
  };

  // The body is read here, part by part, so the archive streams into the file store.
  api.post('/builds/:id/artifacts', { config: { ownBody: true }, schema: { response: { 201: BuildPayload } } }, async (request, reply) => {
    const build = await authorized(request);
    builds.checkUploadable(build);
    const expireIn = builds.expireInSeconds(textOf((request.query as Record<string, unknown>).expire_in));
    return sendRunnerJson(reply, 201, presentBuildPayload(await receiveArtifacts(request, builds, build, expireIn)));
  });

  api.get('/builds/:id/artifacts', async (request, reply) => {
    const build = await authorized(request);
    const file = await builds.readArtifacts(build);
    const headers: Record<string, string> = {
      'Content-Type': 'application/octet-stream',
      'Content-Disposition': `attachment; filename=${file.filename}`,
      'Content-Transfer-Encoding': 'binary',
    };
    if (file.size !== undefined) headers['Content-Length'] = String(file.size);
    return reply.headers(headers).send(file.stream);
  });

  api.delete('/builds/:id/artifacts', async (request) => {
    const build = await authorized(request);
    await builds.removeArtifacts(build);
    return true;
  });
}
