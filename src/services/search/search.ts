import type { ServiceContext } from '../context';
import type { IssuesService } from '../issues/issues';
import type { MergeRequestsService } from '../merge-requests/merge-requests';
import type { ProjectsService } from '../projects/projects';
import type { RepositoryReadsService } from '../repository/reads';
import { can } from '../policy';
import { ANONYMOUS_READER } from '../policy-reads';
import { codeSearchProjects } from './queries';
import { CODE_SEARCH_LIMITS, searchCode } from './code';
import type { SearchPage, SearchResults, SearchScope, SearchWhere } from './types';

export interface SearchDeps {
  projects: ProjectsService;
  issues: IssuesService;
  mergeRequests: MergeRequestsService;
  repositoryReads: RepositoryReadsService;
}

/**
 * GitLab 8.12's search (`SearchService`): projects, issues, merge requests and code, across the
 * projects the caller reads or in one of them, each by the same rule as the API's lists: issues
 * as `GET /issues` (a confidential one only for those who may read it), merge requests as
 * `GET /merge_requests` (a private project's to reporters and up), code where `download_code`
 * holds. Lists are searched by their services; this service only picks which, and where.
 */
export class SearchService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly deps: SearchDeps,
  ) {}

  /** One page of what `term` (already `searchTerm`ed, not empty) finds in `scope`. */
  async search(scope: SearchScope, where: SearchWhere, term: string, page: SearchPage): Promise<SearchResults> {
    switch (scope) {
      case 'projects':
        return { scope, ...(await this.projects(where, term, page)) };
      case 'issues':
        return { scope, ...(await this.issues(where, term, page)) };
      case 'merge_requests':
        return { scope, ...(await this.mergeRequests(where, term, page)) };
      case 'blobs':
        return { scope, ...(await this.code(where, term, page)) };
    }
  }

  private projects({ caller }: SearchWhere, term: string, page: SearchPage) {
    return this.deps.projects.list(caller, {
      scope: 'visible',
      search: term,
      orderBy: 'last_activity_at',
      sort: 'desc',
      ...page,
    });
  }

  private async issues({ caller, within }: SearchWhere, term: string, page: SearchPage) {
    const filters = { state: 'all', search: term, orderBy: 'updated_at', sort: 'desc' } as const;
    if (!within) return this.deps.issues.listReadable(caller ?? ANONYMOUS_READER, filters, page);
    if (!can(within.standing, 'read_issue')) return { issues: [], total: 0 };
    return this.deps.issues.listForProject(within.project, within.standing, filters, page);
  }

  private async mergeRequests({ caller, within }: SearchWhere, term: string, page: SearchPage) {
    const filters = { state: 'all', search: term, orderBy: 'updated_at', sort: 'desc' } as const;
    if (!within) return this.deps.mergeRequests.listReadable(caller ?? ANONYMOUS_READER, filters, page);
    if (!can(within.standing, 'read_merge_request')) return { mergeRequests: [], total: 0 };
    return this.deps.mergeRequests.list(within.project, within.standing, filters, page);
  }

  /** Every page runs the bounded search again and shows its part of the matches: nothing is kept between pages. */
  private async code({ caller, within }: SearchWhere, term: string, page: SearchPage) {
    let projects = within ? [within.project] : [];
    if (within && !can(within.standing, 'download_code')) projects = [];
    if (!within) {
      const rows = await codeSearchProjects(this.ctx.db, caller ?? ANONYMOUS_READER, CODE_SEARCH_LIMITS.projects);
      projects = await this.deps.projects.attachNamespaces(rows);
    }
    const { matches, truncated } = await searchCode(this.ctx, this.deps.repositoryReads, projects, term);
    return { matches: matches.slice(page.offset, page.offset + page.limit), total: matches.length, truncated };
  }
}
