import { PassThrough, pipeline, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { advertisement, appliedUpdates, protocolFor, receivePackProcess, serviceProcess, speaksV2, type GitService, type GitServiceProcess } from '../git/transport';
import { repositoryExists } from '../git/repositories';
import { basicCredentials } from './credentials';
import { FLUSH, pktLine, readPushCommands, refusalReport } from './pkt-line';
import type { GitAction, GitHttpBackend, GitHttpProject } from './types';

export interface GitHttpOptions {
  // The door is generic over the backend's user and project types.
  backend: GitHttpBackend<any, any>;
  /** The realm in `WWW-Authenticate` (default `Forge`). */
  realm?: string;
}

interface RepoParams {
  namespace: string;
  project: string;
}

const NO_CACHE = {
  expires: 'Fri, 01 Jan 1980 00:00:00 GMT',
  pragma: 'no-cache',
  'cache-control': 'no-cache, max-age=0, must-revalidate',
};

const DENIED = {
  read: 'You are not allowed to download code from this project.',
  write: 'You are not allowed to push code to this project.',
};

/**
 * git's smart HTTP protocol under `/:namespace/:project(.git)/…`: ref advertisement, fetch
 * (protocol v0 and v2) and push, streamed both ways. Registered in its own encapsulated context:
 * its body parsers leave git's request bodies unread for git itself.
 */
export async function registerGitHttp(app: FastifyInstance, options: GitHttpOptions): Promise<void> {
  await app.register(async (scope) => gitHttpRoutes(scope, options));
}

async function gitHttpRoutes(app: FastifyInstance, { backend, realm = 'Forge' }: GitHttpOptions): Promise<void> {
  // No body here is parsed (JSON, forms, multipart): git reads its own, and a wrong one is refused (415) unread.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));
  const config = { access: 'public' as const };

  /** git's http-backend answers 415 to a service request of any other content type. */
  const unsupportedMedia = (request: FastifyRequest, reply: FastifyReply, service: GitService) => {
    if (header(request, 'content-type')?.split(';')[0].trim().toLowerCase() === `application/x-git-${service}-request`) return false;
    reply.code(415).type('text/plain').send('Unsupported Media Type\n');
    drained(request, reply);
    return true;
  };

  /** Who is asking and for which project, or an answer already sent (401, 403, 404). */
  const authorize = async (request: FastifyRequest<{ Params: RepoParams }>, reply: FastifyReply, action: GitAction) => {
    const credentials = basicCredentials(request.headers.authorization);
    let user: unknown = null;
    if (credentials === 'malformed') return deny(reply, 401, realm);
    if (credentials) {
      user = (await backend.authenticate(credentials.username, credentials.password)) ?? null;
      if (user === null) return deny(reply, 401, realm);
    }
    const { namespace, project: name } = request.params;
    const project: GitHttpProject | undefined = await backend.resolveProject(namespace, name.endsWith('.git') ? name.slice(0, -4) : name);
    // An anonymous caller is asked to sign in rather than told the project does not exist.
    if (!project) return deny(reply, user === null ? 401 : 404, realm);
    if (action === 'write' && user === null) return deny(reply, 401, realm);
    const access = await backend.access(user, project, action);
    // A project whose repository is not there (yet) has nothing to serve.
    if (access === 'ok') return (await repositoryExists(project.repoPath)) ? { user, project } : deny(reply, 404, realm);
    if (access === 'unauthorized') return deny(reply, 401, realm);
    if (access === 'forbidden') return deny(reply, 403, realm, DENIED[action]);
    return deny(reply, 404, realm);
  };

  app.get<{ Params: RepoParams; Querystring: { service?: string } }>('/:namespace/:project/info/refs', { config }, async (request, reply) => {
    const service = serviceNamed(request.query.service);
    if (!service) return reply.code(403).type('text/plain').send('Unsupported service\n');
    const allowed = await authorize(request, reply, service === 'receive-pack' ? 'write' : 'read');
    if (!allowed) return reply;
    const protocol = protocolFor(service, header(request, 'git-protocol'));
    const refs = await advertisement(allowed.project.repoPath, service, protocol);
    const preamble = speaksV2(protocol) ? [] : [pktLine(`# service=git-${service}\n`), FLUSH];
    return reply
      .headers(NO_CACHE)
      .type(`application/x-git-${service}-advertisement`)
      .send(Buffer.concat([...preamble, refs]));
  });

  app.post<{ Params: RepoParams }>('/:namespace/:project/git-upload-pack', { config }, async (request, reply) => {
    if (unsupportedMedia(request, reply, 'upload-pack')) return reply;
    const allowed = await authorize(request, reply, 'read');
    if (!allowed) return drained(request, reply);
    const protocol = protocolFor('upload-pack', header(request, 'git-protocol'));
    const child = serviceProcess(allowed.project.repoPath, 'upload-pack', protocol);
    return runService(request, reply, child, 'upload-pack', requestBody(request));
  });

  app.post<{ Params: RepoParams }>('/:namespace/:project/git-receive-pack', { config }, async (request, reply) => {
    if (unsupportedMedia(request, reply, 'receive-pack')) return reply;
    const allowed = await authorize(request, reply, 'write');
    if (!allowed) return drained(request, reply);
    const { user, project } = allowed;
    const push = await readPushCommands(requestBody(request));
    if (!push.complete) {
      push.body.resume();
      return reply.code(413).type('text/plain').send('The list of ref updates is too large\n');
    }
    const check = push.updates.length > 0 ? await backend.checkPush(user, project, push.updates) : undefined;
    const rejections = check?.rejections ?? [];
    if (rejections.length > 0) {
      // The client is still sending its pack: read it to the end before answering, as git would.
      await drain(push.body);
      const reasons = new Map(rejections.map((rejection) => [rejection.ref, rejection.message]));
      const report = refusalReport({ capabilities: push.capabilities, updates: push.updates, reasons, messages: rejections.map((r) => r.message) });
      return reply.headers(NO_CACHE).type('application/x-git-receive-pack-result').send(report);
    }
    const child = await receivePackProcess(project.repoPath, check?.fastForwardOnly);
    return runService(request, reply, child, 'receive-pack', push.body, async () => {
      if (push.updates.length === 0) return;
      const applied = await appliedUpdates(project.repoPath, push.updates);
      if (applied.length > 0) await backend.afterPush(user, project, applied);
    });
  });
}

/**
 * Pipes the request into `git <service> --stateless-rpc` and git's answer into the reply. The
 * answer ends only after `afterExit` has run, so a client's push returns once it is recorded.
 */
function runService(
  request: FastifyRequest,
  reply: FastifyReply,
  child: GitServiceProcess,
  service: GitService,
  body: Readable,
  afterExit?: () => Promise<void>,
): FastifyReply {
  const output = new PassThrough();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < 8192) stderr += chunk.toString('utf8');
  });
  pipeline(body, child.stdin, (error) => {
    if (error && child.exitCode === null) child.kill();
  });
  child.stdout.pipe(output, { end: false });
  child.on('error', (error) => output.destroy(error));
  child.on('close', (code) => {
    if (code !== 0) request.log.warn({ service, code, stderr: stderr.trim() }, 'git service failed');
    (afterExit ? afterExit() : Promise.resolve())
      .catch((error) => request.log.error({ err: error }, 'after push failed'))
      .finally(() => output.end());
  });
  // A client gone away stops git.
  reply.raw.on('close', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
  });
  return reply.headers(NO_CACHE).type(`application/x-git-${service}-result`).send(output);
}

