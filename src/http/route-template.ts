import type { FastifyInstance, FastifyRequest } from 'fastify';

type RouteOptions = FastifyRequest['routeOptions'];
const kept = Symbol('route options');
type Keeping = FastifyRequest & { [kept]: RouteOptions | null };

/** Gives every request the slot `routeOptionsOf` keeps its route's options in (a decorated shape, not an added property). */
export function keepRouteOptions(app: FastifyInstance): void {
  app.decorateRequest(kept as unknown as string, null);
}

/**
 * The request's route options, read once: Fastify builds `request.routeOptions` anew on every read
 * (a dozen fields and a constraint lookup), and params, authentication, guards, pagination, metrics
 * and the log all ask it.
 */
export function routeOptionsOf(request: FastifyRequest): RouteOptions {
  const keeping = request as Keeping;
  return keeping[kept] ?? (keeping[kept] = request.routeOptions);
}

/** The route template (`/api/v3/projects/:id`), undefined when no route matched. */
export function routeTemplateOf(request: FastifyRequest): string | undefined {
  return request.is404 ? undefined : routeOptionsOf(request).url;
}
