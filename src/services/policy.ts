/**
 * The one place that answers "may this user do this to that". Pure functions over
 * what the caller's access was loaded as (see `ProjectsService.accessOf`).
 */

export const GUEST = 10;
export const REPORTER = 20;
export const DEVELOPER = 30;
export const MASTER = 40;
export const OWNER = 50;

export const PRIVATE = 0;
export const INTERNAL = 10;
export const PUBLIC = 20;

export const PROJECT_ACCESS_LEVELS = [GUEST, REPORTER, DEVELOPER, MASTER];
export const GROUP_ACCESS_LEVELS = [GUEST, REPORTER, DEVELOPER, MASTER, OWNER];

export interface Caller {
  id: number;
  admin: number;
  external: number;
}

/** The caller's standing towards one project. */
export interface ProjectStanding {
  caller: Caller | null;
  visibilityLevel: number;
  archived: boolean;
  /** With builds off, the build abilities go too (GitLab 8.12's feature check). */
  buildsEnabled: boolean;
  /** With a feature off, its abilities go too (GitLab 8.12's `disabled_features!`). */
  issuesEnabled: boolean;
  mergeRequestsEnabled: boolean;
  snippetsEnabled: boolean;
  /** The project's `public_builds`: readers who are not members may see its builds. */
  publicBuilds: boolean;
  /** The caller's own membership of the project. */
  projectAccess: number | null;
  /** The caller's membership of the project's group. */
  groupAccess: number | null;
  /** Access through groups the project is shared with (the lower of membership and share level). */
  sharedAccess: number | null;
  /** Owner of the personal namespace, or owner of the project's group. */
  namespaceOwner: boolean;
}

export type ProjectAbility =
  | 'read_project'
  | 'download_code'
  | 'fork_project'
  | 'read_build'
  | 'update_build'
  | 'read_pipeline'
  | 'update_pipeline'
  | 'push_code'
  | 'create_commit_status'
  | 'admin_project'
  | 'admin_build'
  | 'read_environment'
  | 'create_environment'
  | 'update_environment'
  | 'read_deployment'
  | 'read_issue'
  | 'create_issue'
  | 'update_issue'
  | 'admin_issue'
  | 'destroy_issue'
  | 'read_merge_request'
  | 'create_merge_request'
  | 'update_merge_request'
  | 'admin_merge_request'
  | 'destroy_merge_request'
  | 'read_note'
  | 'create_note'
  | 'admin_note'
  | 'read_label'
  | 'admin_label'
  | 'read_milestone'
  | 'admin_milestone'
  | 'read_project_snippet'
  | 'create_project_snippet'
  | 'admin_project_snippet'
  | 'rename_project'
  | 'change_visibility_level'
  | 'remove_project'
  | 'archive_project'
  | 'change_namespace'
  | 'admin_project_member';

const isAdmin = (caller: Caller | null) => caller?.admin === 1;

/** The highest role the caller holds on the project, through any route; owners count as 50. */
export function effectiveAccess(standing: ProjectStanding): number {
  if (isAdmin(standing.caller) || standing.namespaceOwner) return OWNER;
  return Math.max(standing.projectAccess ?? 0, standing.groupAccess ?? 0, standing.sharedAccess ?? 0);
}

/** Public projects are read by anyone; internal ones by any signed-in user who is not external. */
export function visibleWithoutMembership(visibilityLevel: number, caller: Caller | null): boolean {
  if (visibilityLevel >= PUBLIC) return true;
  return visibilityLevel >= INTERNAL && caller !== null && caller.external !== 1;
}

