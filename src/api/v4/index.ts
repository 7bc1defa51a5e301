import type { Api, RouteDeps } from '../shared/types';
import { LIMITS } from '../../lib/limits';
import { versionRoutes } from './version';
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
}
