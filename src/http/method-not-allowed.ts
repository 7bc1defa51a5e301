import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Not remembered for 405s: a web page's `/:namespace/:project` matches every two-segment path,
     * and would turn the 404 of `POST /api/v3` into a 405.
     */
    noMethodNotAllowed?: boolean;
  }
}

interface KnownPath {
  pattern: RegExp;
  methods: Set<string>;
}

/** `/projects/:id/hooks/*` → a regex matching concrete paths of that route. */
function toPattern(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment === '*' ? '.*' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/**
 * GitLab's router answered a known path asked with an unsupported method 405
 * `{"error":"405 Not Allowed"}` with an `Allow` header, before authentication. Fastify only
 * knows 404, so every route is remembered here and the not-found handler asks.
 */
export function trackRoutes(app: FastifyInstance): (request: FastifyRequest, reply: FastifyReply) => boolean {
  const known = new Map<string, KnownPath>();
  app.addHook('onRoute', (route) => {
    if (route.config?.noMethodNotAllowed) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const entry = known.get(route.url) ?? { pattern: toPattern(route.url), methods: new Set<string>() };
    for (const method of methods) entry.methods.add(method);
    known.set(route.url, entry);
  });
  return (request, reply) => {
    const path = request.url.split('?')[0];
    const allowed = new Set<string>();
    for (const entry of known.values()) if (entry.pattern.test(path)) entry.methods.forEach((m) => allowed.add(m));
    if (allowed.size === 0 || allowed.has(request.method)) return false;
    reply
      .status(405)
      .header('Allow', ['OPTIONS', ...[...allowed].sort()].join(', '))
      .send({ error: '405 Not Allowed' });
    return true;
  };
}
