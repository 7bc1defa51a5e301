import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { Namespace, presentNamespace } from '../shared/entities/namespace';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { NameString } from '../shared/params';

export function namespacesRoutes(api: Api, { services, presenter }: RouteDeps): void {
  api.get(
    '/namespaces',
    {
      schema: {
        querystring: Type.Object({
          search: Type.Optional(NameString()),
          page: Type.Optional(Type.Any()),
          per_page: Type.Optional(Type.Any()),
        }),
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
}
