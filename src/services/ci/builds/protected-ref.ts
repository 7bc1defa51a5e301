import type { Db } from '../../../db/index';
import { branchPatternMatches } from '../../../lib/branch-pattern';

/**
 * GitLab's `protected_ref?` for a build's ref: a branch any protected-branch rule (exact or
 * wildcard) names. Forge has no protected tags, so no tag is protected. Decides
 * `CI_COMMIT_REF_PROTECTED` and whether protected variables reach the build.
 */
export async function isProtectedRef(db: Db, projectId: number, ref: string | null, tag: boolean): Promise<boolean> {
  if (tag || ref === null) return false;
  const rules = await db.selectFrom('protected_branches').select('name').where('project_id', '=', projectId).execute();
  return rules.some((rule) => branchPatternMatches(rule.name, ref));
}

/** The project variables a build of a ref may see: protected ones only on a protected ref. */
export function variablesForRef<T extends { protected: number }>(variables: T[], refProtected: boolean): T[] {
  return refProtected ? variables : variables.filter((variable) => variable.protected !== 1);
}
