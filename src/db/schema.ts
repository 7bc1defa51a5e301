import type { Generated } from 'kysely';

/**
 * Table types. Portable across SQLite and PostgreSQL by construction:
 * timestamps are ISO 8601 UTC text with milliseconds (sortable as text),
 * booleans are integers 0/1, JSON is text.
 */
export interface Database {
  users: UsersTable;
  identities: IdentitiesTable;
  emails: EmailsTable;
  keys: KeysTable;
  deploy_keys_projects: DeployKeysProjectsTable;
  namespaces: NamespacesTable;
  broadcast_messages: BroadcastMessagesTable;
  application_settings: ApplicationSettingsTable;
  hooks: HooksTable;
  web_hook_logs: WebHookLogsTable;
  jobs: JobsTable;
  projects: ProjectsTable;
  members: MembersTable;
  project_group_links: ProjectGroupLinksTable;
  stars: StarsTable;
  ci_variables: CiVariablesTable;
  events: EventsTable;
  protected_branches: ProtectedBranchesTable;
  ci_pipelines: CiPipelinesTable;
  ci_builds: CiBuildsTable;
  ci_runners: CiRunnersTable;
  ci_runner_projects: CiRunnerProjectsTable;
  ci_triggers: CiTriggersTable;
  ci_trigger_requests: CiTriggerRequestsTable;
  environments: EnvironmentsTable;
  deployments: DeploymentsTable;
  internal_ids: InternalIdsTable;
  milestones: MilestonesTable;
  issues: IssuesTable;
  merge_requests: MergeRequestsTable;
  merge_request_diffs: MergeRequestDiffsTable;
  labels: LabelsTable;
  label_links: LabelLinksTable;
  snippets: SnippetsTable;
  award_emoji: AwardEmojiTable;
  subscriptions: SubscriptionsTable;
  notification_settings: NotificationSettingsTable;
  todos: TodosTable;
  notes: NotesTable;
  releases: ReleasesTable;
  lfs_objects: LfsObjectsTable;
  lfs_objects_projects: LfsObjectsProjectsTable;
  personal_access_tokens: PersonalAccessTokensTable;
  oauth_applications: OauthApplicationsTable;
  oauth_access_grants: OauthAccessGrantsTable;
  oauth_access_tokens: OauthAccessTokensTable;
}

export type Flag = 0 | 1;

