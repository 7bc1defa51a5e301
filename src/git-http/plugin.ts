import { PassThrough, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  advertisement,
  appliedUpdates,
  protocolFor,
  receivePackProcess,
  serviceProcess,
  speaksV2,
  type GitService,
  type GitServiceProcess,
} from '../git/transport';
import { repositoryExists } from '../git/repositories';
import { basicCredentials } from './credentials';
import { FLUSH, pktLine, readPushCommands, refusalReport, startsAsPktLine } from '../git/pkt-line';
import { LIMITS } from '../lib/limits';
import type { GitAction, GitHttpBackend, GitHttpProject } from './types';

export interface GitHttpOptions {
  // The door is generic over the backend's user and project types.
  // biome-ignore lint/suspicious/noExplicitAny: the plugin is generic over any backend's project and caller types
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
  // A fetch changes nothing: it needs no request scope (http/request-id.ts) for its whole length.
  const fetchConfig = { ...config, changesNothing: true };

  /** git's http-backend answers 415 to a service request of any other content type. */
  const unsupportedMedia = (request: FastifyRequest, reply: FastifyReply, service: GitService) => {
    if (header(request, 'content-type')?.split(';')[0].trim().toLowerCase() === `application/x-git-${service}-request`) return false;
    refuse(request, reply, 415, 'Unsupported Media Type');
    return true;
  };

  /** Who is asking and for which project, or an answer already sent (401, 403, 404). */
  const authorize = async (request: FastifyRequest<{ Params: RepoParams }>, reply: FastifyReply, action: GitAction) => {
    const credentials = basicCredentials(request.headers.authorization);
    let user: unknown = null;
    if (credentials === 'malformed') return deny(request, reply, 401, realm);
    if (credentials) {
      user = (await backend.authenticate(credentials.username, credentials.password)) ?? null;
      if (user === null) return deny(request, reply, 401, realm);
    }
    const { namespace, project: name } = request.params;
    const project: GitHttpProject | undefined = await backend.resolveProject(namespace, name.endsWith('.git') ? name.slice(0, -4) : name);
    // An anonymous caller is asked to sign in rather than told the project does not exist.
    if (!project) return deny(request, reply, user === null ? 401 : 404, realm);
    if (action === 'write' && user === null) return deny(request, reply, 401, realm);
    const access = await backend.access(user, project, action);
    // A project whose repository is not there (yet) has nothing to serve.
    if (access === 'ok') return (await repositoryExists(project.repoPath)) ? { user, project } : deny(request, reply, 404, realm);
    if (access === 'unauthorized') return deny(request, reply, 401, realm);
    if (access === 'forbidden') return deny(request, reply, 403, realm, DENIED[action]);
    return deny(request, reply, 404, realm);
  };

  app.get<{ Params: RepoParams; Querystring: { service?: string } }>(
    '/:namespace/:project/info/refs',
    { config },
    async (request, reply) => {
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
    },
  );

  app.post<{ Params: RepoParams }>('/:namespace/:project/git-upload-pack', { config: fetchConfig }, async (request, reply) => {
    if (unsupportedMedia(request, reply, 'upload-pack')) return reply;
    const allowed = await authorize(request, reply, 'read');
    if (!allowed) return reply;
    const body = requestBody(request);
    const framing = await startsAsPktLine(body).catch((error: Error) => error);
    if (framing !== true) return refuseBody(request, reply, framing);
    const protocol = protocolFor('upload-pack', header(request, 'git-protocol'));
    const child = serviceProcess(allowed.project.repoPath, 'upload-pack', protocol);
    return runService(request, reply, child, 'upload-pack', body);
  });

