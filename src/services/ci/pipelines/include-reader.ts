import type { ServiceContext } from '../../context';
import { can } from '../../policy';
import { findProject, loadStanding } from '../../projects/queries';
import { blobAtPath } from '../../../git/tree';
import { refValues } from '../../../git/refs';
import { resolveCommitId } from '../../../git/commits';
import { repositoryPath } from '../../../git/paths';
import { LIMITS } from '../../../lib/limits';
import type { IncludeReader } from '../yaml/include';

/**
 * What `include:` may read for a user (null: anyone, as a trigger's pipeline): files of a commit,
 * and the projects this user may download code of. Any other project is "not found", private or not.
 */
export function includeReader(ctx: ServiceContext, userId: number | null): IncludeReader {
  return {
    async readLocal(at, path) {
      const blob = await blobAtPath(ctx.git, repositoryPath(ctx.config.dataDir, at.projectId), at.sha, path);
      // A file past the limit of `.gitlab-ci.yml` itself reads as missing rather than being parsed.
      if (!blob || blob.size > LIMITS.ciConfigBytes) return undefined;
      return blob.content.toString('utf8');
    },
    async openProject(fullPath, ref) {
      const project = await findProject(ctx.db, fullPath);
      if (!project) return 'not-found';
      const caller =
        userId === null
          ? undefined
          : await ctx.db.selectFrom('users').select(['id', 'admin', 'external']).where('id', '=', userId).executeTakeFirst();
      if (!can(await loadStanding(ctx.db, project, caller ?? null), 'download_code')) return 'not-found';
      const name = ref ?? project.default_branch;
      if (!name) return 'no-ref';
      const repoPath = repositoryPath(ctx.config.dataDir, project.id);
      const refs = await refValues(repoPath, [`refs/heads/${name}`, `refs/tags/${name}`]);
      // A branch or tag name, or a commit's full sha.
      const target = refs.get(`refs/heads/${name}`) ?? refs.get(`refs/tags/${name}`) ?? (/^[0-9a-f]{40}$/.test(name) ? name : undefined);
      const sha = target && (await resolveCommitId(ctx.git, repoPath, target));
      return sha ? { projectId: project.id, sha } : 'no-ref';
    },
  };
}
