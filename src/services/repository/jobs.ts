import type { JobHandlers } from '../../jobs/kinds';
import type { ServiceContext } from '../context';
import type { RepositoryStore } from './repositories';
import { importProjectRepository } from './import';
import { processPush, type PushProcessingDeps } from './push-processing';
import { removeProjectFiles } from '../ci/builds/files';
import { removeUnlinkedLfsObjects } from '../lfs-objects/queries';

/** The background work of repositories: imports, removals, and what follows a push. */
export function repositoryJobs(
  deps: PushProcessingDeps & { ctx: ServiceContext; repositories: RepositoryStore },
): Pick<JobHandlers, 'repository.import' | 'repository.remove' | 'push.process'> {
  const { ctx, repositories } = deps;
  return {
    'repository.import': (job) => importProjectRepository(ctx, repositories, job),
    // The project's rows are gone: its repository goes, and so do its builds' traces and artifacts.
    'repository.remove': async (job) => {
      await repositories.remove(job.projectId);
      await removeProjectFiles(ctx.files, job.projectId);
      // Its links to LFS objects went with its row; objects no other project links go now.
      await removeUnlinkedLfsObjects(ctx.db, ctx.files);
    },
    'push.process': (job) => processPush(deps, job),
  };
}
