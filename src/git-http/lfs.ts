import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, apiError } from '../errors';
import { LIMITS } from '../lib/limits';
import type { Project } from '../services/projects/types';
import type { LfsCaller, LfsObjectRequest, LfsService } from '../services/lfs/lfs';
import type { LfsOperation } from '../services/lfs/tokens';
import { basicCredentials } from './credentials';

const LFS_MEDIA_TYPE = 'application/vnd.git-lfs+json';

interface RepoParams {
  namespace: string;
  project: string;
}

interface ObjectParams extends RepoParams {
  oid: string;
  size?: string;
}

/** GitLab 8.12's messages for refused LFS requests. */
const REFUSALS = {
  401: 'Access denied. Check your credentials.',
  403: 'Access forbidden. Check your access level.',
  404: 'Not found.',
  501: 'Git LFS is not enabled on this GitLab server, contact your admin.',
};

/**
 * Git LFS over HTTP beside git's smart HTTP, under the same `/:namespace/:project(.git)/` and the
 * same credentials: the batch API (`info/lfs/objects/batch`) and the basic transfer adapter's
 * object download and upload (`gitlab-lfs/objects/…`, GitLab's paths). Its own encapsulated
 * context: JSON bodies are parsed only for the batch API; object bodies stream into the store.
 * Errors are answered in LFS's JSON (`message`, `documentation_url`) with its media type.
 */
export async function registerGitLfs(
  app: FastifyInstance,
  lfs: LfsService,
  options: { externalUrl: string; realm?: string },
): Promise<void> {
  await app.register(async (scope) => lfsRoutes(scope, lfs, options));
}

// `site` is read at each answer: its external URL is settled once the server listens.
async function lfsRoutes(app: FastifyInstance, lfs: LfsService, site: { externalUrl: string; realm?: string }): Promise<void> {
  const realm = site.realm ?? 'Forge';
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    [LFS_MEDIA_TYPE, 'application/json'],
    { parseAs: 'string', bodyLimit: LIMITS.apiBodyBytes },
    (_request, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(apiError(400, 'The request body is not valid JSON'), undefined);
      }
    },
  );
  // An object upload's body is read by its route, as a stream; other bodies are left unread.
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  const answer = (request: FastifyRequest, reply: FastifyReply, status: number, message: string) => {
    // A refusal sent before the body was read leaves the rest of it on the socket: close after answering.
    if (!request.raw.complete) reply.header('connection', 'close');
    return reply
      .code(status)
      .type(LFS_MEDIA_TYPE)
      .send({ message, documentation_url: `${site.externalUrl}/help` });
  };

  app.setErrorHandler((error: FastifyError, request, reply) => {
    let status = error instanceof ApiError ? error.status : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 413 : (error.statusCode ?? 500);
    let message = error instanceof ApiError ? messageOf(error) : error.message;
    if (status >= 500) {
      // A client that left mid-upload is not the server's failure; nobody reads this answer.
      if (request.raw.errored) request.log.info({ err: error }, 'LFS request abandoned by the client');
      else request.log.error({ err: error }, 'unhandled error');
      [status, message] = [500, 'Internal server error'];
    }
    return answer(request, reply, status, message);
  });

  /** The project and its caller, or undefined once a refusal was sent (401, 403, 404, 501). */
  const authorize = async (request: FastifyRequest<{ Params: RepoParams }>, reply: FastifyReply, operation: LfsOperation) => {
    const refuse = (status: keyof typeof REFUSALS) => {
      if (status === 401) reply.header('www-authenticate', `Basic realm="${realm}"`);
      answer(request, reply, status, REFUSALS[status]);
      return undefined;
    };
    const credentials = basicCredentials(request.headers.authorization);
    if (credentials === 'malformed') return refuse(401);
    let caller: LfsCaller | null = null;
    if (credentials) {
      caller = (await lfs.authenticate(credentials.username, credentials.password)) ?? null;
      if (caller === null) return refuse(401);
    }
    const { namespace, project: name } = request.params;
    const project: Project | undefined = await lfs.findProject(`${namespace}/${name.endsWith('.git') ? name.slice(0, -4) : name}`);
    // As git over HTTP: an anonymous caller is asked to sign in rather than told the project does not exist.
    if (!project) return refuse(caller === null ? 401 : 404);
    const access = await lfs.access(caller, project, operation);
    if (access === 'ok') return project;
    return refuse(access === 'disabled' ? 501 : access === 'unauthorized' ? 401 : access === 'forbidden' ? 403 : 404);
  };

  const config = { access: 'public' as const, ownBody: true };

  app.post<{ Params: RepoParams }>('/:namespace/:project/info/lfs/objects/batch', { config }, async (request, reply) => {
    const body = request.body as { operation?: unknown; objects?: unknown } | undefined;
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw apiError(422, 'The request must be a JSON object with an operation and objects');
    const { operation, objects } = body;
    if (operation !== 'download' && operation !== 'upload') throw apiError(422, 'The operation must be download or upload');
    if (!Array.isArray(objects) || objects.some((object) => typeof object !== 'object' || object === null))
      throw apiError(422, 'The objects must be a list of {oid, size}');
    const project = await authorize(request, reply, operation);
    if (!project) return reply;
    const answered = await lfs.batch(project, operation, objects as LfsObjectRequest[], request.headers.authorization);
    return reply.type(LFS_MEDIA_TYPE).send({ transfer: 'basic', objects: answered });
  });

  app.get<{ Params: ObjectParams }>('/:namespace/:project/gitlab-lfs/objects/:oid', { config }, async (request, reply) => {
    const project = await authorize(request, reply, 'download');
    if (!project) return reply;
    const object = await lfs.open(project, request.params.oid);
    return reply.type('application/octet-stream').header('content-length', object.size).send(object.stream);
  });

  app.put<{ Params: ObjectParams }>('/:namespace/:project/gitlab-lfs/objects/:oid/:size', { config }, async (request, reply) => {
    const project = await authorize(request, reply, 'upload');
    if (!project) return reply;
    const { oid, size } = request.params;
    if (!/^\d{1,15}$/.test(size ?? '')) throw apiError(422, 'Invalid size: it must be a number of bytes');
    const length = request.headers['content-length'];
    // A client that leaves mid-upload errors the request; the store's put fails with it and keeps nothing.
    request.raw.on('error', () => {});
    await lfs.store(project, oid, Number(size), request.raw, length === undefined ? undefined : Number(length));
    return reply.code(200).type(LFS_MEDIA_TYPE).send({ message: 'Content stored' });
  });
}

function messageOf(error: ApiError): string {
  const body = error.body as { message?: unknown } | undefined;
  return typeof body?.message === 'string' ? body.message : String(error.status);
}
