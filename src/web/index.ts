import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { SecretBox } from '../lib/secrets';
import type { Services } from '../services/index';
import { registerWebRequests } from './request';
import { SessionCodec } from './session';
import { NoticeCodec } from './flash';
import { SignInThrottle } from './throttle';
import { ReadmeRenderer } from './readme';
import { NoteRenderings } from './rendered-notes';
import { signInRoutes } from './sign-in-routes';
import { browseRoutes } from './browse-routes';
import { issueRoutes } from './issue-routes';
import { mergeRequestRoutes } from './merge-request-routes';
import { mergeRequestDiscussionRoutes } from './merge-request-discussion-routes';
import { mergeRequestChangesRoutes } from './merge-request-changes-routes';
import { snippetRoutes } from './snippet-routes';
import { milestoneRoutes } from './milestone-routes';
import { labelRoutes } from './label-routes';
import { notFoundRoutes } from './not-found-routes';
import { STYLESHEET, STYLESHEET_PATH, STYLESHEET_VERSION } from './stylesheet';
import { PAGE } from './request';
import { repositoryRoutes } from './repository-routes';
import { SCRIPT, SCRIPT_PATH, SCRIPT_VERSION } from './script';
import { pipelineRoutes } from './pipeline-routes';
import { buildRoutes } from './build-routes';
import { profileRoutes } from './profile-routes';
import { adminRoutes } from './admin-routes';
import { adminUserRoutes } from './admin-user-routes';
import { adminRunnerRoutes } from './admin-runner-routes';
import { adminBroadcastRoutes } from './admin-broadcast-routes';
import { adminHookRoutes } from './admin-hook-routes';
import { adminJobRoutes } from './admin-job-routes';
import { adminSettingsRoutes } from './admin-settings-routes';
import { dashboardRoutes } from './dashboard-routes';
import { profileEmailRoutes } from './profile-email-routes';
import { profileApplicationRoutes } from './profile-application-routes';
import { oauthRoutes } from './oauth-routes';
import { profileTokenRoutes } from './profile-token-routes';
import { notificationRoutes } from './notification-routes';
import { projectCreateRoutes } from './project-create-routes';
import { refCreateRoutes } from './ref-create-routes';
import { editorRoutes } from './editor-routes';
import { searchRoutes } from './search-routes';
import { settingsRoutes } from './settings-routes';
import { memberSettingsRoutes } from './member-settings-routes';
import { protectedBranchRoutes } from './protected-branch-routes';
import { hookSettingsRoutes } from './hook-settings-routes';
import { hookDeliveryRoutes } from './hook-delivery-routes';
import { deployKeySettingsRoutes } from './deploy-key-settings-routes';
import { ciSettingsRoutes } from './ci-settings-routes';
import { runnerSettingsRoutes } from './runner-settings-routes';
import { groupRoutes } from './group-routes';
import { groupMemberRoutes } from './group-member-routes';
import { groupSettingsRoutes } from './group-settings-routes';
import { BUILD_LOG_PATH, BUILD_LOG_SCRIPT, BUILD_LOG_VERSION } from './scripts/build-log';

export interface WebDeps {
  services: Services;
  config: Config;
  /** The instance's key: sessions are sealed and CSRF tokens signed with it. */
  secrets: SecretBox;
}

/**
 * The web door: server-rendered pages at GitLab 8.12's URLs, for people. Registered after the
 * APIs; its routes (`config: PAGE`) are public to the API's authentication (they read their own
 * session cookie), and its one static asset is served apart from the pages, with no session look-up.
 */
export async function registerWeb(server: FastifyInstance, { services, config, secrets }: WebDeps): Promise<void> {
  const cookies = { secure: config.externalUrl.startsWith('https:') };
  const sessions = new SessionCodec(secrets);
  const notices = new NoticeCodec(secrets);
  const throttle = new SignInThrottle();
  const readmes = new ReadmeRenderer(services);
  const renderings = new NoteRenderings();
  await server.register(async (web) => {
    // Each asset's path never changes and its ETag is its content's digest: cached for a year.
    const asset = (path: string, version: string, type: string, body: string) =>
      web.get(path, { config: PAGE }, async (_request, reply) =>
        reply.header('cache-control', 'public, max-age=31536000, immutable').header('etag', `"${version}"`).type(type).send(body),
      );
    asset(STYLESHEET_PATH, STYLESHEET_VERSION, 'text/css; charset=utf-8', STYLESHEET);
    asset(SCRIPT_PATH, SCRIPT_VERSION, 'text/javascript; charset=utf-8', SCRIPT);
    asset(BUILD_LOG_PATH, BUILD_LOG_VERSION, 'text/javascript; charset=utf-8', BUILD_LOG_SCRIPT);
    await web.register(async (pages) => {
      await registerWebRequests(pages, { services, sessions, notices, cookies });
      signInRoutes(pages, { services, sessions, throttle, cookies });
      browseRoutes(pages, { services, config, readmes });
      repositoryRoutes(pages, { services, readmes });
      pipelineRoutes(pages, { services });
      buildRoutes(pages, { services });
      profileRoutes(pages, { services });
      adminRoutes(pages, { services });
      adminUserRoutes(pages, { services });
      adminRunnerRoutes(pages, { services });
      adminBroadcastRoutes(pages, { services });
      adminHookRoutes(pages, { services });
      adminJobRoutes(pages, { services });
      adminSettingsRoutes(pages, { services });
      dashboardRoutes(pages, { services });
      profileEmailRoutes(pages, { services });
      notificationRoutes(pages, { services });
      profileApplicationRoutes(pages, { services });
      oauthRoutes(pages, { services });
      profileTokenRoutes(pages, { services });
      issueRoutes(pages, { services, renderings });
      mergeRequestRoutes(pages, { services, renderings });
      mergeRequestDiscussionRoutes(pages, { services });
      mergeRequestChangesRoutes(pages, { services, cookies, renderings });
      snippetRoutes(pages, { services, renderings });
      milestoneRoutes(pages, { services });
      labelRoutes(pages, { services });
      notFoundRoutes(pages);
      projectCreateRoutes(pages, { services });
      refCreateRoutes(pages, { services });
      editorRoutes(pages, { services });
      searchRoutes(pages, { services });
      settingsRoutes(pages, { services });
      memberSettingsRoutes(pages, { services });
      protectedBranchRoutes(pages, { services });
      hookSettingsRoutes(pages, { services });
      hookDeliveryRoutes(pages, { services });
      deployKeySettingsRoutes(pages, { services });
      ciSettingsRoutes(pages, { services });
      runnerSettingsRoutes(pages, { services });
      groupRoutes(pages, { services });
      groupMemberRoutes(pages, { services });
      groupSettingsRoutes(pages, { services, config });
    });
  });
}
