import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services/index';
import { SEARCH_SCOPES, type SearchScope, type SearchWhere } from '../services/search/types';
import { MAX_SEARCH_TERM, searchTerm } from '../services/search/terms';
import { PAGE, sendPage, WebError } from './request';
import { pageNumber } from './issue-routes';
import { searchPage } from './pages/search';

export interface SearchRouteDeps {
  services: Services;
}

const PER_PAGE = 20;

const SearchQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: MAX_SEARCH_TERM })),
  scope: Type.Optional(Type.String({ maxLength: 32 })),
  project_id: Type.Optional(Type.String({ maxLength: 32 })),
  page: Type.Optional(Type.String({ maxLength: 32 })),
});

const isScope = (value: string | undefined): value is SearchScope => SEARCH_SCOPES.includes(value as SearchScope);

/**
 * `/search?search=…&scope=…&project_id=…`, GitLab 8.12's search page: across the projects the caller
 * reads, or in one (a project they may not read is the same 404 as a missing one). Without a term
 * it is the form alone.
 */
export function searchRoutes(pages: FastifyInstance, { services }: SearchRouteDeps): void {
  pages.get<{ Querystring: Static<typeof SearchQuery> }>(
    '/search',
    { config: PAGE, schema: { querystring: SearchQuery } },
    async (request, reply) => {
      const { query } = request;
      const caller = request.web.user;
      const where: SearchWhere = { caller };
      if (query.project_id !== undefined && query.project_id !== '') {
        if (!/^\d{1,9}$/.test(query.project_id)) throw new WebError(404);
        where.within = await services.projects.findReadable(Number(query.project_id), caller);
      }
      // GitLab 8.12's defaults: code within a project, projects across them.
      const scope =
        isScope(query.scope) && !(where.within && query.scope === 'projects') ? query.scope : where.within ? 'blobs' : 'projects';
      const term = searchTerm(query.search);
      const page = pageNumber(query.page);
      const results =
        term === '' ? undefined : await services.search.search(scope, where, term, { offset: (page - 1) * PER_PAGE, limit: PER_PAGE });
      const body = searchPage({ term, scope, project: where.within?.project, results, page, perPage: PER_PAGE });
      return sendPage(request, reply, term === '' ? 'Search' : `${term} · Search`, body);
    },
  );
}
