import type { ServiceContext } from '../context';
import type { Project } from '../projects/types';
import type { User } from '../users/users';
import type { ProjectHooksService } from '../hooks/project-hooks';
import { sendToHook, type HookOutcome } from '../hooks/hook-logs';
import { ZERO_OID } from '../../git/ref-names';
import { buildPushData } from './push-data';
import { refsOf } from './refs-version';

/** What a test delivery came to: the receiver's HTTP status, or why nothing was answered. */
export type HookTestResult = HookOutcome;

/**
 * A hook's test delivery (GitLab 8.12's `TestHookService`, the settings page's "Test" button):
 * a push event of the default branch's head, sent at once rather than queued, so that the page can
 * say what the receiver answered. It is recorded among the hook's deliveries, marked as a test.
 */
export class HookTestService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly hooks: ProjectHooksService,
  ) {}

  async test(project: Project, hookId: string, user: User): Promise<HookTestResult> {
    const hook = await this.hooks.find(project.id, hookId);
    const refs = await refsOf(this.ctx, project);
    const names = refs.names().branches;
    const branchName = project.default_branch && names.includes(project.default_branch) ? project.default_branch : names[0];
    const branch = branchName === undefined ? undefined : await refs.branch(branchName);
    if (!branch) return { delivered: false, reason: 'Ensure the project has commits.' };
    const payload = buildPushData({
      project,
      user,
      urls: this.ctx.config,
      oldId: branch.commit.parentIds[0] ?? ZERO_OID,
      newId: branch.commit.id,
      ref: `refs/heads/${branch.name}`,
      commits: [{ commit: branch.commit, added: [], modified: [], removed: [] }],
      totalCommits: 1,
      checkoutSha: branch.commit.id,
      message: null,
    });
    return sendToHook(this.ctx, { hook, event: 'Push Hook', payload, test: true, signal: new AbortController().signal });
  }
}
