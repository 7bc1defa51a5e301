import type { Commit } from '../../git/objects';
import type { Selectable } from 'kysely';
import type { NamespacesTable, ProjectsTable, UsersTable } from '../../db/schema';
import { avatarUrl, projectUrls, type UrlBase } from '../../lib/urls';

// Projects and users fire hooks: their records are named from the schema here, not imported from the domains above.
type Project = Selectable<ProjectsTable> & { namespace: Selectable<NamespacesTable> };
type User = Selectable<UsersTable>;

/** GitLab 8.12's `Project#hook_attrs` without the older names (`backward: false`): the `project` of pipeline hooks. */
export function currentProjectHookAttributes(project: Project, base: UrlBase) {
  const urls = projectUrls(base, project);
  return {
    name: project.name,
    description: project.description,
    web_url: urls.web,
    avatar_url: null,
    git_ssh_url: urls.ssh,
    git_http_url: urls.http,
    namespace: project.namespace.name,
    visibility_level: project.visibility_level,
    path_with_namespace: urls.pathWithNamespace,
    default_branch: project.default_branch,
  };
}

/** GitLab 8.12's `Project#hook_attrs`: the `project` of push and note hooks. */
export function projectHookAttributes(project: Project, base: UrlBase) {
  const current = currentProjectHookAttributes(project, base);
  // GitLab keeps these older names for hooks written against them.
  return Object.assign(current, {
    homepage: current.web_url,
    url: current.git_ssh_url,
    ssh_url: current.git_ssh_url,
    http_url: current.git_http_url,
  });
}

export type ProjectHookAttributes = ReturnType<typeof projectHookAttributes>;

/** GitLab 8.12's `User#hook_attrs`. */
export function userHookAttributes(user: User) {
  return { name: user.name, username: user.username, avatar_url: avatarUrl(user.email) };
}

/** GitLab's `Commit#hook_attrs` without the changed files. */
export function commitHookAttributes(commit: Commit, projectWebUrl: string) {
  return {
    id: commit.id,
    message: commit.message,
    // Ruby's `xmlschema`: seconds, in the committer's own offset.
    timestamp: commit.committer.date.replace(/\.\d{3}(?=[+-]|Z$)/, ''),
    url: `${projectWebUrl}/commit/${commit.id}`,
    author: { name: commit.author.name, email: commit.author.email },
  };
}

/**
 * A time as GitLab 8.12's queued project hooks carried record timestamps: Sidekiq stored the
 * payload as JSON, which wrote Ruby times with `to_s` (`2015-05-17 18:08:09 UTC`).
 */
export const hookTime = (iso: string): string => iso.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC');
