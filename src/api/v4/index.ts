import type { Api, RouteDeps } from '../shared/types';
import { LIMITS } from '../../lib/limits';
import { versionRoutes } from './version';
import { issuesRoutes } from './issues';
import { mergeRequestsRoutes } from './merge-requests';
import { mergeRequestGitRoutes } from './merge-request-git';
import { notesRoutes } from './notes';
import { awardEmojiRoutes } from './award-emoji';
import { labelsRoutes } from './labels';
import { milestonesRoutes } from './milestones';
import { todosRoutes } from './todos';
import { projectSnippetsRoutes } from './project-snippets';

export { API_V4_VERSION } from './version';

/** Every resource of the consumer API v4, mounted under /api/v4 beside v3, over the same services. */
export async function registerApiV4(api: Api, deps: RouteDeps): Promise<void> {
  // The server's own limit is sized for git and artifact uploads; an API body is parameters only.
  api.addHook('onRoute', (route) => {
    route.bodyLimit = Math.min(route.bodyLimit ?? LIMITS.apiBodyBytes, LIMITS.apiBodyBytes);
  });
  // GitLab answers `application/json` without a charset, and python-gitlab (3.12) decodes nothing else.
  api.addHook('onSend', async (_request, reply, payload) => {
    if (reply.getHeader('content-type') === 'application/json; charset=utf-8') reply.header('content-type', 'application/json');
    return payload;
  });
  versionRoutes(api, deps);
  issuesRoutes(api, deps);
  mergeRequestsRoutes(api, deps);
  mergeRequestGitRoutes(api, deps);
  notesRoutes(api, deps);
  awardEmojiRoutes(api, deps);
  labelsRoutes(api, deps);
  milestonesRoutes(api, deps);
  todosRoutes(api, deps);
  projectSnippetsRoutes(api, deps);
}
