import type { ServiceContext } from '../context';
import type { Project } from '../projects/types';
import type { RefsSnapshot } from '../../git/refs-cache';
import { repositoryPath } from '../../git/paths';

/**
 * Says that a project's branches or tags moved: every Forge process reads its refs again at its
 * next request for them. Called after git moved them (never before: a reader that sees the new
 * version must find the new refs) and before the writer answers. The caller's project record
 * takes the new version, so that what it reads next is current too.
 */
export async function refsMoved(ctx: ServiceContext, project: Pick<Project, 'id'> & Partial<Pick<Project, 'refs_version'>>): Promise<void> {
  const bumped = await ctx.db
    .updateTable('projects')
    .set((eb) => ({ refs_version: eb('refs_version', '+', 1) }))
    .where('id', '=', project.id)
    .returning('refs_version')
    .executeTakeFirst();
  if (bumped && project.refs_version !== undefined) project.refs_version = bumped.refs_version;
}

/** The project's branches and tags as of its record's refs version (or newer). */
export function refsOf(ctx: ServiceContext, project: Pick<Project, 'id' | 'refs_version'>): Promise<RefsSnapshot> {
  return ctx.refs.get(repositoryPath(ctx.config.dataDir, project.id), project.refs_version);
}