export interface UsersTable {
  id: Generated<number>;
  username: string;
  email: string;
  name: string;
  password_hash: string;
  token_digest: string;
  token_sealed: string;
  state: string;
  admin: Flag;
  external: Flag;
  can_create_group: Flag;
  projects_limit: number;
  bio: string | null;
  location: string | null;
  skype: string;
  linkedin: string;
  twitter: string;
  website_url: string;
  theme_id: number;
  color_scheme_id: number;
  confirmed_at: string | null;
  last_sign_in_at: string | null;
  current_sign_in_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface IdentitiesTable {
  id: Generated<number>;
  user_id: number;
  provider: string;
  extern_uid: string;
}

export interface EmailsTable {
  id: Generated<number>;
  user_id: number;
  email: string;
  created_at: string;
}

export interface KeysTable {
  id: Generated<number>;
  /** Null for deploy keys. */
  user_id: number | null;
  title: string;
  key: string;
  fingerprint: string;
  created_at: string;
  updated_at: string;
}

/** A deploy key enabled on a project. */
export interface DeployKeysProjectsTable {
  id: Generated<number>;
  deploy_key_id: number;
  project_id: number;
  created_at: string;
  updated_at: string;
}

export interface NamespacesTable {
  id: Generated<number>;
  name: string;
  path: string;
  /** 'user' or 'group' */
  kind: string;
  owner_id: number | null;
  description: string;
  visibility_level: number;
  request_access_enabled: Flag;
  share_with_group_lock: Flag;
  lfs_enabled: Flag;
  created_at: string;
  updated_at: string;
}

export interface BroadcastMessagesTable {
  id: Generated<number>;
  message: string;
  starts_at: string;
  ends_at: string;
  color: string;
  font: string;
  created_at: string;
  updated_at: string;
}

export interface ApplicationSettingsTable {
  id: Generated<number>;
  /** The settings as one JSON object, so that a new setting needs no migration. */
  data: string;
  created_at: string;
  updated_at: string;
}

export interface HooksTable {
  id: Generated<number>;
  /** Null for system hooks. */
  project_id: number | null;
  url: string;
  token: string | null;
  push_events: Flag;
  tag_push_events: Flag;
  issues_events: Flag;
  merge_requests_events: Flag;
  note_events: Flag;
  build_events: Flag;
  pipeline_events: Flag;
  wiki_page_events: Flag;
  enable_ssl_verification: Flag;
  created_at: string;
  updated_at: string;
}

/** One delivery of a hook (migration 0022): what was sent and what came back, kept for a while. */
export interface WebHookLogsTable {
  id: Generated<number>;
  hook_id: number;
  /** The event's name as sent in `X-Gitlab-Event` (`Push Hook`, `System Hook` …). */
  trigger: string;
  url: string;
  /** JSON of the headers sent, the token masked. */
  request_headers: string;
  /** The body sent, cut at a bound. */
  request_data: string;
  /** Null when no answer came (the error says why). */
  response_status: number | null;
  response_body: string | null;
  internal_error_message: string | null;
  execution_duration_ms: number;
  /** 1 for a test delivery from a settings page. */
  test: Flag;
  created_at: string;
}

export interface JobsTable {
  id: Generated<number>;
  kind: string;
  payload: string;
  run_at: string;
  attempts: number;
  max_attempts: number;
  locked_at: string | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: string;
}

export interface ProjectsTable {
  id: Generated<number>;
  namespace_id: number;
  name: string;
  path: string;
  description: string | null;
  default_branch: string | null;
  /** JSON array of strings */
  tag_list: string;
  visibility_level: number;
  archived: Flag;
  issues_enabled: Flag;
  merge_requests_enabled: Flag;
  builds_enabled: Flag;
  wiki_enabled: Flag;
  snippets_enabled: Flag;
  container_registry_enabled: Flag;
  shared_runners_enabled: Flag;
  public_builds: Flag;
  only_allow_merge_if_build_succeeds: Flag;
  lfs_enabled: Flag;
  request_access_enabled: Flag;
  creator_id: number | null;
  forked_from_project_id: number | null;
  star_count: number;
  import_url: string | null;
  /** none, scheduled, started, finished, failed */
  import_status: string;
  runners_token_digest: string;
  runners_token_sealed: string;
  pending_delete: Flag;
  /** Seconds a build may run (GitLab's default, 3600). */
  build_timeout: Generated<number>;
  build_allow_git_fetch: Generated<Flag>;
  /** Coverage is read from a finished build's trace with this regexp, when set. */
  build_coverage_regex: string | null;
  /** Bumped after every change of the repository's branches or tags (see `git/refs-cache.ts`). */
  refs_version: Generated<number>;
  last_activity_at: string;
  created_at: string;
  updated_at: string;
}

export interface MembersTable {
  id: Generated<number>;
  /** 'Project' or 'Namespace' (a group) */
  source_type: string;
  source_id: number;
  user_id: number;
  access_level: number;
  notification_level: number;
  /** YYYY-MM-DD */
  expires_at: string | null;
  /** Set while this row is an access request rather than a membership. */
  requested_at: string | null;
  created_by_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface ProjectGroupLinksTable {
  id: Generated<number>;
  project_id: number;
  group_id: number;
  group_access: number;
  created_at: string;
  updated_at: string;
}

export interface StarsTable {
  id: Generated<number>;
  user_id: number;
  project_id: number;
  created_at: string;
}

export interface CiVariablesTable {
  id: Generated<number>;
  project_id: number;
  key: string;
  value: string;
  /** Given only to builds of protected branches and tags (migration 0019). */
  protected: Generated<Flag>;
  /** GitLab 11.10's `masked`: kept and answered; traces are not masked by it. */
  masked: Generated<Flag>;
  created_at: string;
  updated_at: string;
}

export interface EventsTable {
  id: Generated<number>;
  project_id: number | null;
  author_id: number | null;
  /** created, joined, left, pushed, … as GitLab names them */
  action: string;
  target_id: number | null;
  target_type: string | null;
  target_title: string | null;
  /** JSON push payload or null */
  data: string | null;
  created_at: string;
  updated_at: string;
}

export interface ProtectedBranchesTable {
  id: Generated<number>;
  project_id: number;
  /** A branch name, or a wildcard pattern such as `release-*` */
  name: string;
  developers_can_push: Flag;
  developers_can_merge: Flag;
  /** Access level 0, "No one" (migration 0017): masters and administrators are refused too. */
  nobody_can_push: Generated<Flag>;
  nobody_can_merge: Generated<Flag>;
  created_at: string;
  updated_at: string;
}

export interface CiPipelinesTable {
  id: Generated<number>;
  project_id: number;
  ref: string | null;
  sha: string;
  before_sha: string | null;
  tag: Flag;
  status: string;
  yaml_errors: string | null;
  user_id: number | null;
  started_at: string | null;
  finished_at: string | null;
  committed_at: string | null;
  duration: number | null;
  /** GitLab 10's `source`: `push`, `trigger` or `api` (migration 0019; `push` for rows from before). */
  source: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface CiBuildsTable {
  id: Generated<number>;
  project_id: number;
  pipeline_id: number;
  /** 'Build' (run by runners) or 'GenericCommitStatus' (posted from outside) */
  type: string;
  name: string;
  stage: string | null;
  stage_idx: number;
  ref: string | null;
  tag: Flag;
  status: string;
  description: string | null;
  target_url: string | null;
  allow_failure: Flag;
  when: string;
  user_id: number | null;
  runner_id: number | null;
  token_digest: string | null;
  /** The build's token, sealed: runners of later stages are handed it to fetch this build's artifacts. */
  token_sealed: string | null;
  /** `before_script` and `script` lines joined by "\n". */
  commands: Generated<string>;
  /** JSON array of the runner tags the build asks for. */
  tag_list: Generated<string>;
  /** The environment name from .gitlab-ci.yml, when the job deploys. */
  environment: string | null;
  /** The trigger request that created the build's pipeline, when a trigger did. */
  trigger_request_id: number | null;
  /** JSON: the job's options from .gitlab-ci.yml */
  options: string;
  /** JSON: the job's variables from .gitlab-ci.yml */
  yaml_variables: string;
  coverage: number | null;
  artifacts_file: string | null;
  artifacts_size: number | null;
  artifacts_metadata: string | null;
  artifacts_expire_at: string | null;
  erased_at: string | null;
  erased_by_id: number | null;
  /** The job's JUnit report in the file store (`junitReportKey`): its XML's size, null when it has none. */
  junit_report_size: number | null;
  junit_report_expire_at: string | null;
  /** JSON `StoredSummary` (services/ci/test-reports/types.ts): the report's counts, read at upload. */
  junit_report_summary: string | null;
  /** Why a runner failed the build (`script_failure`, `runner_system_failure` …); null otherwise and for v1 runners. */
  failure_reason: Generated<string | null>;
  /** When a delayed build (status `scheduled`) is queued (migration 0019); null for others. */
  scheduled_at: Generated<string | null>;
  queued_at: string | null;
  started_at: string | null;
  finished_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface CiRunnersTable {
  id: Generated<number>;
  token_digest: string;
  token_sealed: string;
  description: string | null;
  /** 0 when paused. */
  active: Flag;
  is_shared: Flag;
  run_untagged: Flag;
  /** A locked runner runs builds of its own projects only. */
  locked: Flag;
  /** JSON array of strings */
  tag_list: string;
  name: string | null;
  version: string | null;
  revision: string | null;
  platform: string | null;
  architecture: string | null;
  contacted_at: string | null;
  /** `not_protected` or `ref_protected` (runner API v4's registration); stored, not yet applied to the queue. */
  access_level: Generated<string>;
  /** Seconds; caps the timeout of the jobs this runner runs. Null: the project's timeout. */
  maximum_timeout: Generated<number | null>;
  created_at: string;
  updated_at: string;
}

export interface CiRunnerProjectsTable {
  id: Generated<number>;
  runner_id: number;
  project_id: number;
  created_at: string;
  updated_at: string;
}

export interface CiTriggersTable {
  id: Generated<number>;
  project_id: number;
  /** Shown again to masters (GitLab lists triggers with their tokens); looked up by digest. */
  token_digest: string;
  token_sealed: string;
  /** Set when the trigger is deleted: GitLab 8.12 removed triggers softly. */
  deleted_at: string | null;
  /** What the trigger is for (GitLab 9); null for triggers made through API v3. */
  description: string | null;
  /** The user who made it (GitLab 9's owner); null for v3's triggers and once that user is gone. */
  owner_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface CiTriggerRequestsTable {
  id: Generated<number>;
  trigger_id: number;
  /** JSON object of string to string, or null. */
  variables: string | null;
  /** The pipeline it created; null when none could be. */
  pipeline_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface EnvironmentsTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  external_url: string | null;
  /** The first segment of a name with a `/` (`review/app` is of type `review`). */
  environment_type: string | null;
  /** `available`, or `stopped` (GitLab 9's stop) until the next deployment. */
  state: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface DeploymentsTable {
  id: Generated<number>;
  /** Per project, from `internal_ids` ('deployments'). */
  iid: number;
  project_id: number;
  environment_id: number;
  ref: string;
  tag: Flag;
  sha: string;
  user_id: number | null;
  /** The build that deployed; null once it is gone. */
  deployable_id: number | null;
  created_at: string;
  updated_at: string;
}

/** The last per-project number handed out for each kind of record (deployments, issues, merge requests …). */
export interface InternalIdsTable {
  project_id: number;
  usage: string;
  last_value: number;
}

export interface MilestonesTable {
  id: Generated<number>;
  /** Per project, from `internal_ids` ('milestones'). */
  iid: number;
  project_id: number;
  title: string;
  description: string | null;
  /** YYYY-MM-DD */
  due_date: string | null;
  /** active, closed */
  state: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface IssuesTable {
  id: Generated<number>;
  /** Per project, from `internal_ids` ('issues'). */
  iid: number;
  project_id: number;
  author_id: number | null;
  assignee_id: number | null;
  milestone_id: number | null;
  title: string;
  description: string | null;
  /** opened, reopened, closed */
  state: Generated<string>;
  confidential: Generated<Flag>;
  /** YYYY-MM-DD */
  due_date: string | null;
  /** The issue this one was moved to. */
  moved_to_id: number | null;
  /** Who closed it last (null before migration 0016). */
  closed_by_id: number | null;
  /** Time tracking, in seconds. */
  time_estimate: Generated<number>;
  total_time_spent: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface LabelsTable {
  id: Generated<number>;
  project_id: number;
  title: string;
  color: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface MergeRequestsTable {
  id: Generated<number>;
  /** Per target project, from `internal_ids` ('merge_requests'). */
  iid: number;
  target_project_id: number;
  /** null once a fork it came from is removed. */
  source_project_id: number | null;
  source_branch: string;
  target_branch: string;
  author_id: number | null;
  assignee_id: number | null;
  milestone_id: number | null;
  title: string;
  description: string | null;
  /** opened, reopened, closed, merged, locked (while a merge is being made) */
  state: Generated<string>;
  /** The state a locked merge request returns to when its merge fails. */
  locked_from: string | null;
  locked_at: string | null;
  /** unchecked, can_be_merged, cannot_be_merged */
  merge_status: Generated<string>;
  merge_commit_sha: string | null;
  merge_when_build_succeeds: Generated<Flag>;
  merge_user_id: number | null;
  merge_commit_message: string | null;
  should_remove_source_branch: Generated<Flag>;
  force_remove_source_branch: Generated<Flag>;
  merge_error: string | null;
  /** Who closed or merged it (null before migration 0016). */
  closed_by_id: number | null;
  merged_by_id: number | null;
  /** Time tracking, in seconds. */
  time_estimate: Generated<number>;
  total_time_spent: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface MergeRequestDiffsTable {
  id: Generated<number>;
  merge_request_id: number;
  /** collected, empty */
  state: string;
  base_commit_sha: string | null;
  head_commit_sha: string | null;
  start_commit_sha: string | null;
  /** The number of changed files, as text (GitLab's `real_size`). */
  real_size: string | null;
  commits_count: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface LabelLinksTable {
  id: Generated<number>;
  label_id: number;
  /** Issue, MergeRequest */
  target_type: string;
  target_id: number;
  created_at: string;
  updated_at: string;
}

export interface SnippetsTable {
  id: Generated<number>;
  project_id: number | null;
  author_id: number | null;
  title: string;
  file_name: string;
  content: Generated<string>;
  visibility_level: Generated<number>;
  /** ProjectSnippet (PersonalSnippet later) */
  type: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface AwardEmojiTable {
  id: Generated<number>;
  name: string;
  user_id: number;
  /** Issue, MergeRequest, Snippet, Note */
  awardable_type: string;
  awardable_id: number;
  created_at: string;
  updated_at: string;
}

/** A user's e-mail notification level: global (`Global`, 0), for a project (`Project`) or a group (`Namespace`). */
export interface NotificationSettingsTable {
  id: Generated<number>;
  user_id: number;
  source_type: 'Global' | 'Project' | 'Namespace';
  source_id: number;
  /** disabled, participating, watch, global, mention, custom */
  level: string;
  /** JSON: the custom level's events, by name. */
  events: Generated<string>;
  /** The global row's: where mails go; null: the primary address. */
  notification_email: string | null;
  created_at: string;
  updated_at: string;
}

export interface SubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  /** Issue, MergeRequest, Label */
  subscribable_type: string;
  subscribable_id: number;
  subscribed: Generated<Flag>;
  created_at: string;
  updated_at: string;
}

export interface TodosTable {
  id: Generated<number>;
  user_id: number;
  project_id: number;
  author_id: number | null;
  /** Issue, MergeRequest */
  target_type: string;
  target_id: number;
  note_id: number | null;
  /** 1 assigned, 2 mentioned, 3 build_failed, 4 marked (GitLab's numbers) */
  action: number;
  /** pending, done */
  state: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface NotesTable {
  id: Generated<number>;
  project_id: number | null;
  /** 'Commit', 'Issue', 'MergeRequest', 'Snippet' */
  noteable_type: string;
  noteable_id: number | null;
  commit_id: string | null;
  author_id: number | null;
  note: string;
  path: string | null;
  line: number | null;
  line_type: string | null;
  system: Flag;
  attachment: string | null;
  /** 'DiffNote' for a comment on a line of a merge request's diff, else null (migration 0020). */
  type: string | null;
  /** A DiffNote's `position`, as JSON (`DiffPosition`). */
  position: string | null;
  /** The discussion a DiffNote opens or answers; null for a note of its own. */
  discussion_id: string | null;
  resolved_at: string | null;
  resolved_by_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface ReleasesTable {
  id: Generated<number>;
  project_id: number;
  /** The tag's name; the release goes when the tag is deleted through the API */
  tag: string;
  description: string;
  created_at: string;
  updated_at: string;
}

export interface LfsObjectsTable {
  id: Generated<number>;
  /** The SHA-256 of the content, lower-case hex */
  oid: string;
  size: number;
  created_at: string;
}

export interface LfsObjectsProjectsTable {
  id: Generated<number>;
  lfs_object_id: number;
  project_id: number;
  created_at: string;
}

/** A user's personal access token: its digest, never itself. */
export interface PersonalAccessTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  token_digest: string;
  /** JSON array of scope names */
  scopes: string;
  /** A date, YYYY-MM-DD; null for no expiry */
  expires_at: string | null;
  revoked: Flag;
  created_at: string;
  last_used_at: string | null;
}

/** An OAuth2 client (Doorkeeper's application). */
export interface OauthApplicationsTable {
  id: Generated<number>;
  name: string;
  uid: string;
  secret_digest: string;
  redirect_uri: string;
  /** JSON array of scope names */
  scopes: string;
  confidential: Flag;
  owner_id: number | null;
  created_at: string;
}

/** An authorization code, good once and for a few minutes. */
export interface OauthAccessGrantsTable {
  id: Generated<number>;
  application_id: number;
  user_id: number;
  code_digest: string;
  redirect_uri: string;
  scopes: string;
  expires_at: string;
  used: Flag;
  created_at: string;
}

/** An OAuth2 access token with its refresh token. */
export interface OauthAccessTokensTable {
  id: Generated<number>;
  application_id: number | null;
  user_id: number;
  token_digest: string;
  refresh_token_digest: string;
  scopes: string;
  expires_at: string;
  revoked: Flag;
  created_at: string;
}
