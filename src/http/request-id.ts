import { randomUUID } from 'node:crypto';
import { AsyncResource } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { openRequestScope } from '../lib/request-context';
import { routeOptionsOf } from './route-template';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route that never changes anything though not a GET (git's fetch): it needs no request scope. */
    changesNothing?: boolean;
  }
}

/** Sent back on every answer, errors included (`http/errors.ts` keeps it when it drops a stream's headers). */
export const REQUEST_ID_HEADER = 'x-request-id';

/** What a proxy or client may hand in as the id: a UUID, a hex or base64 token, `host:counter`; nothing a log reader could trip on. */
const SANE_ID = /^[\w.:@+=/-]{1,128}$/;

/**
 * Fastify's `genReqId`: the caller's `X-Request-Id` when it is sane (a proxy in front has already
 * logged it under that id), a fresh UUID otherwise. Fastify logs it as `reqId` on every line of the request.
 */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SANE_ID.test(given) ? given : randomUUID();
}

const scope = Symbol('request scope');
type Scoped = FastifyRequest & { [scope]: AsyncResource | null };

/** Reads enqueue no jobs: they need no scope (which costs, `lib/request-context.ts`). */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every answer names its request (`X-Request-Id`), and everything a request that may change
 * something does runs in its scope (`lib/request-context.ts`), so that the jobs it enqueues carry
 * its id; the scope closes with the response. As `@fastify/request-context` does: the scope is
 * entered at `onRequest`, and entered again at `preValidation`, since a body is read in the
 * socket's async context, not the request's. Register before every other hook.
 */
export function registerRequestId(app: FastifyInstance): void {
  // In every request's shape from the start: a property added to some requests only makes the read below slow for all.
  app.decorateRequest(scope as unknown as string, null);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    if (READS.has(request.method) || routeOptionsOf(request).config.changesNothing) return done();
    const close = openRequestScope(request.id, () => {
      const resource = new AsyncResource('forge-request');
      (request as Scoped)[scope] = resource;
      resource.runInAsyncScope(done);
    });
    // Answered, or the client gone: either way the response closes.
    reply.raw.once('close', close);
  });
  app.addHook('preValidation', (request, _reply, done) => {
    const resource = (request as Scoped)[scope];
    if (resource) resource.runInAsyncScope(done);
    else done();
  });
}