/** The request body, gunzipped when the client compressed it (git does for large fetch negotiations). */
function requestBody(request: FastifyRequest): Readable {
  const encoding = header(request, 'content-encoding')?.toLowerCase();
  if (encoding !== 'gzip' && encoding !== 'x-gzip') return request.raw;
  const gunzip = createGunzip();
  pipeline(request.raw, gunzip, () => {});
  return gunzip;
}

function drain(stream: Readable): Promise<void> {
  return new Promise((resolve) => {
    stream.on('end', resolve).on('error', () => resolve()).on('close', () => resolve());
    stream.resume();
  });
}

/** A refusal is sent; the unread body is discarded so the connection stays usable. */
function drained(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  request.raw.resume();
  return reply;
}

function deny(reply: FastifyReply, status: 401 | 403 | 404, realm: string, message?: string): undefined {
  if (status === 401) {
    reply.code(401).header('www-authenticate', `Basic realm="${realm}"`).type('text/plain').send('HTTP Basic: Access denied\n');
  } else {
    reply.code(status).type('text/plain').send(`${message ?? 'Not Found'}\n`);
  }
  return undefined;
}

function serviceNamed(value: string | undefined): GitService | undefined {
  return value === 'git-upload-pack' ? 'upload-pack' : value === 'git-receive-pack' ? 'receive-pack' : undefined;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}
