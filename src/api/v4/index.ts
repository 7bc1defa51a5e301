import type { Api, RouteDeps } from '../shared/types';
import { LIMITS } from '../../lib/limits';
import { versionRoutes } from './version';
import { jobsRoutes } from './jobs';
import { pipelinesRoutes } from './pipelines';
import { testReportsRoutes } from './test-reports';
import { triggersRoutes } from './triggers';
import { variablesRoutes } from './variables';
import { environmentsRoutes } from './environments';
import { deploymentsRoutes } from './deployments';
import { runnersRoutes } from './runners';
import { lintRoutes } from './lint';
import { projectsRoutes } from './projects';
import { groupsRoutes } from './groups';
import { membersRoutes } from './members';
import { accessRequestsRoutes } from './access-requests';
import { projectHooksRoutes } from './project-hooks';
import { eventsRoutes } from './events';
import { branchesRoutes } from './branches';
import { commitsRoutes } from './commits';
import { filesRoutes } from './files';
import { protectedBranchesRoutes } from './protected-branches';
import { repositoryRoutes } from './repository';
import { tagsRoutes } from './tags';
import { issuesRoutes } from './issues';
import { timeTrackingRoutes } from './time-tracking';
import { mergeRequestsRoutes } from './merge-requests';
import { mergeRequestGitRoutes } from './merge-request-git';
import { notesRoutes } from './notes';
import { discussionsRoutes } from './discussions';
import { awardEmojiRoutes } from './award-emoji';
import { labelsRoutes } from './labels';
import { milestonesRoutes } from './milestones';
import { todosRoutes } from './todos';
import { projectSnippetsRoutes } from './project-snippets';
import { usersRoutes } from './users';
import { keysRoutes } from './keys';
import { emailsRoutes } from './emails';
import { deployKeysRoutes } from './deploy-keys';
import { settingsRoutes } from './settings';
import { broadcastMessagesRoutes } from './broadcast-messages';
import { systemHooksRoutes } from './system-hooks';
import { templatesRoutes } from './templates';
import { namespacesRoutes } from './namespaces';
import { personalAccessTokensRoutes } from './personal-access-tokens';
import { applicationsRoutes } from './applications';
import { notificationSettingsRoutes } from './notification-settings';

export { API_V4_VERSION } from './version';

/** Every resource of the consumer API v4, mounted under /api/v4 beside v3, over the same services. */
export async function registerApiV4(api: Api, deps: RouteDeps): Promise<void> {
  // The server's own limit is sized for git and artifact uploads; an API body is parameters only.
  api.addHook('onRoute', (route) => {
    route.bodyLimit = Math.min(route.bodyLimit ?? LIMITS.apiBodyBytes, LIMITS.apiBodyBytes);
    // Every v4 parameter is Grape-declared: a missing or mistyped one answers `{"error":"x is missing"}` (`http/errors.ts`).
    route.config = { ...route.config, grapeParams: true };
  });
  // GitLab answers `application/json` without a charset, and python-gitlab (3.12) decodes nothing else.
  // A callback, not an async hook: every v4 answer passes here, and a promise per answer shows.
  api.addHook('onSend', (_request, reply, payload, done) => {
    if (reply.getHeader('content-type') === 'application/json; charset=utf-8') reply.header('content-type', 'application/json');
    done(null, payload);
  });
  versionRoutes(api, deps);
  // CI, as its consumers see it (the runners' own protocol is elsewhere).
  jobsRoutes(api, deps);
  pipelinesRoutes(api, deps);
  testReportsRoutes(api, deps);
  triggersRoutes(api, deps);
  variablesRoutes(api, deps);
  environmentsRoutes(api, deps);
  deploymentsRoutes(api, deps);
  runnersRoutes(api, deps);
  lintRoutes(api, deps);
  projectsRoutes(api, deps);
  groupsRoutes(api, deps);
  membersRoutes(api, deps);
  accessRequestsRoutes(api, deps);
  projectHooksRoutes(api, deps);
  eventsRoutes(api, deps);
  // The repository: trees, blobs, files, commits, branches and their protection, tags.
  repositoryRoutes(api, deps);
  filesRoutes(api, deps);
  commitsRoutes(api, deps);
  branchesRoutes(api, deps);
  protectedBranchesRoutes(api, deps);
  tagsRoutes(api, deps);
  issuesRoutes(api, deps);
  mergeRequestsRoutes(api, deps);
  timeTrackingRoutes(api, deps);
  mergeRequestGitRoutes(api, deps);
  notesRoutes(api, deps);
  discussionsRoutes(api, deps);
  awardEmojiRoutes(api, deps);
  labelsRoutes(api, deps);
  milestonesRoutes(api, deps);
  todosRoutes(api, deps);
  projectSnippetsRoutes(api, deps);
  // People and access: users, their keys and e-mails, tokens, OAuth applications, instance administration.
  usersRoutes(api, deps);
  keysRoutes(api, deps);
  emailsRoutes(api, deps);
  deployKeysRoutes(api, deps);
  personalAccessTokensRoutes(api, deps);
  applicationsRoutes(api, deps);
  settingsRoutes(api, deps);
  broadcastMessagesRoutes(api, deps);
  systemHooksRoutes(api, deps);
  templatesRoutes(api, deps);
  namespacesRoutes(api, deps);
  notificationSettingsRoutes(api, deps);
}
