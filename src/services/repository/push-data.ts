import type { PushedCommit } from '../../git/push-log';
import type { Project } from '../projects/types';
import type { User } from '../users/users';
import { avatarUrl } from '../../lib/urls';
import { commitHookAttributes, projectHookAttributes } from '../hooks/hook-attributes';
import type { UrlBase } from '../../lib/urls';

/** At most this many commits travel in push data (GitLab's "latest 20 commits"). */
export const PUSH_DATA_COMMITS = 20;

export interface PushDataInput {
  project: Project;
  user: User;
  urls: UrlBase;
  oldId: string;
  newId: string;
  /** The full ref: `refs/heads/…` or `refs/tags/…`. */
  ref: string;
  /** The commits to list, oldest first, at most `PUSH_DATA_COMMITS`. */
  commits: PushedCommit[];
  totalCommits: number;
  /** The commit a checkout of the ref gets: null when the ref was deleted or a tag names no commit. */
  checkoutSha: string | null;
  /** A tag's annotation; null for branches and lightweight tags. */
  message: string | null;
}

/** GitLab 8.12's `Gitlab::DataBuilder::Push.build`: the payload of push events, hooks and the event's `data`. */
export function buildPushData(input: PushDataInput) {
  const { project, user } = input;
  const kind = input.ref.startsWith('refs/tags/') ? 'tag_push' : 'push';
  const hookAttributes = projectHookAttributes(project, input.urls);
  return {
    object_kind: kind,
    event_name: kind,
    before: input.oldId,
    after: input.newId,
    ref: input.ref,
    checkout_sha: input.checkoutSha,
    message: input.message,
    user_id: user.id,
    user_name: user.name,
    user_email: user.email,
    user_avatar: avatarUrl(user.email),
    project_id: project.id,
    project: hookAttributes,
    commits: input.commits.map(({ commit, added, modified, removed }) =>
      Object.assign(commitHookAttributes(commit, hookAttributes.web_url), { added, modified, removed }),
    ),
    total_commits_count: input.totalCommits,
    repository: {
      name: hookAttributes.name,
      url: hookAttributes.url,
      description: hookAttributes.description,
      homepage: hookAttributes.homepage,
      git_http_url: hookAttributes.git_http_url,
      git_ssh_url: hookAttributes.git_ssh_url,
      visibility_level: hookAttributes.visibility_level,
    },
  };
}