export function can(standing: ProjectStanding, ability: ProjectAbility): boolean {
  const access = effectiveAccess(standing);
  const open = visibleWithoutMembership(standing.visibilityLevel, standing.caller);
  switch (ability) {
    case 'read_project':
      return access >= GUEST || open;
    // A fork is a copy of the code: whoever may download it may fork it, nobody else (GitLab 8.12's `fork_project`).
    case 'download_code':
    case 'fork_project':
      return access >= REPORTER || open;
    // Builds off takes every build and pipeline ability away (GitLab 8.12's `disabled_features!`).
    case 'read_build':
      return standing.buildsEnabled && (access >= REPORTER || (open && standing.publicBuilds));
    case 'read_pipeline':
      return standing.buildsEnabled && (access >= REPORTER || open);
    case 'update_build':
    case 'update_pipeline':
      return standing.buildsEnabled && access >= DEVELOPER;
    case 'push_code':
      return access >= DEVELOPER && !standing.archived;
    case 'create_commit_status':
      return access >= DEVELOPER;
    case 'admin_build':
      return standing.buildsEnabled && access >= MASTER;
    // Environments and deployments are part of CI: reporters read them, developers create environments,
    // masters change and remove them (GitLab 8.12's project policy).
    case 'read_environment':
    case 'read_deployment':
      return standing.buildsEnabled && access >= REPORTER;
    case 'create_environment':
      return standing.buildsEnabled && access >= DEVELOPER;
    case 'update_environment':
      return standing.buildsEnabled && access >= MASTER;
    // Issues, labels, milestones, snippets and notes (GitLab 8.12's project policy): anyone who reads
    // the project reads them, a signed-in reader opens issues and comments, reporters manage issues
    // and labels, masters milestones and others' snippets and notes, owners delete issues.
    case 'read_issue':
      return standing.issuesEnabled && (access >= GUEST || open);
    case 'create_issue':
      return standing.issuesEnabled && (access >= GUEST || (open && standing.caller !== null));
    case 'update_issue':
    case 'admin_issue':
      return standing.issuesEnabled && access >= REPORTER;
    case 'destroy_issue':
      return standing.issuesEnabled && access >= OWNER;
    // Merge requests (GitLab 8.12's project policy): readers of the project read them, developers open,
    // change and administer them (assignee, milestone, labels); an archived project takes no new work.
    // A merge request shows the code it changes (its changes, commits and versions), so in a private
    // project only those who read the code read it: reporters and up. GitLab 8.12 let a private
    // project's guests read merge requests, and so the code they may not download; later GitLab
    // closed that leak, and Forge follows it. Internal and public projects are as in 8.12.
    case 'read_merge_request':
      return standing.mergeRequestsEnabled && (access >= (standing.visibilityLevel === PRIVATE ? REPORTER : GUEST) || open);
    case 'create_merge_request':
    case 'update_merge_request':
      return standing.mergeRequestsEnabled && access >= DEVELOPER && !standing.archived;
    case 'admin_merge_request':
      return standing.mergeRequestsEnabled && access >= DEVELOPER;
    // Owners and administrators delete a merge request (the merge request feature is not asked, as in 8.12's API).
    case 'destroy_merge_request':
      return access >= OWNER;
    case 'read_label':
    case 'read_milestone':
      return (standing.issuesEnabled || standing.mergeRequestsEnabled) && (access >= GUEST || open);
    case 'admin_label':
      return (standing.issuesEnabled || standing.mergeRequestsEnabled) && access >= REPORTER;
    case 'admin_milestone':
      return (standing.issuesEnabled || standing.mergeRequestsEnabled) && access >= MASTER;
    case 'read_project_snippet':
      return standing.snippetsEnabled && (access >= GUEST || open);
    case 'create_project_snippet':
      return standing.snippetsEnabled && access >= REPORTER;
    case 'admin_project_snippet':
      return standing.snippetsEnabled && access >= MASTER;
    case 'read_note':
      return access >= GUEST || open;
    case 'create_note':
      return access >= GUEST || (open && standing.caller !== null);
    case 'admin_note':
      return access >= MASTER;
    case 'admin_project':
    case 'admin_project_member':
      return access >= MASTER;
    case 'rename_project':
    case 'change_visibility_level':
    case 'remove_project':
    case 'archive_project':
    case 'change_namespace':
      return access >= OWNER;
  }
}

