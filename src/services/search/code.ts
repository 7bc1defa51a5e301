import type { ServiceContext } from '../context';
import type { Project } from '../projects/types';
import type { RepositoryReadsService } from '../repository/reads';
import { repoPathOf } from '../repository/repositories';
import { resolveCommitId } from '../../git/commits';
import { grepCommit } from '../../git/grep';
import type { CodeMatch } from './types';

/** How far one code search goes: every search is bounded, whatever the instance holds. */
export const CODE_SEARCH_LIMITS = {
  /** Projects looked in when no project is named (the most recently active the caller reads). */
  projects: 10,
  /** Matches kept over all projects; the pages show these. */
  matches: 200,
  /** One project's `git grep`. */
  grepMs: 2000,
  /** The whole search: projects not reached by then are not looked in. */
  totalMs: 5000,
};

/**
 * Lines holding `term` on each project's default branch, project after project until the limits
 * are reached. The caller has checked that the projects' code is theirs to read.
 */
export async function searchCode(
  ctx: ServiceContext,
  reads: RepositoryReadsService,
  projects: Project[],
  term: string,
  limits = CODE_SEARCH_LIMITS,
): Promise<{ matches: CodeMatch[]; truncated: boolean }> {
  const deadline = Date.now() + limits.totalMs;
  const matches: CodeMatch[] = [];
  let truncated = false;
  for (const project of projects) {
    const left = deadline - Date.now();
    if (left <= 0 || matches.length >= limits.matches) {
      truncated = true;
      break;
    }
    const repoPath = repoPathOf(ctx, project.id);
    const ref = await reads.defaultRef(project);
    const commitId = await resolveCommitId(ctx.git, repoPath, ref);
    if (!commitId) continue;
    const found = await grepCommit(repoPath, commitId, term, {
      maxMatches: limits.matches - matches.length,
      timeoutMs: Math.min(limits.grepMs, left),
    });
    for (const match of found.matches) matches.push({ project, ref, ...match });
    truncated ||= found.truncated;
  }
  return { matches, truncated };
}
