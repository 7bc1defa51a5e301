import type { ServiceContext } from '../context';
import type { Project } from '../projects/types';
import type { DefaultBranchService } from './default-branch';
import { ZERO_OID } from '../../git/ref-names';
import type { RefUpdate } from '../../git/ref-update';
import { refsMoved } from './refs-version';

/** GitLab ran its post-receive processing (events, hooks, CI) after every ref change, pushed or made through the API: one job per push. */
export async function enqueuePushProcessing(ctx: ServiceContext, projectId: number, userId: number, updates: RefUpdate[]): Promise<void> {
  await ctx.jobs.enqueue('push.process', { projectId, userId, updates });
}

/** What follows a push git has applied, whichever way it came in (HTTP or SSH). */
export class PushesService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly defaultBranch: DefaultBranchService,
  ) {}

  /** The first branch pushed to an empty project (`master` when among them) becomes its default; events, hooks and CI follow in the background. */
  async accepted(project: Project, userId: number, updates: RefUpdate[]): Promise<void> {
    await refsMoved(this.ctx, project);
    if (project.default_branch === null) {
      const created = updates
        .filter((u) => u.ref.startsWith('refs/heads/') && u.newId !== ZERO_OID)
        .map((u) => u.ref.slice('refs/heads/'.length));
      const first = created.includes('master') ? 'master' : created[0];
      if (first) await this.defaultBranch.adopt(project, first);
    }
    await enqueuePushProcessing(this.ctx, project.id, userId, updates);
  }
}
