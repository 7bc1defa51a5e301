import type { Db } from '../../../db/index';
import { branchPatternMatches } from '../../../lib/branch-pattern';

/**
 * GitLab's `protected_ref?` for a build's ref: a branch any protected-branch rule (exact or
 * wildcard) names. Forge has no protected tags, so no tag is protected. Decides
 * `CI_COMMIT_REF_PROTECTED`, whether protected variables reach the build, and which builds a
 * runner registered `ref_protected` may take.
 */
export async function isProtectedRef(db: Db, projectId: number, ref: string | null, tag: boolean): Promise<boolean> {
  if (tag || ref === null) return false;
  return (await protectedRefJudge(db, [projectId]))(projectId, ref, tag);
}

/** `isProtectedRef` for builds of several projects, each project's rules read in one query. */
export async function protectedRefJudge(
  db: Db,
  projectIds: number[],
): Promise<(projectId: number, ref: string | null, tag: boolean) => boolean> {
  const rules =
    projectIds.length === 0
      ? []
      : await db.selectFrom('protected_branches').select(['project_id', 'name']).where('project_id', 'in', projectIds).execute();
  return (projectId, ref, tag) =>
    !tag && ref !== null && rules.some((rule) => rule.project_id === projectId && branchPatternMatches(rule.name, ref));
}

/** The project variables a build of a ref may see: protected ones only on a protected ref. */
export function variablesForRef<T extends { protected: number }>(variables: T[], refProtected: boolean): T[] {
  return refProtected ? variables : variables.filter((variable) => variable.protected !== 1);
}
