import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';

export interface OpenApiDocument {
  title: string;
  version: string;
  /** Where the document is served, e.g. `/api/v4/openapi.json`. */
  path: string;
}

/**
 * One OpenAPI document per API version: registered first inside the scope that holds that version's
 * routes, it lists those routes only (sibling scopes have documents of their own). Open to anyone,
 * as the routes it describes say themselves who may call them.
 */
export async function registerOpenApi(scope: FastifyInstance, document: OpenApiDocument, config: { readonly externalUrl: string }) {
  await scope.register(swagger, {
    openapi: {
      info: { title: document.title, version: document.version },
      // The URL is read when shown, not copied now: with PORT=0 the external URL is settled after listening.
      servers: [
        {
          get url() {
            return config.externalUrl;
          },
        },
      ],
    },
  });
  scope.get(document.path, { config: { access: 'public' }, schema: { hide: true } }, async () => scope.swagger());
}
