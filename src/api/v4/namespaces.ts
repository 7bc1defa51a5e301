import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { Namespace, presentNamespace } from './entities/namespace';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { NameString } from '../shared/params';
import { notFound } from '../../errors';
import { PageQuery } from './paging';

/** Namespaces (GitLab 11's `namespaces.rb`): the caller's own and their groups' (every one for administrators). */
export function namespacesRoutes(api: Api, { services, presenter }: RouteDeps): void {
  api.get(
    '/namespaces',
    {
      schema: {
        querystring: Type.Object({ search: Type.Optional(NameString()), ...PageQuery }),
        response: { 200: Type.Array(Namespace) },
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const result = await services.namespaces.list(request.user!, {
        search: request.query.search,
        offset: page.offset,
        limit: page.limit,
      });
      setPageHeaders(request, reply, presenter.externalUrl, page, result.total);
      return result.namespaces.map(presentNamespace);
    },
  );

  // By id or by (URL-encoded) path; one the caller may not see is not found.
  api.get('/namespaces/:id', { schema: { params: Type.Object({ id: NameString() }), response: { 200: Namespace } } }, async (request) => {
    const namespace = await services.namespaces.find(request.user!, request.params.id);
    if (!namespace) throw notFound('Namespace');
    return presentNamespace(namespace);
  });
}