  app.post<{ Params: RepoParams }>('/:namespace/:project/git-receive-pack', { config }, async (request, reply) => {
    if (unsupportedMedia(request, reply, 'receive-pack')) return reply;
    const allowed = await authorize(request, reply, 'write');
    if (!allowed) return reply;
    const { user, project } = allowed;
    const push = await readPushCommands(requestBody(request)).catch((error: Error) => error);
    if (push instanceof Error || push.malformed) return refuseBody(request, reply, push instanceof Error ? push : false);
    if (!push.complete) return refuse(request, reply, 413, 'The list of ref updates is too large');
    const check = push.updates.length > 0 ? await backend.checkPush(user, project, push.updates) : undefined;
    const rejections = check?.rejections ?? [];
    if (rejections.length > 0) {
      // The client is still sending its pack: read it to the end before answering, as git would.
      await drain(push.body);
      const reasons = new Map(rejections.map((rejection) => [rejection.ref, rejection.message]));
      const report = refusalReport({
        capabilities: push.capabilities,
        updates: push.updates,
        reasons,
        messages: rejections.map((r) => r.message),
      });
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
 * A request body git stops reading before its end (it gave up on garbage, or never started) is
 * read away so that the connection can carry the next request, but only when its Content-Length
 * says it is small (`LIMITS.gitUnreadBodyBytes`): git sends bodies up to its `http.postBuffer`
 * (1 MiB) whole, with a length, and larger ones chunked. A larger or unknown rest closes the
 * connection after the answer instead, as Go's net/http (under GitLab Workhorse) does past
 * 256 KiB: nobody reads a push that failed to its end.
 */
const UNREAD_BODY_KEPT = LIMITS.gitUnreadBodyBytes;

/** The reasons of a 400: a body neither git nor gunzip could read a request from. */
const BAD_GZIP = 'The request body is not valid gzip';
const BAD_PKT_LINE = 'The request body is not in git pkt-line format';

/** Errors of the gunzip stream of a compressed request body: the client's fault (400), not ours. */
const gzipErrors = new WeakSet<Error>();

/**
 * Pipes the request into `git <service> --stateless-rpc` and git's answer into the reply. The
 * answer ends only after `afterExit` has run, so a client's push returns once it is recorded.
 * Its status is settled by git's first byte: a git that exits having said nothing (because the
 * body was not valid gzip, say) can still be answered with a 400 and a connection that holds.
 */
async function runService(
  request: FastifyRequest,
  reply: FastifyReply,
  child: GitServiceProcess,
  service: GitService,
  body: Readable,
  afterExit?: () => Promise<void>,
): Promise<FastifyReply> {
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < 8192) stderr += chunk.toString('utf8');
  });
  let spawnError: Error | undefined;
  child.on('error', (error) => (spawnError = error));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  // git stops reading once it is done or gives up; the EPIPE of later writes says nothing its exit does not.
  child.stdin.on('error', () => {});
  // Not pipeline(): on git's early exit it would destroy the request, and with it the socket and the answer.
  let bodyError: Error | undefined;
  body.on('error', (error) => {
    bodyError = error;
    stop(child);
  });
  body.pipe(child.stdin);
  // A client gone away, mid-upload or mid-answer, stops git: nobody will read what it says. The
  // socket may be gone already (the client left while the push was checked).
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) stop(child);
  });
  if (request.raw.socket.destroyed) stop(child);

  const output = new PassThrough();
  child.stdout.pipe(output, { end: false });
  const spoke = new Promise<boolean>((resolve) => child.stdout.once('data', () => resolve(true)));
  const exitedFirst = await Promise.race([spoke.then(() => false), exited.then(() => true)]);

  const finish = async (code: number | null) => {
    if (code !== 0) request.log.warn({ service, code, stderr: stderr.trim() }, 'git service failed');
    await (afterExit ? afterExit() : Promise.resolve()).catch((error) => request.log.error({ err: error }, 'after push failed'));
  };

  if (exitedFirst) {
    await finish(await exited);
    if (spawnError) throw spawnError;
    if (bodyError && gzipErrors.has(bodyError)) return refuse(request, reply, 400, BAD_GZIP);
    // An empty answer with 200, as git's http-backend gives when git dies on a request.
    leaveBody(request, reply);
    return reply.headers(NO_CACHE).type(`application/x-git-${service}-result`).send(Buffer.alloc(0));
  }
  child.on('error', (error) => output.destroy(error));
  void exited.then(async (code) => {
    await finish(code);
    leaveBody(request, reply);
    // Ended, not aborted, even when git failed: git's answer frames itself (pkt-lines, flush
    // packets, a pack with its checksum), so its client sees a cut-off answer as failed, and an
    // `ERR` line git wrote before exiting (`not our ref`) must still reach it. Other streamed
    // answers are cut off by destroying the socket (see `http/errors.ts`).
    output.end();
  });
  return reply.headers(NO_CACHE).type(`application/x-git-${service}-result`).send(output);
}

