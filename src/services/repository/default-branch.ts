import type { ServiceContext } from '../context';
import type { SettingsService } from '../settings/settings';
import type { ProtectedBranchesService } from './protected-branches';
import type { Project } from '../projects/types';
import { setHeadBranch } from '../../git/repositories';
import { now } from '../../lib/time';
import { repoPathOf } from './repositories';
import { inTransaction } from '../../db/transaction';

/** `default_branch_protection`: 0 none, 1 developers can push, 2 full, 3 developers can merge. */
const PROTECTION = {
  1: { developersCanPush: true, developersCanMerge: false },
  2: { developersCanPush: false, developersCanMerge: false },
  3: { developersCanPush: false, developersCanMerge: true },
} as const;

/**
 * The first branch of an empty project (by `git push` or a files-API commit) becomes its default
 * branch: HEAD points at it and it is protected as the settings say, as GitLab 8.12 does.
 */
export class DefaultBranchService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly settings: SettingsService,
    private readonly protectedBranches: ProtectedBranchesService,
  ) {}

  async adopt(project: Project, branch: string): Promise<void> {
    const { default_branch_protection: level } = await this.settings.get();
    const adopted = await inTransaction(this.ctx.db, async (trx) => {
      const claimed = await trx
        .updateTable('projects')
        .set({ default_branch: branch, updated_at: now() })
        .where('id', '=', project.id)
        .where('default_branch', 'is', null)
        .executeTakeFirst();
      // Another writer adopted a branch first: theirs stays the default, and HEAD stays theirs.
      if (Number(claimed.numUpdatedRows) === 0) return false;
      const flags = PROTECTION[level as keyof typeof PROTECTION];
      if (flags) await this.protectedBranches.protect(project.id, branch, flags, trx);
      return true;
    });
    if (!adopted) return;
    await setHeadBranch(repoPathOf(this.ctx, project.id), branch);
    project.default_branch = branch;
  }
}
