import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { routeTemplateOf } from './route-template';

/** Request log lines never carry a token (a user's private token, the metrics token). */
export function requestSummary(request: { method: string; url: string; ip?: string }) {
  return {
    method: request.method,
    url: request.url.replace(/([?&](?:private_)?token=)[^&]*/gi, '$1[redacted]'),
    remoteAddress: request.ip,
  };
}

/**
 * A runner asks for a build every few seconds and sends its trace while one runs: at `info`, one
 * line a second per runner would bury everything else. A build handed out (201) and a build's
 * final state stay at `info`.
 */
function isRunnerPolling(request: FastifyRequest, reply: FastifyReply, route: string | undefined): boolean {
  if (route === '/ci/api/v1/builds/register') return reply.statusCode === 204;
  if (route === '/ci/api/v1/builds/:id/trace.txt') return true;
  // gitlab-runner 1.x also sends the whole trace with state "running" now and then.
  if (route === '/ci/api/v1/builds/:id' && request.method === 'PUT')
    return (request.body as { state?: unknown } | undefined)?.state === 'running';
  return false;
}

/**
 * One `info` line per request (`debug` for a runner's polling), once it is answered: its id (`reqId`,
 * also answered as `X-Request-Id`), method, url, the route it matched (`/api/v3/projects/:id`, none
 * for a 404 of no route), status, response time and, when the caller is known, `userId`
 * (authentication adds it to the request's logger). Fastify's own
 * "incoming request" line and its other per-request notes go to `debug`; errors stay errors.
 */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const route = routeTemplateOf(request);
    const fields = { req: request, route, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else if (isRunnerPolling(request, reply, route)) reply.log.debug(fields, 'request completed');
    else reply.log.info(fields, 'request completed');
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.debug(`Route ${request.method}:${request.url} not found`);
  }

  override streamError(error: Error, _request: FastifyRequest, reply: FastifyReply): void {
    if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE')
      reply.log.debug({ res: reply }, 'stream closed prematurely');
    else reply.log.warn({ err: error }, 'response terminated with an error with headers already sent');
  }
}