function stop(child: GitServiceProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill();
}

/** The request body, gunzipped when the client compressed it (git does for large fetch negotiations). */
function requestBody(request: FastifyRequest): Readable {
  // A client that leaves mid-upload errors the request; git's exit and the socket's close tell the rest.
  request.raw.on('error', () => {});
  const encoding = header(request, 'content-encoding')?.toLowerCase();
  if (encoding !== 'gzip' && encoding !== 'x-gzip') return request.raw;
  const gunzip = createGunzip();
  // Not pipeline(): a body that is not gzip is answered (400), which needs the request and its socket.
  gunzip.on('error', (error) => gzipErrors.add(error));
  // pipe() passes no error on: without this, a client leaving mid-upload would leave gunzip waiting forever.
  request.raw.on('error', (error) => gunzip.destroy(error));
  request.raw.pipe(gunzip);
  return gunzip;
}

/**
 * Called before (or, once git has begun to answer, after) an answer that leaves the request
 * body unread: see UNREAD_BODY_KEPT.
 */
function leaveBody(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw;
  if (raw.readableEnded || raw.destroyed) return;
  // Nothing downstream (gunzip, git) will read any more of it.
  raw.unpipe();
  raw.resume();
  const length = Number(header(request, 'content-length'));
  if (raw.complete || (Number.isSafeInteger(length) && length <= UNREAD_BODY_KEPT)) return;
  if (!reply.raw.headersSent) {
    // Node closes the connection after an answer that says so.
    reply.header('connection', 'close');
  } else if (reply.raw.writableFinished) {
    raw.socket.destroy();
  } else {
    reply.raw.once('finish', () => raw.socket.destroy());
  }
}

/** A plain-text refusal; the request body is left as leaveBody says. */
function refuse(request: FastifyRequest, reply: FastifyReply, status: number, message: string): FastifyReply {
  leaveBody(request, reply);
  return reply.code(status).type('text/plain').send(`${message}\n`);
}

/** A body that is not gzip (`error` from the gunzip stream) or not pkt-lines (`false`) is the client's fault. */
function refuseBody(request: FastifyRequest, reply: FastifyReply, problem: Error | false): FastifyReply {
  if (problem !== false && !gzipErrors.has(problem)) throw problem;
  return refuse(request, reply, 400, problem === false ? BAD_PKT_LINE : BAD_GZIP);
}

function drain(stream: Readable): Promise<void> {
  return new Promise((resolve) => {
    stream
      .on('end', resolve)
      .on('error', () => resolve())
      .on('close', () => resolve());
    stream.resume();
  });
}

function deny(request: FastifyRequest, reply: FastifyReply, status: 401 | 403 | 404, realm: string, message?: string): undefined {
  if (status === 401) reply.header('www-authenticate', `Basic realm="${realm}"`);
  refuse(request, reply, status, status === 401 ? 'HTTP Basic: Access denied' : (message ?? 'Not Found'));
  return undefined;
}

function serviceNamed(value: string | undefined): GitService | undefined {
  return value === 'git-upload-pack' ? 'upload-pack' : value === 'git-receive-pack' ? 'receive-pack' : undefined;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}
