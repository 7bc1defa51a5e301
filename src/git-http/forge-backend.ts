import type { Project } from '../services/projects/types';
import type { GitAccessService, GitCaller } from '../services/repository/git-access';
import { PUSH_REFUSALS } from '../services/repository/push-rules';
import type { GitHttpBackend, GitHttpProject } from './types';

interface GitProject extends GitHttpProject {
  record: Project;
}

/** Forge's answers to the generic smart HTTP door, all taken from the git access service. */
export function forgeGitBackend(git: GitAccessService, repoPath: (projectId: number) => string): GitHttpBackend<GitCaller, GitProject> {
  return {
    async resolveProject(namespace, path) {
      const record = await git.findProject(`${namespace}/${path}`);
      return record ? { id: record.id, repoPath: repoPath(record.id), record } : undefined;
    },
    authenticate: (login, secret) => git.authenticate(login, secret),
    access: (caller, project, action) => git.access(caller, project.record, action),
    async checkPush(caller, project, updates) {
      const verdict = await git.checkPush(caller, project.record, updates);
      return {
        rejections: verdict.rejections,
        fastForwardOnly:
          verdict.fastForwardOnly.length > 0 ? { refs: verdict.fastForwardOnly, message: PUSH_REFUSALS.protectedForce } : undefined,
      };
    },
    afterPush: (caller, project, updates) => git.afterPush(caller, project.record, updates),
  };
}
