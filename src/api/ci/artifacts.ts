import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import type { Api } from '../../http/api';
import type { RunnerApiDeps } from './deps';
import { BuildPayload, presentBuildPayload } from './entities/build';
import { idOf, sendRunnerJson, textOf } from './request';
import { buildCredential } from './tokens';
import { authenticate } from '../../http/tokens';
import { missingArtifactsFile } from '../../services/ci/runners/artifacts';
import type { RunnerJob } from '../../services/ci/runners/payload';
import { ApiError, badRequest, tooLarge } from '../../errors';

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
    const query = request.query as Record<string, unknown>;
    const expireIn = builds.expireInSeconds(textOf(query.expire_in));
    if (!request.isMultipart()) throw missingArtifactsFile();
    // One byte past the limit is enough to know the upload is too large: busboy stops reading there.
    const limits = { fileSize: builds.artifactsLimitBytes + 1, files: 8, fields: 32, parts: 40 };
    let payload: RunnerJob | undefined;
    try {
      for await (const part of request.parts({ limits })) {
        if (part.type === 'field' || part.fieldname !== 'file' || payload !== undefined) {
          await drain(part);
          continue;
        }
        payload = await builds.storeArtifacts(build, { filename: fileName(part.filename), source: part.file, expireInSeconds: expireIn });
      }
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if ((error as { statusCode?: number }).statusCode === 413) throw tooLarge();
      throw badRequest('400 (Bad request) the multipart body is malformed');
    }
    if (payload === undefined) throw missingArtifactsFile();
    return sendRunnerJson(reply, 201, presentBuildPayload(payload));
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

async function drain(part: Multipart): Promise<void> {
  if (part.type === 'file') for await (const _ of part.file) void _;
}

/** The archive's name as the runner sent it (`<artifacts:name>.zip`), without any folder; `artifacts.zip` when blank. */
function fileName(sent: string | undefined): string {
  const base = path.posix.basename((sent ?? '').replace(/\\/g, '/')).replace(/[\r\n"]/g, '');
  return base === '' || base === '.' || base === '..' ? 'artifacts.zip' : base;
}
