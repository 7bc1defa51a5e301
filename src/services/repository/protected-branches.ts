import type { Selectable } from 'kysely';
import type { ProtectedBranchesTable } from '../../db/schema';
import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import { now } from '../../lib/time';
import { conflict, recordNotFound } from '../../errors';
import { branchPatternMatches } from '../../lib/branch-pattern';
import { preparedPerHandle } from '../../db/prepared';

export type ProtectedBranch = Selectable<ProtectedBranchesTable>;

/** `release-*` style names match by wildcard, as GitLab 8.12's protected branches do (CI asks the same rule). */
export const matches = branchPatternMatches;

export interface BranchProtection {
  protected: boolean;
  developersCanPush: boolean;
  developersCanMerge: boolean;
  /** Every matching rule lets no one push (merge): access level 0. */
  nobodyCanPush: boolean;
  nobodyCanMerge: boolean;
}

export const UNPROTECTED: BranchProtection = {
  protected: false,
  developersCanPush: false,
  developersCanMerge: false,
  nobodyCanPush: false,
  nobodyCanMerge: false,
};

/** A rule's flags: developers too, or (access level 0) no one; neither is masters only. */
export interface RuleFlags {
  developersCanPush: boolean;
  developersCanMerge: boolean;
  nobodyCanPush?: boolean;
  nobodyCanMerge?: boolean;
}

const ruleValues = (flags: RuleFlags) =>
  ({
    developers_can_push: flags.developersCanPush ? 1 : 0,
    developers_can_merge: flags.developersCanMerge ? 1 : 0,
    nobody_can_push: flags.nobodyCanPush ? 1 : 0,
    nobody_can_merge: flags.nobodyCanMerge ? 1 : 0,
  }) as const;

/**
 * GitLab 8.12's view of a branch: protected when any rule (exact or wildcard) matches; developers
 * may push (merge) when any matching rule lets them; no one may when every matching rule says so.
 */
export function protectionOf(rules: ProtectedBranch[], branch: string): BranchProtection {
  const matching = rules.filter((rule) => matches(rule.name, branch));
  if (matching.length === 0) return UNPROTECTED;
  return {
    protected: true,
    developersCanPush: matching.some((rule) => rule.developers_can_push === 1),
    developersCanMerge: matching.some((rule) => rule.developers_can_merge === 1),
    nobodyCanPush: matching.every((rule) => rule.nobody_can_push === 1),
    nobodyCanMerge: matching.every((rule) => rule.nobody_can_merge === 1),
  };
}

/** A project's rules, read by every branch read and every push: compiled once. */
const rulesOf = preparedPerHandle((db: Db, projectId: number) =>
  db.selectFrom('protected_branches').selectAll().where('project_id', '=', projectId).orderBy('name'),
);

/** Which branches are protected, and how. */
export class ProtectedBranchesService {
  constructor(private readonly ctx: ServiceContext) {}

  async list(projectId: number): Promise<ProtectedBranch[]> {
    return rulesOf(this.ctx.db, projectId);
  }

  /** Protects (or re-protects with new flags) a branch; idempotent. */
  async protect(projectId: number, branch: string, flags: RuleFlags, executor: Db = this.ctx.db): Promise<void> {
    const time = now();
    const values = { ...ruleValues(flags), updated_at: time };
    await executor
      .insertInto('protected_branches')
      .values({ project_id: projectId, name: branch, ...values, created_at: time })
      .onConflict((oc) => oc.columns(['project_id', 'name']).doUpdateSet(values))
      .execute();
  }

  /** One rule by its exact name (a wildcard's too), or `404 Not found`. */
  async find(projectId: number, name: string): Promise<ProtectedBranch> {
    const rule = await this.ctx.db
      .selectFrom('protected_branches')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('name', '=', name)
      .executeTakeFirst();
    if (!rule) throw recordNotFound();
    return rule;
  }

  /** A new rule (a branch name or a wildcard, the branch need not exist); 409 when the name has one already. */
  async create(projectId: number, name: string, flags: RuleFlags): Promise<ProtectedBranch> {
    const time = now();
    const inserted = await this.ctx.db
      .insertInto('protected_branches')
      .values({ project_id: projectId, name, ...ruleValues(flags), created_at: time, updated_at: time })
      .onConflict((oc) => oc.columns(['project_id', 'name']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) throw conflict(`Protected branch '${name}' already exists`);
    return this.find(projectId, name);
  }

  /** Removes an exact rule that exists, or `404 Not found`. */
  async remove(projectId: number, name: string): Promise<void> {
    const deleted = await this.ctx.db
      .deleteFrom('protected_branches')
      .where('project_id', '=', projectId)
      .where('name', '=', name)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw recordNotFound();
  }

  /** Removes an exact rule; idempotent. */
  async unprotect(projectId: number, branch: string): Promise<void> {
    await this.ctx.db.deleteFrom('protected_branches').where('project_id', '=', projectId).where('name', '=', branch).execute();
  }
}
