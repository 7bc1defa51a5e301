import type { FastifyInstance, FastifyReply } from 'fastify';
import { PAGE, WebError } from './request';

/**
 * First path segments of the web door's own pages (besides `/admin` and `/profile`, which have
 * their own catch-alls). The router does not fall back from `/users/…` to `/:namespace/:project`,
 * so without these a path under them that names no page would be the API's JSON 404.
 */
export const WEB_PREFIXES = ['users', 'u', 'groups', 'explore', '-'] as const;

/** Every reserved first segment that is the web door's (the others, `api`, `ci`, `oauth`, are the APIs'). */
const WEB_NAMES = new Set<string>([...WEB_PREFIXES, 'admin', 'profile']);

/**
 * The answer of `/:username` or `/:namespace/:project` for a reserved first segment: the web 404
 * page for the web door's own prefixes (`/explore`, `/users/x`), the plain 404 for the other doors'.
 */
export function reservedNotFound(name: string, reply: FastifyReply) {
  if (WEB_NAMES.has(name.toLowerCase())) throw new WebError(404);
  return reply.callNotFound();
}

/** `/users/<anything unknown>`, `/explore/<…>` and the like: the web door's 404 page. */
export function notFoundRoutes(pages: FastifyInstance): void {
  for (const prefix of WEB_PREFIXES) {
    pages.get(`/${prefix}/*`, { config: PAGE }, async () => {
      throw new WebError(404);
    });
  }
}
