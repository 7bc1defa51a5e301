import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Request log lines never carry a token. */
export function requestSummary(request: { method: string; url: string; ip?: string }) {
  return { method: request.method, url: request.url.replace(/([?&]private_token=)[^&]*/gi, '$1[redacted]'), remoteAddress: request.ip };
}

/**
 * One `info` line per request, once it is answered: method, url, status, response time and, when
 * the caller is known, `userId` (authentication adds it to the request's logger). Fastify's own
 * "incoming request" line and its other per-request notes go to `debug`; errors stay errors.
 */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const fields = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else reply.log.info(fields, 'request completed');
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.debug(`Route ${request.method}:${request.url} not found`);
  }

  override streamError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') reply.log.debug({ res: reply }, 'stream closed prematurely');
    else reply.log.warn({ err: error }, 'response terminated with an error with headers already sent');
  }
}