/**
 * Whether refusing `ability` hides what it reads rather than forbids it: a guest of a private
 * project may not know what its merge requests are, so the refusal is a 404, as for any object the
 * caller may not see (a merge request feature that is off stays a 403, as in 8.12).
 */
export function hides(standing: ProjectStanding, ability: ProjectAbility): boolean {
  return ability === 'read_merge_request' && standing.mergeRequestsEnabled && !can(standing, ability);
}

/** The caller's standing towards one group. */
export interface GroupStanding {
  caller: Caller | null;
  visibilityLevel: number;
  memberAccess: number | null;
  /** The caller can see at least one project of the group. */
  seesAProject: boolean;
}

export type GroupAbility = 'read_group' | 'admin_group' | 'create_projects' | 'admin_group_member';

export function canOnGroup(standing: GroupStanding, ability: GroupAbility): boolean {
  const access = isAdmin(standing.caller) ? OWNER : (standing.memberAccess ?? 0);
  switch (ability) {
    case 'read_group':
      return access >= GUEST || visibleWithoutMembership(standing.visibilityLevel, standing.caller) || standing.seesAProject;
    case 'create_projects':
      return access >= MASTER;
    case 'admin_group':
    case 'admin_group_member':
      return access >= OWNER;
  }
}

// ---- Rules beyond one project's or group's abilities ----
// Every other "may this user…" of the services and doors is one of these, so that a rule is read and
// changed in one place (the CI runner admin included).

/** Administrators read every project, group and namespace, whatever its visibility or their membership. */
export function readsEverything(caller: Caller | null): boolean {
  return isAdmin(caller);
}

/** The administration pages (`/admin`) are for administrators only. */
export function administers(caller: Caller | null): boolean {
  return isAdmin(caller);
}

/** A group read through membership or visibility, not through one of its projects: whose members a mention reaches. */
export function readsGroupItself(caller: Caller | null, visibilityLevel: number, member: boolean): boolean {
  return isAdmin(caller) || member || visibleWithoutMembership(visibilityLevel, caller);
}

/** A visibility level the administrator restricted is refused to everyone else (8.12's `Gitlab::VisibilityLevel.allowed_for?`). */
export function mayUseRestrictedVisibility(caller: Caller): boolean {
  return isAdmin(caller);
}

/** Administrators anywhere; users in their own namespace and in groups where they may create projects (masters, owners). */
export function mayCreateProjectIn(
  caller: Caller,
  namespace: { kind: string; owner_id: number | null; visibility_level: number },
  groupAccess: number | null,
): boolean {
  if (namespace.kind === 'user') return isAdmin(caller) || namespace.owner_id === caller.id;
  return canOnGroup(
    { caller, visibilityLevel: namespace.visibility_level, memberAccess: groupAccess, seesAProject: false },
    'create_projects',
  );
}

/** Only a snippet's author and administrators change or remove it, whatever their role in the project (8.12's snippet policy). */
export function mayModifySnippet(caller: Caller | null, snippet: { author_id: number | null }): boolean {
  return caller !== null && (isAdmin(caller) || snippet.author_id === caller.id);
}

/** An award emoji is removed by whoever gave it, or by an administrator (8.12's award emoji API). */
export function mayRemoveAward(caller: Caller, award: { user_id: number | null }): boolean {
  return award.user_id === caller.id || isAdmin(caller);
}

/** An issue's `created_at` / `updated_at` are set by owners and administrators only (others' are dropped). */
export function mayDateIssue(standing: ProjectStanding): boolean {
  return effectiveAccess(standing) >= OWNER;
}

/** A comment's `created_at` (on an issue) is set by administrators and the project's owner only (8.12's notes API). */
export function mayDateNote(standing: ProjectStanding): boolean {
  return isAdmin(standing.caller) || standing.namespaceOwner;
}

/**
 * Who may push to a protected branch (push access asked first): masters, and developers when its rule
 * lets them push; no one, administrators included, when its rules say "No one" (GitLab 10's access level 0).
 */
