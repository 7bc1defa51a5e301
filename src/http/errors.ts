import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, apiError, badRequest, grapeError, invalidParam, notFound, notGiven, tooLarge, validationFailed } from '../errors';
import { LIMITS } from '../lib/limits';
import { trackRoutes } from './method-not-allowed';
import { dropRefusedBody } from './refused-body';
import { REQUEST_ID_HEADER } from './request-id';
import { routeOptionsOf } from './route-template';

interface AjvError {
  keyword: string;
  instancePath: string;
  params: { missingProperty?: string; limit?: number };
}

/** Turns every error into GitLab's body; nothing answers 500 for bad input. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    forgetStreamHeaders(reply);
    const apiError = toApiError(error, routeOptionsOf(request).config.grapeParams === true);
    if (!apiError) {
      request.log.error({ err: error }, 'unhandled error');
      return reply.status(500).send({ message: '500 Internal Server Error' });
    }
    if (apiError.status === 304) return reply.status(304).send();
    // An answer given before the body was read (a refused upload, a 413 mid-upload) reads and
    // drops a small rest first, so that the client still sending sees it; a larger rest is left
    // unread and the connection closed, since it would be read as the next request or stall it.
    if (!request.raw.complete && !(await dropRefusedBody(request, LIMITS.refusedBodyBytes))) reply.header('connection', 'close');
    return reply.status(apiError.status).headers(apiError.headers).send(apiError.body);
  });

  const answeredMethodNotAllowed = trackRoutes(app);
  app.setNotFoundHandler((request, reply) => {
    if (answeredMethodNotAllowed(request, reply)) return;
    reply.status(404).send({ message: '404 Not Found' });
  });
}

/**
 * An answer streamed from a source that fails before its first byte (git refusing to archive) is
 * answered as an error, in GitLab's JSON: Fastify has already copied the route's headers onto the
 * raw response, where the stream's `Content-Type` made it refuse the JSON body (and answer its own
 * 500) and its `Content-Disposition` would name the error a download. None of them describes the
 * error answer. (A source that fails after its first byte cannot be answered any more: Fastify
 * destroys the socket, so the client sees an unfinished body, never a complete-looking short one.)
 * The request's id is kept: it describes the answer, whatever it is.
 */
function forgetStreamHeaders(reply: FastifyReply): void {
  if (reply.raw.headersSent) return;
  for (const name of reply.raw.getHeaderNames()) {
    if (name === REQUEST_ID_HEADER) continue;
    reply.raw.removeHeader(name);
    reply.removeHeader(name);
  }
}

/**
 * Router options for the server: errors the router raises before any route or hook runs get
 * GitLab's shapes too. A malformed percent-encoding is a bad request; a path parameter too long
 * to name anything (and the async constraints Forge does not use) match no route: 404.
 */
export const routerErrorOptions = {
  routerOptions: { maxParamLength: LIMITS.pathParam },
  frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
    const apiError = error.code === 'FST_ERR_BAD_URL' ? badRequest('400 (Bad request) the URL is malformed') : notFound();
    // No hook runs for these: the request id is sent here.
    reply.status(apiError.status).header(REQUEST_ID_HEADER, request.id).send(apiError.body);
  },
};

/**
 * `grapeParams`: the route's parameters were Grape-declared in 8.12 (`config.grapeParams`, see
 * `http/params.ts`), so a missing or mistyped one answers Grape's `{"error": …}`; otherwise the
 * first missing one of the schema's `required`, in its order, is `required_attributes!`'s message.
 */
function toApiError(error: FastifyError, grapeParams: boolean): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error.validation) {
    // A malformed path parameter (`/users/ASDF`) matches no route in GitLab.
    if (error.validationContext === 'params') return notFound();
    const first = error.validation[0] as AjvError;
    const missing = first.keyword === 'required' ? first.params.missingProperty : undefined;
    const field = missing ?? first.instancePath.replace(/^\//, '').split('/')[0];
    // A length past `LIMITS` is GitLab's length validation, whichever style the route's other errors take.
    if (first.keyword === 'maxLength') return validationFailed({ [field]: [`is too long (maximum is ${first.params.limit} characters)`] });
    if (grapeParams) {
      return grapeError(400, `${field} ${missing ? 'is missing' : 'is invalid'}`);
    }
    return missing ? notGiven(missing) : invalidParam(field);
  }
  // PostgreSQL refuses numbers beyond a column's range (SQLite stores them): that is bad input.
  if ((error as { code?: string }).code === '22003') return badRequest('400 (Bad request) a number is out of range');
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return tooLarge();
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return apiError(status, `${status} ${error.message}`);
  }
  return undefined;
}
