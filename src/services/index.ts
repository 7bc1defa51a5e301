import type { ServiceContext } from './context';
import { UsersService } from './users/users';
import { ProfileCache } from './users/profile-cache';
import { TemplatesService } from './templates/templates';
import { SystemHooksService } from './hooks/system-hooks';
import { KeysService } from './users/keys';
import { DeployKeysService } from './deploy-keys/deploy-keys';
import { EmailsService } from './users/emails';
import { BroadcastMessagesService } from './broadcast-messages/broadcast-messages';
import { BackgroundJobsService } from './background-jobs/background-jobs';
import { SettingsService } from './settings/settings';
import { EventsService } from './events/events';
import { ProjectsService } from './projects/projects';
import { GroupsService } from './groups/groups';
import { NamespacesService } from './namespaces/namespaces';
import { VariablesService } from './variables/variables';
import { HookTestService } from './repository/hook-test';
import { ProjectHooksService } from './hooks/project-hooks';
import { HookLogsService } from './hooks/hook-logs';
import { WorkCountsService } from './users/work-counts';
import { MembersService } from './members/members';
import { AccessRequestsService } from './members/access-requests';
import { RepositoryStore } from './repository/repositories';
import { ProtectedBranchesService } from './repository/protected-branches';
import { DefaultBranchService } from './repository/default-branch';
import { RepositoryReadsService } from './repository/reads';
import { CommitReadsService } from './repository/commit-reads';
import { RepositoryBrowseService } from './repository/browse';
import { CommitCommentsService } from './notes/commit-comments';
import { NoteableNotesService } from './notes/noteable-notes';
import { MergeRequestDiscussionsService } from './notes/merge-request-discussions';
import { BranchesService } from './repository/branches';
import { TagsService } from './repository/tags';
import { FilesService } from './repository/files';
import { CommitStatusesService } from './ci/pipelines/commit-statuses';
import { BuildTokensService } from './ci/builds/tokens';
import { RunnerRegistrationService } from './ci/runners/registration';
import { RunnerAdminService } from './ci/runners/admin';
import { BuildRequestsService } from './ci/runners/build-requests';
import { BuildsService } from './ci/builds/builds';
import { BuildActionsService } from './ci/builds/actions';
import { PipelinesService } from './ci/pipelines/pipelines';
import { TestReportsService } from './ci/test-reports/test-reports';
import { CiLintService } from './ci/yaml/lint';
import { EnvironmentsService } from './ci/environments/environments';
import { DeploymentsService } from './ci/environments/deployments';
import { TriggersService } from './ci/pipelines/triggers';
import { PushRulesService } from './repository/push-rules';
import { PushesService } from './repository/pushes';
import { GitAccessService } from './repository/git-access';
import { ProjectSnippetsService } from './snippets/project-snippets';
import { LabelsService } from './labels/labels';
import { MilestonesService } from './milestones/milestones';
import { IssuesService } from './issues/issues';
import { TodosService } from './todos/todos';
import { NotificationSettingsService } from './notifications/settings';
import { issueTodos, mergeRequestTodos } from './todos/issuable-todos';
import { AwardEmojiService } from './award-emoji/award-emoji';
import { SubscriptionsService } from './subscriptions/subscriptions';
import { TimeTrackingService } from './time-tracking/time-tracking';
import { LfsService } from './lfs/lfs';
import { MergeRequestsService } from './merge-requests/merge-requests';
import { MergingService } from './merge-requests/merging';
import { MergeRequestReadsService } from './merge-requests/reads';
import { VersionContentCache } from './merge-requests/version-contents';
import { SlashCommandsService } from './slash-commands/slash-commands';
import { PersonalAccessTokensService } from './access-tokens/personal-access-tokens';
import { OAuthService } from './access-tokens/oauth';
import { AccessTokensService } from './access-tokens/access-tokens';
import { ReferencesService } from './references/references';
import { SearchService } from './search/search';

/**
 * Every service, built once per app over one context, each given what it needs through its
 * constructor, in dependency order: no service is handed another after construction, and there is
 * one instance of each. The context itself is not among them: doors get services, nothing else.
 */
