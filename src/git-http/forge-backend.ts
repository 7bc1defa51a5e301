import crypto from 'node:crypto';
import type { Services } from '../services/index';
import type { User } from '../services/users/users';
import type { Project } from '../services/projects/types';
import { can, effectiveAccess, MASTER } from '../services/policy';
import { protectionOf } from '../services/repository/protected-branches';
import { digestToken } from '../lib/secrets';
import type { GitAccess, GitAction, GitHttpBackend, GitHttpProject, PushCheck, PushRejection, RefUpdate } from './types';

const ZERO = '0000000000000000000000000000000000000000';

/** A person, or a running build fetching its own project with `gitlab-ci-token`. */
export type GitCaller = { kind: 'user'; user: User } | { kind: 'build'; projectId: number };

interface GitProject extends GitHttpProject {
  record: Project;
}

export const PUSH_MESSAGES = {
  protectedPush: 'You are not allowed to push code to protected branches on this project.',
  protectedDelete: 'You are not allowed to delete protected branches from this project.',
  protectedForce: 'You are not allowed to force push code to a protected branch on this project.',
  changeTag: 'You are not allowed to change existing tags on this project.',
};

/**
 * Git asks for credentials on every request of a clone; checking a memory-hard password hash
 * each time would dominate small clones. A successful check is remembered for a minute.
 */
class CredentialCache {
  private readonly entries = new Map<string, { userId: number; expires: number }>();

  key(login: string, secret: string): string {
    return crypto.createHash('sha256').update(`${login}\0${secret}`).digest('hex');
  }

  get(key: string): number | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.expires < Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.userId;
  }

  set(key: string, userId: number): void {
    if (this.entries.size > 10_000) this.entries.clear();
    this.entries.set(key, { userId, expires: Date.now() + 60_000 });
  }
}

/** Forge's answers to the git door: projects, credentials, the policy and protected branches. */
export function forgeGitBackend(services: Services): GitHttpBackend<GitCaller, GitProject> {
  const { ctx, projects, users } = services;
  const cache = new CredentialCache();

  return {
    async resolveProject(namespace, path) {
      const record = await projects.find(`${namespace}/${path}`);
      return record ? { id: record.id, repoPath: services.repositories.path(record.id), record } : undefined;
    },

    async authenticate(login, secret) {
      if (login === 'gitlab-ci-token') {
        const build = await ctx.db
          .selectFrom('ci_builds')
          .select('project_id')
          .where('token_digest', '=', digestToken(secret))
          .where('status', '=', 'running')
          .executeTakeFirst();
        return build ? { kind: 'build', projectId: build.project_id } : undefined;
      }
      const key = cache.key(login, secret);
      const cachedId = cache.get(key);
      if (cachedId !== undefined) {
        const user = await users.findById(cachedId);
        if (user?.state === 'active') return { kind: 'user', user };
      }
      const user = await users.checkCredentials(login, secret);
      if (!user) return undefined;
      cache.set(key, user.id);
      return { kind: 'user', user };
    },

    async access(caller, project, action: GitAction): Promise<GitAccess> {
      if (caller?.kind === 'build') {
        if (action === 'read' && caller.projectId === project.id) return 'ok';
        return action === 'read' ? 'not_found' : 'forbidden';
      }
      const user = caller?.user ?? null;
      const standing = await projects.standing(project.record, user);
      const allowed = action === 'read' ? can(standing, 'download_code') : can(standing, 'push_code');
      if (allowed) return 'ok';
      if (!user) return 'unauthorized';
      return can(standing, 'read_project') ? 'forbidden' : 'not_found';
    },

    async checkPush(caller, project, updates): Promise<PushCheck | undefined> {
      if (caller.kind !== 'user') return { rejections: updates.map((u) => ({ ref: u.ref, message: 'You are not allowed to push code to this project.' })) };
      const [standing, rules, settings] = await Promise.all([
        projects.standing(project.record, caller.user),
        services.protectedBranches.list(project.id),
        services.settings.get(),
      ]);
      const master = effectiveAccess(standing) >= MASTER;
      // GitLab 8.12: while a project is empty, whatever is pushed becomes the protected default branch.
      const emptyProtected = project.record.default_branch === null && [2, 3].includes(settings.default_branch_protection);
      const rejections: PushRejection[] = [];
      const fastForwardOnly: string[] = [];
      for (const update of updates) {
        if (update.ref.startsWith('refs/heads/')) {
          const branch = update.ref.slice('refs/heads/'.length);
          const protection = protectionOf(rules, branch);
          if (!protection.protected && !emptyProtected) continue;
          if (update.newId === ZERO) rejections.push({ ref: update.ref, message: PUSH_MESSAGES.protectedDelete });
          else if (!master && !protection.developersCanPush) rejections.push({ ref: update.ref, message: PUSH_MESSAGES.protectedPush });
          else if (update.oldId !== ZERO) fastForwardOnly.push(update.ref);
        } else if (update.ref.startsWith('refs/tags/') && update.oldId !== ZERO && !master) {
          rejections.push({ ref: update.ref, message: PUSH_MESSAGES.changeTag });
        }
      }
      return {
        rejections,
        fastForwardOnly: fastForwardOnly.length ? { refs: fastForwardOnly, message: PUSH_MESSAGES.protectedForce } : undefined,
      };
    },

    async afterPush(caller, project, updates: RefUpdate[]) {
      if (caller.kind !== 'user') return;
      if (project.record.default_branch === null) {
        const created = updates.filter((u) => u.ref.startsWith('refs/heads/') && u.newId !== ZERO).map((u) => u.ref.slice('refs/heads/'.length));
        const first = created.includes('master') ? 'master' : created[0];
        if (first) await services.defaultBranch.adopt(project.record, first);
      }
      // Events, hooks and CI happen in the background, one job per push.
      await ctx.jobs.enqueue('push.process', { projectId: project.id, userId: caller.user.id, updates });
    },
  };
}
