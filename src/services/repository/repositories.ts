import type { ServiceContext } from '../context';
import type { Db } from '../../db/index';
import { repositoryPath } from '../../git/paths';
import { createRepository, deleteRepository, forkRepository, setHeadBranch } from '../../git/repositories';
import type { RepositoryLifecycle } from '../projects/deps';
import { refsMoved } from './refs-version';

/** Where a project's bare repository lives: by id, so renames and transfers move no files. */
export const repoPathOf = (ctx: ServiceContext, projectId: number): string => repositoryPath(ctx.config.dataDir, projectId);

/** Creates, copies, imports and removes projects' repositories for the projects service. */
export class RepositoryStore implements RepositoryLifecycle {
  constructor(private readonly ctx: ServiceContext) {}

  path(projectId: number): string {
    return repoPathOf(this.ctx, projectId);
  }

  async create(projectId: number, headBranch?: string): Promise<void> {
    await createRepository(this.path(projectId));
    if (headBranch) await setHeadBranch(this.path(projectId), headBranch);
  }

  async fork(fromProjectId: number, toProjectId: number): Promise<void> {
    await forkRepository(this.path(fromProjectId), this.path(toProjectId));
    await refsMoved(this.ctx, { id: toProjectId });
  }

  /** Imports run in the background; the project shows `import_status` meanwhile. */
  async scheduleImport(projectId: number, url: string, executor: Db): Promise<void> {
    await this.ctx.jobs.enqueue('repository.import', { projectId, url }, executor);
  }

  async scheduleRemoval(projectId: number, executor: Db): Promise<void> {
    await this.ctx.jobs.enqueue('repository.remove', { projectId }, executor);
  }

  async remove(projectId: number): Promise<void> {
    await deleteRepository(this.ctx.git, this.path(projectId));
  }
}
