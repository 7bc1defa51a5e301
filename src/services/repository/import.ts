import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServiceContext } from '../context';
import type { RepositoryStore } from './repositories';
import { refsMoved } from './refs-version';
import { importRepository } from '../../git/repositories';
import { defaultBranch } from '../../git/refs';
import { now } from '../../lib/time';
import type { JobKinds } from '../../jobs/kinds';

/**
 * Clones `import_url` into the project's repository. `file://` URLs are allowed (the issue asks for
 * them) except into Forge's own data directory, which holds every project's private repository.
 * A failed import is recorded on the project, not retried: most failures (a wrong URL) are permanent.
 */
export async function importProjectRepository(
  ctx: ServiceContext,
  repositories: RepositoryStore,
  job: JobKinds['repository.import'],
): Promise<void> {
  const setStatus = (status: string, defaultBranchName?: string | null) =>
    ctx.db
      .updateTable('projects')
      .set({ import_status: status, updated_at: now(), ...(defaultBranchName !== undefined ? { default_branch: defaultBranchName } : {}) })
      .where('id', '=', job.projectId)
      .execute();
  const repoPath = repositories.path(job.projectId);
  await setStatus('started');
  try {
    if (insideDataDir(job.url, ctx.config.dataDir)) throw new Error('Import url is invalid');
    await importRepository(ctx.git, repoPath, job.url, { allowFileUrls: true });
    await refsMoved(ctx, { id: job.projectId });
    await setStatus('finished', (await defaultBranch(repoPath)) ?? null);
  } catch (error) {
    ctx.log.warn({ project: job.projectId, err: error }, 'repository import failed');
    await setStatus('failed');
  }
}

function insideDataDir(url: string, dataDir: string): boolean {
  if (!url.startsWith('file:')) return false;
  try {
    const target = path.resolve(fileURLToPath(url));
    const root = path.resolve(dataDir);
    return target === root || target.startsWith(root + path.sep);
  } catch {
    return true;
  }
}