export function mayPushToProtectedBranch(
  standing: ProjectStanding,
  protection: { developersCanPush: boolean; nobodyCanPush: boolean },
): boolean {
  if (protection.nobodyCanPush) return false;
  return effectiveAccess(standing) >= MASTER || protection.developersCanPush;
}

/**
 * Who may merge into a protected branch (8.12's `can_be_merged_by?`): masters, and developers when its
 * rule lets them push or merge; no one when its rules say "No one" for merging.
 */
export function mayMergeIntoProtectedBranch(
  standing: ProjectStanding,
  protection: { developersCanPush: boolean; developersCanMerge: boolean; nobodyCanMerge: boolean },
): boolean {
  if (protection.nobodyCanMerge) return false;
  const access = effectiveAccess(standing);
  return access >= MASTER || (access >= DEVELOPER && (protection.developersCanPush || protection.developersCanMerge));
}

/** Who may change a merge request: `update_merge_request`, or its author or assignee (8.12's `IssuablePolicy`). */
export function mayUpdateMergeRequest(
  standing: ProjectStanding,
  mergeRequest: { author_id: number | null; assignee_id: number | null },
): boolean {
  const callerId = standing.caller?.id;
  return (
    can(standing, 'update_merge_request') ||
    (callerId !== undefined && (mergeRequest.author_id === callerId || mergeRequest.assignee_id === callerId))
  );
}

/** Who may resolve a merge request's discussion: its author, the discussion's first author, or who may update the merge request. */
export function mayResolveDiscussion(
  standing: ProjectStanding,
  mergeRequest: { author_id: number | null; assignee_id: number | null },
  noteAuthorId: number | null,
): boolean {
  const callerId = standing.caller?.id;
  return mayUpdateMergeRequest(standing, mergeRequest) || (callerId !== undefined && noteAuthorId === callerId);
}

/** A membership or an access request is removed by those who administer the project's or group's members, or by its own user. */
export function mayRemoveMember(administersMembers: boolean, caller: Caller, member: { user_id: number | null }): boolean {
  return administersMembers || member.user_id === caller.id;
}

/** Moving or deleting an existing tag: masters only. */
export function mayChangeTag(standing: ProjectStanding): boolean {
  return effectiveAccess(standing) >= MASTER;
}

/** The role on a project whose deploy keys a user may enable on other projects (8.12's `accessible_deploy_keys`). */
export const DEPLOY_KEY_SHARING_ACCESS = MASTER;

/** Administrators may enable any deploy key on a project they master; others the keys of projects they master. */
export function mayUseEveryDeployKey(caller: Caller): boolean {
  return isAdmin(caller);
}

/** Administrators see and revoke everybody's personal access tokens. */
export function mayManageEveryToken(caller: Caller): boolean {
  return isAdmin(caller);
}

/** A user's personal access tokens are seen and revoked by that user and by administrators. */
export function mayManageTokensOf(caller: Caller, ownerId: number): boolean {
  return caller.id === ownerId || isAdmin(caller);
}

/** The role on a project whose specific runners a user manages (8.12's `ci_authorized_runners`). */
export const RUNNER_MANAGER_ACCESS = MASTER;

/** Administrators manage every runner, shared ones included; others the specific runners of projects they master. */
export function mayManageEveryRunner(caller: Caller): boolean {
  return isAdmin(caller);
}

/** A runner's token is shown to administrators, and for a specific runner to those who may see it. */
export function mayReadRunnerToken(caller: Caller, runner: { is_shared: number | boolean }): boolean {
  return isAdmin(caller) || !runner.is_shared;
}

/** Administrators see every field of every user (the door's full user entity); others the public fields. */
export function seesUserDetails(caller: Caller): boolean {
  return isAdmin(caller);
}

export const visibilityName = (level: number): string => (level >= PUBLIC ? 'public' : level >= INTERNAL ? 'internal' : 'private');
