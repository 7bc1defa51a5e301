import type { Api, RouteDeps } from './types';
import { sessionRoutes } from './session';
import { usersRoutes } from './users';
import { templatesRoutes } from './templates';
import { systemHooksRoutes } from './system-hooks';
import { keysRoutes } from './keys';
import { emailsRoutes } from './emails';
import { broadcastMessagesRoutes } from './broadcast-messages';
import { settingsRoutes } from './settings';
import { projectsRoutes } from './projects';
import { groupsRoutes } from './groups';
import { namespacesRoutes } from './namespaces';
import { variablesRoutes } from './variables';
import { projectHooksRoutes } from './project-hooks';
import { membersRoutes } from './members';
import { accessRequestsRoutes } from './access-requests';
import { repositoryRoutes } from './repository';
import { commitsRoutes } from './commits';
import { branchesRoutes } from './branches';
import { tagsRoutes } from './tags';
import { filesRoutes } from './files';
import { commitStatusesRoutes } from './commit-statuses';
import { buildsRoutes } from './builds';
import { pipelinesRoutes } from './pipelines';
import { lintRoutes } from './lint';
import { environmentsRoutes } from './environments';
import { deploymentsRoutes } from './deployments';
import { runnersRoutes } from './runners';
import { triggersRoutes } from './triggers';
import { labelsRoutes } from './labels';
import { LIMITS } from '../../lib/limits';

/** Every resource of the consumer API, mounted under /api/v3. */
export async function registerApiV3(api: Api, deps: RouteDeps): Promise<void> {
  // The server's own limit is sized for git and artifact uploads; an API body is parameters only.
  api.addHook('onRoute', (route) => {
    route.bodyLimit = Math.min(route.bodyLimit ?? LIMITS.apiBodyBytes, LIMITS.apiBodyBytes);
  });
  sessionRoutes(api, deps);
  usersRoutes(api, deps);
  templatesRoutes(api, deps);
  systemHooksRoutes(api, deps);
  keysRoutes(api, deps);
  emailsRoutes(api, deps);
  broadcastMessagesRoutes(api, deps);
  settingsRoutes(api, deps);
  projectsRoutes(api, deps);
  groupsRoutes(api, deps);
  namespacesRoutes(api, deps);
  variablesRoutes(api, deps);
  projectHooksRoutes(api, deps);
  membersRoutes(api, deps);
  accessRequestsRoutes(api, deps);
  repositoryRoutes(api, deps);
  commitsRoutes(api, deps);
  branchesRoutes(api, deps);
  tagsRoutes(api, deps);
  filesRoutes(api, deps);
  commitStatusesRoutes(api, deps);
  buildsRoutes(api, deps);
  pipelinesRoutes(api, deps);
  lintRoutes(api, deps);
  environmentsRoutes(api, deps);
  deploymentsRoutes(api, deps);
  runnersRoutes(api, deps);
  triggersRoutes(api, deps);
  labelsRoutes(api, deps);
}