export function createServices(ctx: ServiceContext) {
  const settings = new SettingsService(ctx);
  const events = new EventsService(ctx);
  const repositories = new RepositoryStore(ctx);
  // Users remember profile extras; projects forget them when personal projects change.
  const profiles = new ProfileCache();
  const projects = new ProjectsService(ctx, settings, events, repositories, () => profiles.forgetAll());
  const users = new UsersService(ctx, projects, profiles);
  const protectedBranches = new ProtectedBranchesService(ctx);
  const groups = new GroupsService(ctx, settings, projects);
  const repositoryReads = new RepositoryReadsService(ctx);
  const commitReads = new CommitReadsService(ctx, repositoryReads);
  const defaultBranch = new DefaultBranchService(ctx, settings, protectedBranches);
  const pushRules = new PushRulesService(protectedBranches, settings);
  const buildTokens = new BuildTokensService(ctx);
  const builds = new BuildsService(ctx, users);
  const deployKeys = new DeployKeysService(ctx);
  const keys = new KeysService(ctx);
  const personalAccessTokens = new PersonalAccessTokensService(ctx, users);
  const oauth = new OAuthService(ctx, users);
  const accessTokens = new AccessTokensService(personalAccessTokens, oauth);
  const gitAccess = new GitAccessService(
    users,
    projects,
    buildTokens,
    pushRules,
    new PushesService(ctx, defaultBranch),
    deployKeys,
    keys,
    accessTokens,
  );
  const notes = new NoteableNotesService(ctx, events);
  const issues = new IssuesService(ctx, users, projects, events, issueTodos);
  const mergeRequests = new MergeRequestsService(ctx, users, projects, events, mergeRequestTodos);
  const todos = new TodosService(ctx, users);
  const labels = new LabelsService(ctx);
  const subscriptions = new SubscriptionsService(ctx, users, labels);
  const mergeRequestContents = new VersionContentCache(ctx);
  const mergeRequestReads = new MergeRequestReadsService(ctx, users, mergeRequestContents);
  const projectHooks = new ProjectHooksService(ctx);
  return {
    notificationSettings: new NotificationSettingsService(ctx),
    events,
    projects,
    repositories,
    protectedBranches,
    repositoryReads,
    commitReads,
    repositoryBrowse: new RepositoryBrowseService(ctx),
    commitComments: new CommitCommentsService(ctx, commitReads, events),
    notes,
    defaultBranch,
    pushRules,
    buildTokens,
    gitAccess,
    lfs: new LfsService(ctx, gitAccess, users),
    branches: new BranchesService(ctx, protectedBranches, pushRules),
    tags: new TagsService(ctx),
    files: new FilesService(ctx, pushRules, defaultBranch),
    groups,
    members: new MembersService(ctx, { projects, groups }, events),
    accessRequests: new AccessRequestsService(ctx, events),
    namespaces: new NamespacesService(ctx),
    users,
    personalAccessTokens,
    oauth,
    accessTokens,
    templates: new TemplatesService(),
    systemHooks: new SystemHooksService(ctx),
    keys,
    deployKeys,
    emails: new EmailsService(ctx),
    broadcastMessages: new BroadcastMessagesService(ctx),
    backgroundJobs: new BackgroundJobsService(ctx),
    settings,
    variables: new VariablesService(ctx),
    projectHooks,
    hookTests: new HookTestService(ctx, projectHooks),
    hookLogs: new HookLogsService(ctx),
    workCounts: new WorkCountsService(ctx),
    commitStatuses: new CommitStatusesService(ctx),
    runnerRegistration: new RunnerRegistrationService(ctx, settings),
    runnerAdmin: new RunnerAdminService(ctx, projects),
    buildRequests: new BuildRequestsService(ctx, builds.traces),
    builds,
    buildActions: new BuildActionsService(ctx, builds),
    pipelines: new PipelinesService(ctx),
    testReports: new TestReportsService(ctx),
    ciLint: new CiLintService(ctx),
    environments: new EnvironmentsService(ctx),
    deployments: new DeploymentsService(ctx, builds, users),
    triggers: new TriggersService(ctx),
    projectSnippets: new ProjectSnippetsService(ctx, settings),
    labels,
    milestones: new MilestonesService(ctx, events),
    issues,
    todos,
    awardEmoji: new AwardEmojiService(ctx),
    subscriptions,
    timeTracking: new TimeTrackingService(ctx),
    mergeRequests,
    slashCommands: new SlashCommandsService(ctx, { notes, issues, mergeRequests, subscriptions, todos }),
    mergeRequestContents,
    mergeRequestReads,
    mergeRequestDiscussions: new MergeRequestDiscussionsService(ctx, notes, mergeRequestReads),
    mergeRequestMerging: new MergingService(ctx, {
      events,
      projects,
      users,
      pushRules,
      issues,
      contents: mergeRequestContents,
      todos: mergeRequestTodos,
    }),
    references: new ReferencesService(ctx, projects),
    search: new SearchService(ctx, { projects, issues, mergeRequests, repositoryReads }),
  };
}

export type Services = ReturnType<typeof createServices>;
